// A measured run's kernels laid over the model: groups by what each runtime kernel covers, with
// its time where it maps onto exactly one group, load-time constants joined to their consumer,
// kernels found by the node they grew from, a function op's body as one kernel, and the time of
// kernels naming no node kept apart.
#include "../graph/onnx_builder.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/predict/measured_kernels.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::predict;
using cleave::test::OnnxBuilder;

namespace {

// x -> MatMul(w) -> Add(b) -> y, with ONNX Runtime's naming of the fused kernel.
graph::Model matmul_model() {
    OnnxBuilder b;
    b.input("x", {8, 64});
    b.initializer("w", {64, 32});
    b.initializer("b", {32});
    b.node("MatMul", {"x", "w"}, {"m"}, "/mlp/MatMul");
    b.node("Add", {"m", "b"}, {"y"}, "/mlp/Add");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "matmul.onnx");
}

// x -> a (Relu) -> b (Sigmoid) -> c (Tanh) -> d (Add of a Constant's value).
graph::Model chain() {
    OnnxBuilder b;
    b.input("x", {1, 16});
    b.node("Relu", {"x"}, {"ra"}, "a");
    b.node("Sigmoid", {"ra"}, {"rb"}, "b");
    b.node("Tanh", {"rb"}, {"rc"}, "c");
    b.initializer("one", {16});
    b.node("Identity", {"one"}, {"k"}, "k"); // computed at load time
    b.node("Add", {"rc", "k"}, {"y"}, "d");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "chain.onnx");
}

// The kernel holding node `name`, with its time.
std::pair<const fusion::Kernel*, std::optional<double>>
kernel_of(const graph::Model& model, const MeasuredKernels& m, const std::string& name) {
    const auto k = static_cast<std::size_t>(
        m.kernels.kernel_of_node[static_cast<std::size_t>(model.find_node(name))]);
    return {&m.kernels.kernels[k], m.us[k]};
}

} // namespace

class MeasuredKernelsTest : public QObject {
    Q_OBJECT

private slots:
    void groupsFollowWhatEachKernelCovers() {
        const auto model = chain();
        profile::MeasuredRun run;
        run.kernels.push_back({"fused", "FusedAct", "", {"a", "b"}, 5.0});
        run.kernels.push_back({"c", "Tanh", "", {"c"}, 2.0});
        run.kernels.push_back({"d", "Add", "", {"d"}, 1.5});
        run.kernels.push_back({"copy", "MemcpyFromHost", "", {}, 0.25});
        run.kernels.push_back({"untimed", "Add", "", {}, std::nullopt});
        const auto m = measured_kernels(model, run);
        QCOMPARE(m.kernels.kernels.size(), std::size_t{3});
        const auto [ab, ab_us] = kernel_of(model, m, "a");
        QCOMPARE(ab->nodes, (std::vector<int>{0, 1}));
        QCOMPARE(ab->type, std::string("FusedAct")); // the runtime's name for it
        QCOMPARE(ab_us.value_or(0), 5.0);
        // The load-time Identity joins the Add it feeds.
        const auto [d, d_us] = kernel_of(model, m, "d");
        QCOMPARE(d->nodes, (std::vector<int>{3, 4}));
        QCOMPARE(d->type, std::string("Add"));
        QCOMPARE(d_us.value_or(0), 1.5);
        QCOMPARE(m.total_us, 8.75);
        QCOMPARE(m.unattributed_us, 0.25);
    }

    void aNodeNoKernelNamesStaysAloneUntimed() {
        const auto model = chain();
        profile::MeasuredRun run;
        run.kernels.push_back({"fused", "FusedAct", "", {"a", "b"}, 5.0});
        const auto m = measured_kernels(model, run);
        const auto [c, c_us] = kernel_of(model, m, "c");
        QCOMPARE(c->nodes, std::vector<int>{2});
        QCOMPARE(c->type, std::string("Tanh")); // the node's own op
        QVERIFY(!c_us);
        QCOMPARE(m.total_us, 5.0);
    }

