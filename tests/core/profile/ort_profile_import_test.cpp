// ONNX Runtime's profiling trace as a measured run, on a hand-written trace in ORT 1.30's format
// (tests/data/ort-profile-small.json) of a small model whose fusions are ORT's own: covers from
// the optimised model, covers from names alone, warm-ups, medians and refusals.
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/profile/ort_profile_import.hpp"
#include "ort_small_model.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

using cleave::profile::MeasuredRun;
using Names = std::vector<std::string>;

const std::string kTrace = CLEAVE_TEST_DATA_DIR "/ort-profile-small.json";

struct Fixture {
    QTemporaryDir dir;
    cleave::graph::Model model;
    std::vector<cleave::graph::WrittenNode> optimized;

    Fixture() {
        const std::string model_path = dir.filePath("ort_small.onnx").toStdString();
        const std::string optimized_path = dir.filePath("ort_small.opt.onnx").toStdString();
        cleave::test::write_ort_small_model(model_path);
        cleave::test::write_ort_small_optimized_model(optimized_path);
        model = cleave::graph::load_model(model_path);
        optimized = cleave::graph::read_written_nodes(optimized_path);
    }
};

const cleave::profile::MeasuredKernel& kernel(const MeasuredRun& run, const std::string& name) {
    for (const auto& k : run.kernels)
        if (k.name == name)
            return k;
    throw std::runtime_error("no kernel " + name);
}

std::string write_text(const QTemporaryDir& dir, const std::string& text) {
    const std::string path = dir.filePath("trace.json").toStdString();
    std::ofstream(path) << text;
    return path;
}

std::string fixture_text() {
    std::ifstream in(kTrace);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The run of a trace of two runs of `kernels` (optimised node, op), each 3 us, imported against
// the model and the optimised model at the paths given.
MeasuredRun imported(const QTemporaryDir& dir, const std::string& model_path,
                     const std::string& optimized_path,
                     const std::vector<std::pair<std::string, std::string>>& kernels) {
    nlohmann::json events = nlohmann::json::array();
    for (int run = 0; run < 2; ++run) {
        events.push_back({{"cat", "Session"},
                          {"pid", 1},
                          {"tid", 1},
                          {"dur", 20},
                          {"ts", 100 * run},
                          {"ph", "X"},
                          {"name", "model_run"},
                          {"args", nlohmann::json::object()}});
        for (const auto& [node, op] : kernels)
            events.push_back({{"cat", "Node"},
                              {"pid", 1},
                              {"tid", 1},
                              {"dur", 3},
                              {"ts", 100 * run + 1},
                              {"ph", "X"},
                              {"name", node + "_kernel_time"},
                              {"args", {{"op_name", op}, {"provider", "CPUExecutionProvider"}}}});
    }
    const auto trace = cleave::profile::read_ort_trace(write_text(dir, events.dump()));
    return cleave::profile::import_ort_profile(trace, cleave::graph::load_model(model_path),
                                               cleave::graph::read_written_nodes(optimized_path),
                                               {})
        .run;
}

} // namespace

class OrtProfileImportTest : public QObject {
    Q_OBJECT

private slots:
    void traceGivesRunsAndTheirKernelsInOrder() {
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        QCOMPARE(trace.run_ms, (std::vector<double>{0.135, 0.119, 0.124}));
        QCOMPARE(trace.runs.size(), std::size_t{3});
        QCOMPARE(trace.runs[1].size(), std::size_t{9});
        const auto& first = trace.runs[1].front();
        QCOMPARE(first.node, std::string("conv"));
        QCOMPARE(first.op, std::string("FusedConv"));
        QCOMPARE(first.provider, std::string("CPUExecutionProvider"));
        QCOMPARE(first.us, 41.0);
        QCOMPARE(first.input_shapes.front(), (cleave::graph::Shape{1, 3, 8, 8}));
        QCOMPARE(trace.runs[1].back().node, std::string("fused fc"));
    }

    void firstRunIsAWarmUpAndKernelsTakeTheMedianOfTheRest() {
        Fixture f;
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        const auto imported = cleave::profile::import_ort_profile(trace, f.model, f.optimized, {});
        const auto& run = imported.run;
        QCOMPARE(imported.runs_in_trace, 3);
        QCOMPARE(imported.runs_kept, 2);
        QCOMPARE(run.e2e_ms, (std::vector<double>{0.119, 0.124}));
        QVERIFY(std::abs(run.cv.value_or(0) - 0.0291) < 1e-4);
        QCOMPARE(run.kernels.size(), std::size_t{9});
        QCOMPARE(kernel(run, "conv").us.value_or(0), 42.5);
        QCOMPARE(kernel(run, "add").us.value_or(0), 3.5);
        QCOMPARE(run.model, std::string("ort_small"));
        QCOMPARE(run.dtype, std::string("float32"));
        QCOMPARE(run.input_shape, (std::vector<std::int64_t>{1, 3, 8, 8}));
    }

