// AutoDiCE mapping.json: both node namings read, AutoDiCE's consistency check (missing,
// repeated and unknown nodes, unknown keys), a mapping that cuts a kernel fused per PE, and a
// written file read back to the same assignment.
#include "../partition/tiny_partition_model.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace cleave;
using autodice::parse_mapping_file;

namespace {

// The problem of the InputError `parse` throws; empty when it throws none.
template <typename Parse>
std::string error_of(Parse parse) {
    try {
        parse();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A rule set that fuses a Relu into the Add reading it: relu2 + add3 of the tiny model.
fusion::FusionMethod relu_add() {
    return {"relu-add", "test",
            fusion::parse_rule_set(R"({"format": "cleave-fusion-rules", "version": 1,
                "name": "relu-add", "runtime": "test", "rules": [{"name": "relu-add",
                "from": ["Relu"], "to": ["Add"], "kernel_type": "ReluAdd"}]})",
                                   "relu-add.json")};
}

} // namespace

class MappingFileTest : public QObject {
    Q_OBJECT

    graph::Model model_ = test::tiny_partition_model();
    device::Cluster cluster_ = test::tiny_cluster();

private slots:
    void acceptsModelNamesAndAutodiceNames() {
        const auto own = parse_mapping_file(
            R"({"h1_gpu": ["relu0", "matmul1"], "h2_gpu": ["relu2", "add3"]})", "m.json", model_,
            cluster_);
        const auto autodice = parse_mapping_file(
            R"({"h1_gpu": ["_blk_a", "_blk_b"], "h2_gpu": ["_blk_c", "d"]})", "m.json", model_,
            cluster_);
        QCOMPARE(own, (std::vector<int>{1, 1, 3, 3}));
        QCOMPARE(autodice, own);
    }

    void missingNodeIsListed() {
        const auto message = error_of([&] {
            parse_mapping_file(R"({"h1_gpu": ["relu0", "matmul1", "relu2"]})", "m.json", model_,
                               cluster_);
        });
        QVERIFY2(contains(message, "m.json"), message.c_str());
        QVERIFY2(contains(message, "mapped to no PE (1): add3"), message.c_str());
    }