    void aKernelOverTwoGroupsGivesNeitherItsTime() {
        // One runtime kernel names a and c, which b between them keeps apart.
        const auto model = chain();
        profile::MeasuredRun run;
        run.kernels.push_back({"odd", "Odd", "", {"a", "c"}, 4.0});
        run.kernels.push_back({"b", "Sigmoid", "", {"b"}, 1.0});
        const auto m = measured_kernels(model, run);
        const auto [a, a_us] = kernel_of(model, m, "a");
        const auto [c, c_us] = kernel_of(model, m, "c");
        QVERIFY(a != c);
        QCOMPARE(a->type, std::string("Odd"));
        QVERIFY(!a_us);
        QVERIFY(!c_us);
        QCOMPARE(kernel_of(model, m, "b").second.value_or(0), 1.0);
        QCOMPARE(m.total_us, 5.0);
        QCOMPARE(m.unattributed_us, 0.0); // its time is the model's, just not one group's
    }

    void fusedKernelsAreTakenByTheNodeTheyGrewFrom() {
        const auto model = matmul_model();
        profile::MeasuredRun run;
        run.model = "matmul";
        run.e2e_ms = {0.1};
        // ONNX Runtime's covers of such kernels can be empty; its name says where it came from.
        run.kernels.push_back({"/mlp/MatMul/MatMulAddFusion", "Gemm", "", {}, 42.0});
        const auto measured = measured_kernels(model, run);
        QCOMPARE(measured.unattributed_us, 0.0);
        bool found = false;
        for (std::size_t k = 0; k < measured.kernels.kernels.size(); ++k)
            if (measured.kernels.kernels[k].name == "/mlp/MatMul") {
                QCOMPARE(measured.kernels.kernels[k].type, std::string("Gemm"));
                QCOMPARE(measured.us[k].value_or(0), 42.0);
                found = true;
            }
        QVERIFY(found);
        // A name that is no node stays unattributed.
        run.kernels[0].name = "gemm_input_reshape";
        QCOMPARE(measured_kernels(model, run).unattributed_us, 42.0);
    }

    void aFusionPathOfSeveralStepsLeadsBackToItsNode() {
        const auto model = matmul_model();
        profile::MeasuredRun run;
        run.kernels.push_back({"/mlp/MatMul/MatMulScaleFusion//MatmulTransposeFusion/",
                               "FusedMatMul",
                               "",
                               {"k"},
                               7.0});
        const auto m = measured_kernels(model, run);
        const auto [matmul, us] = kernel_of(model, m, "/mlp/MatMul");
        QCOMPARE(matmul->type, std::string("FusedMatMul"));
        QCOMPARE(us.value_or(0), 7.0);
    }

    void aFunctionOpsBodyIsOneKernelOfTheOp() {
        // ONNX Runtime runs HardSwish as HardSigmoid (covering nothing) then Mul (covering the
        // node): one HardSwish kernel, timed as both, as the rules and a prediction see it.
        OnnxBuilder b;
        b.input("x", {1, 16, 8, 8});
        b.node("Relu", {"x"}, {"r"}, "/act/Relu");
        b.node("HardSwish", {"r"}, {"y"}, "/act/HardSwish");
        b.output("y");
        const auto model = graph::load_model_from_bytes(b.bytes(), "hardswish.onnx");
        profile::MeasuredRun run;
        run.model = "hardswish";
        run.e2e_ms = {0.1};
        run.kernels.push_back({"/act/Relu", "Relu", "", {"/act/Relu"}, 2.0});
        run.kernels.push_back({"HardSigmoid_7", "HardSigmoid", "", {}, 3.0});
        run.kernels.push_back({"Mul_8", "Mul", "", {"/act/HardSwish"}, 4.0});
        const auto measured = measured_kernels(model, run);
        QCOMPARE(measured.unattributed_us, 0.0);
        QCOMPARE(measured.total_us, 9.0);
        bool found = false;
        for (std::size_t k = 0; k < measured.kernels.kernels.size(); ++k)
            if (measured.kernels.kernels[k].name == "/act/HardSwish") {
                QCOMPARE(measured.kernels.kernels[k].type, std::string("HardSwish"));
                QCOMPARE(measured.us[k].value_or(0), 7.0);
                QCOMPARE(measured.kernels.kernels[k].launches, 2);
                found = true;
            }
        QVERIFY(found);
        // A kernel named after a node keeps its own op and leaves the one before it alone.
        run.kernels[2].name = "/act/HardSwish";
        QCOMPARE(measured_kernels(model, run).unattributed_us, 3.0);
    }
};

QTEST_GUILESS_MAIN(MeasuredKernelsTest)
#include "measured_kernels_test.moc"