    void noWarmUpKeepsEveryRun() {
        Fixture f;
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        cleave::profile::OrtImportOptions options;
        options.warmups = 0;
        options.threads = 1;
        const auto run =
            cleave::profile::import_ort_profile(trace, f.model, f.optimized, options).run;
        QCOMPARE(run.e2e_ms.size(), std::size_t{3});
        QCOMPARE(run.threads, 1);
        QCOMPARE(kernel(run, "conv").us.value_or(0), 44.0);
    }

    void coversComeFromTheOptimisedModel() {
        Fixture f;
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        const auto imported = cleave::profile::import_ort_profile(trace, f.model, f.optimized, {});
        const auto& run = imported.run;
        QCOMPARE(kernel(run, "conv").covers, (Names{"conv", "bn", "relu"}));
        QCOMPARE(kernel(run, "conv").domain, std::string("com.microsoft"));
        QCOMPARE(kernel(run, "conv_b").covers, (Names{"conv_b"}));
        QCOMPARE(kernel(run, "mul/QuickGeluFusion/").covers, (Names{"sig", "mul"}));
        // The inlined HardSwish: its Mul writes the node's output, its HardSigmoid covers nothing.
        QCOMPARE(kernel(run, "HardSigmoid_11").covers, Names{});
        QCOMPARE(kernel(run, "Mul_12").covers, (Names{"hs"}));
        QCOMPARE(kernel(run, "Mul_12").domain, std::string(""));
        // The constant target shape is computed at load time; the optimised graph keeps its
        // tensor and one kernel reads it: listed with that kernel, as the shared data lists them.
        QCOMPARE(kernel(run, "reshape").covers, (Names{"target_shape", "reshape"}));
        QCOMPARE(kernel(run, "fused fc").covers, (Names{"fc", "fc_relu"}));
        QCOMPARE(imported.run_time_nodes, 12);
        QCOMPARE(imported.covered_nodes, 12);
    }

    void coversFromNamesAloneFollowOrtsFusionPatterns() {
        Fixture f;
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        const auto run = cleave::profile::import_ort_profile(trace, f.model, {}, {}).run;
        QCOMPARE(kernel(run, "conv").covers, (Names{"conv", "bn", "relu"}));
        QCOMPARE(kernel(run, "conv").domain, std::string("com.microsoft"));
        // Sigmoid is the f of x * f(x): it joins the Mul the QuickGelu is named after.
        QCOMPARE(kernel(run, "mul/QuickGeluFusion/").covers, (Names{"sig", "mul", "hs"}));
        QCOMPARE(kernel(run, "Mul_12").covers, Names{});
        QCOMPARE(kernel(run, "fused fc").covers, (Names{"fc", "fc_relu"}));
    }

    void biasOfAReshapedMatMulAddFusionBelongsToItsGemm() {
        // MatMulAddFusion runs a 3-D MatMul + Add as a Gemm between two Reshapes it adds;
        // FuseContiguousReshapes merges the second with the model's Reshape after the Add. That
        // Reshape writes no tensor of the Add, yet the Add runs in the Gemm.
        QTemporaryDir dir;
        cleave::test::OnnxBuilder m;
        m.input("x", {1, 4, 8});
        m.initializer("w", {8, 6});
        m.initializer("b", {6});
        m.int64_initializer("heads", {1, 4, 2, 3});
        m.node("MatMul", {"x", "w"}, {"mm_out"}, "mm");
        m.node("Add", {"mm_out", "b"}, {"biased"}, "bias");
        m.node("Reshape", {"biased", "heads"}, {"split"}, "view");
        m.node("Relu", {"split"}, {"y"}, "relu");
        m.output("y");
        const std::string model_path = dir.filePath("mm.onnx").toStdString();
        m.save(model_path);
        cleave::test::OnnxBuilder o;
        o.input("x", {1, 4, 8});
        o.initializer("w", {8, 6});
        o.initializer("b", {6});
        o.int64_initializer("rows", {4, 8});
        o.int64_initializer("heads", {1, 4, 2, 3});
        o.node("Reshape", {"x", "rows"}, {"x2d"}, "gemm_input_reshape");
        o.node("Gemm", {"x2d", "w", "b"}, {"g"}, "mm/MatMulAddFusion");
        o.node("Reshape", {"g", "heads"}, {"split"}, "gemm_output_reshape_new_reshape");
        o.node("Relu", {"split"}, {"y"}, "relu");
        o.output("y");
        const std::string optimized_path = dir.filePath("mm.opt.onnx").toStdString();
        o.save(optimized_path);
        const auto run = imported(dir, model_path, optimized_path,
                                  {{"gemm_input_reshape", "Reshape"},
                                   {"mm/MatMulAddFusion", "Gemm"},
                                   {"gemm_output_reshape_new_reshape", "Reshape"},
                                   {"relu", "Relu"}});
        QCOMPARE(kernel(run, "mm/MatMulAddFusion").covers, (Names{"mm", "bias"}));
        QCOMPARE(kernel(run, "gemm_output_reshape_new_reshape").covers, (Names{"view"}));
    }