    void repeatedNodeIsListedWithBothPlaces() {
        const auto message = error_of([&] {
            parse_mapping_file(R"({"h1_gpu": ["relu0", "matmul1", "relu2", "add3"],
                                   "h2_gpu": ["_blk_a"]})",
                               "m.json", model_, cluster_);
        });
        QVERIFY2(contains(message, "m.json: /h2_gpu/0"), message.c_str());
        QVERIFY2(contains(message, "more than once (1): _blk_a (/h1_gpu/0 and /h2_gpu/0)"),
                 message.c_str());
    }

    void unknownKeyAndUnknownNodeAreListed() {
        const auto message = error_of([&] {
            parse_mapping_file(R"({"h9_gpu": ["relu0", "matmul1", "relu2", "add3", "conv7"]})",
                               "m.json", model_, cluster_);
        });
        QVERIFY2(contains(message, "m.json: /h9_gpu"), message.c_str());
        QVERIFY2(contains(message, "not PEs of the cluster"), message.c_str());
        QVERIFY2(contains(message, "(1): h9_gpu"), message.c_str());
        QVERIFY2(contains(message, "h1_arm012345"), message.c_str());
        QVERIFY2(contains(message, "not in the model tiny.onnx (1): conv7"), message.c_str());
    }

    void malformedFilesNameThePlace() {
        QVERIFY(contains(error_of([&] { parse_mapping_file("[1]", "m.json", model_, cluster_); }),
                         "expected an AutoDiCE mapping.json"));
        QVERIFY(contains(error_of([&] {
                             parse_mapping_file(R"({"h1_gpu": "relu0"})", "m.json", model_, cluster_);
                         }),
                         "m.json: /h1_gpu: expected a list"));
        QVERIFY(contains(error_of([&] { parse_mapping_file("{", "m.json", model_, cluster_); }),
                         "not valid JSON"));
    }

    // AutoDiCE maps nodes: a mapping may put relu2 and add3, one kernel, on two PEs. Each PE's
    // runtime then fuses its part alone, so the kernels are fused again per PE, and the cut said.
    void mappingThatCutsAKernelFusesEachPeApart() {
        const auto method = relu_add();
        const auto fused = fusion::detect_kernels(model_, method);
        QCOMPARE(fused.kernels.size(), std::size_t(3));
        QCOMPARE(fused.kernels.back().type, std::string("ReluAdd"));
        const auto pe_of_node = parse_mapping_file(
            R"({"h1_gpu": ["relu0", "matmul1", "relu2"], "h2_gpu": ["add3"]})", "m.json", model_,
            cluster_);
        const auto mapped = autodice::mapped_kernels(pe_of_node, model_, fused, method, cluster_);
        QCOMPARE(mapped.cut.size(), std::size_t(1));
        QCOMPARE(mapped.cut.front(),
                 std::string("the mapping cuts kernel relu2 (ReluAdd, 2 nodes): relu2 on h1_gpu; "
                             "add3 on h2_gpu; each PE fuses and runs its part as a kernel of its "
                             "own"));
        QCOMPARE(mapped.kernels.kernels.size(), std::size_t(4));
        QCOMPARE(mapped.kernels.kernels[3].type, std::string("Add"));
        QCOMPARE(mapped.assignment.pe_of_kernel, (std::vector<int>{1, 1, 1, 3}));
        // The parts carry the whole kernel's work between them.
        QCOMPARE(mapped.kernels.kernels[2].macs + mapped.kernels.kernels[3].macs,
                 fused.kernels[2].macs);

        // A mapping that keeps every kernel on one PE keeps the kernels as they are.
        const auto whole = autodice::mapped_kernels(
            parse_mapping_file(R"({"h1_gpu": ["relu0", "matmul1"], "h2_gpu": ["relu2", "add3"]})",
                               "m.json", model_, cluster_),
            model_, fused, method, cluster_);
        QVERIFY(whole.cut.empty());
        QCOMPARE(whole.kernels.kernels.size(), std::size_t(3));
        QCOMPARE(whole.assignment.pe_of_kernel, (std::vector<int>{1, 1, 3}));
    }

    // What the studio shows of a mapping.json or a project's mapping: segments of consecutive
    // kernels, a PE that comes back named, and a PE without latencies refused.
    void segmentsOfANodeMapping() {
        const auto kernels = test::tiny_kernels(model_);
        const auto pe_of_node = parse_mapping_file(
            R"({"h1_gpu": ["relu0", "add3"], "h2_gpu": ["matmul1", "relu2"]})", "m.json", model_,
            cluster_);
        std::vector<std::string> errors(cluster_.pes.size());
        const auto assignment =
            autodice::mapped_kernels(pe_of_node, model_, kernels, relu_add(), cluster_).assignment;
        auto segments = autodice::mapping_segments(assignment, cluster_, errors, "m.json");
        QCOMPARE(segments.mapping.points, (std::vector<int>{1, 3}));
        QCOMPARE(segments.mapping.pes, (std::vector<int>{1, 3, 1}));
        QCOMPARE(segments.scattered,
                 (std::vector<std::string>{"h1_gpu runs 2 separate stretches of kernels"}));

        errors[3] = "no predictor and no fp32 peak";
        const auto message = error_of([&] {
            autodice::mapping_segments(assignment, cluster_, errors, "p.cleave", "/mapping");
        });
        QCOMPARE(message, std::string("p.cleave: /mapping: h2_gpu runs kernels, but it has no "
                                      "predicted latencies, so the mapping cannot be evaluated: "
                                      "no predictor and no fp32 peak"));
    }

    void writtenMappingReadsBackWithAutodiceNames() {
        QTemporaryDir dir;
        const auto kernels = test::tiny_kernels(model_);
        const partition::KernelAssignment assignment{{5, 1, 1, 3}};
        const auto path = dir.filePath("mapping.json").toStdString();
        autodice::save_mapping_file(model_, kernels, assignment, cluster_, path);
        const auto text = autodice::mapping_file_json(model_, kernels, assignment, cluster_);
        QVERIFY2(contains(text, R"("h1_gpu": [
    "_blk_b",
    "_blk_c"
  ])"), text.c_str());
        QVERIFY(text.find("h1_gpu") < text.find("h3_gpu")); // cluster order
        const auto back = autodice::read_mapping_file(path, model_, cluster_);
        QCOMPARE(
            autodice::mapped_kernels(back, model_, kernels, relu_add(), cluster_).assignment.pe_of_kernel,
            assignment.pe_of_kernel);
    }
};

QTEST_APPLESS_MAIN(MappingFileTest)
#include "mapping_file_test.moc"