    void reshapesMergedIntoOneBelongToIt() {
        // timm's Swin: two Reshapes before a 3-D MatMul + Add. FuseContiguousReshapes merges
        // them with the Gemm's input Reshape into one named after the first; the second is gone
        // from the optimised graph, and it is that Reshape, not the Gemm, that computes it.
        QTemporaryDir dir;
        cleave::test::OnnxBuilder m;
        m.input("x", {1, 8, 8});
        m.initializer("w", {8, 6});
        m.initializer("b", {6});
        m.int64_initializer("windows", {2, 4, 8});
        m.int64_initializer("tokens", {1, 8, 8});
        m.node("Reshape", {"x", "windows"}, {"parts"}, "partition");
        m.node("Reshape", {"parts", "tokens"}, {"t"}, "flatten");
        m.node("MatMul", {"t", "w"}, {"mm_out"}, "qkv");
        m.node("Add", {"mm_out", "b"}, {"biased"}, "qkv_bias");
        m.node("Relu", {"biased"}, {"y"}, "relu");
        m.output("y");
        const std::string model_path = dir.filePath("swin.onnx").toStdString();
        m.save(model_path);
        cleave::test::OnnxBuilder o;
        o.input("x", {1, 8, 8});
        o.initializer("w", {8, 6});
        o.initializer("b", {6});
        o.int64_initializer("rows", {8, 8});
        o.int64_initializer("back", {1, 8, 6});
        o.node("Reshape", {"x", "rows"}, {"x2d"}, "partition_new_reshape");
        o.node("Gemm", {"x2d", "w", "b"}, {"g"}, "qkv/MatMulAddFusion");
        o.node("Reshape", {"g", "back"}, {"biased"}, "gemm_output_reshape");
        o.node("Relu", {"biased"}, {"y"}, "relu");
        o.output("y");
        const std::string optimized_path = dir.filePath("swin.opt.onnx").toStdString();
        o.save(optimized_path);
        const auto run = imported(dir, model_path, optimized_path,
                                  {{"partition_new_reshape", "Reshape"},
                                   {"qkv/MatMulAddFusion", "Gemm"},
                                   {"gemm_output_reshape", "Reshape"},
                                   {"relu", "Relu"}});
        QCOMPARE(kernel(run, "partition_new_reshape").covers, (Names{"partition", "flatten"}));
        QCOMPARE(kernel(run, "qkv/MatMulAddFusion").covers, (Names{"qkv", "qkv_bias"}));
        QVERIFY(kernel(run, "gemm_output_reshape").covers.empty());
    }

    void inputDimsComeFromTheKernelsThatReadTheInput() {
        Fixture f;
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        using Shapes = std::map<std::string, cleave::graph::Shape>;
        const Shapes expected{{"x", {1, 3, 8, 8}}};
        QCOMPARE(cleave::profile::ort_trace_input_shapes(trace, f.model, f.optimized), expected);
        QCOMPARE(cleave::profile::ort_trace_input_shapes(trace, f.model, {}), expected);
    }

    void corruptTraceNamesLineAndColumn() {
        QTemporaryDir dir;
        const std::string text = fixture_text();
        const std::string path = write_text(dir, text.substr(0, text.find("conv_kernel_time")));
        try {
            cleave::profile::read_ort_trace(path);
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.file(), path);
            QVERIFY2(e.place().starts_with("line 6, column "), e.place().c_str());
            QVERIFY2(std::string(e.problem()).find("not valid JSON") != std::string::npos,
                     e.what());
        }
    }

    void kernelEventWithoutDurationIsRefused() {
        QTemporaryDir dir;
        std::string text = fixture_text();
        const auto at = text.find("\"dur\" :41,");
        text.replace(at, 10, "\"dur\" :\"41\",");
        const std::string path = write_text(dir, text);
        try {
            cleave::profile::read_ort_trace(path);
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("/15/dur"));
        }
    }

    void kernelTheOptimisedModelLacksIsRefused() {
        Fixture f;
        auto optimized = f.optimized;
        optimized.erase(optimized.begin() + 1); // conv_b
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        try {
            cleave::profile::import_ort_profile(trace, f.model, optimized, {});
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.file(), kTrace);
            QCOMPARE(e.place(), std::string("/16 (node 'conv_b', Conv)"));
        }
    }

    void traceOfAnotherModelIsRefused() {
        QTemporaryDir dir;
        cleave::test::OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"y"}, "other");
        b.output("y");
        const std::string path = dir.filePath("other.onnx").toStdString();
        b.save(path);
        const auto trace = cleave::profile::read_ort_trace(kTrace);
        try {
            cleave::profile::import_ort_profile(trace, cleave::graph::load_model(path), {}, {});
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QVERIFY2(e.problem().find("none of its 9 kernels is a node of") != std::string::npos,
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(OrtProfileImportTest)
#include "ort_profile_import_test.moc"
