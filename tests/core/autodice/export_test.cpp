// AutoDiCE packages: the comm tables, rankfile and sub-model interfaces equal what AutoDiCE's own
// front end wrote for the same mappings (tests/data/autodice), sub-models reload with all their
// weights, bad mappings are refused, and a failed write leaves the earlier export untouched.
#include "core/autodice/export.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/partition/equal_node_points.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <sys/resource.h>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

const std::string kModels = CLEAVE_EXAMPLE_MODELS_DIR;
const std::string kClusters = CLEAVE_EXAMPLE_CLUSTERS_DIR;
const std::string kFixtures = CLEAVE_TEST_DATA_DIR "/autodice";

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Case {
    graph::Model model;
    fusion::KernelGraph kernels;
    device::Cluster cluster;
    partition::KernelAssignment assignment;
};

Case load_case(const std::string& model, const std::string& points, const std::string& pes) {
    Case c{graph::load_model(kModels + "/" + model),
           {},
           device::load_cluster(kClusters + "/nx8.cluster.json"),
           {}};
    c.kernels = fusion::detect_kernels(c.model, fusion::find_fusion_method("ort-cpu"));
    const int count = static_cast<int>(c.kernels.kernels.size());
    c.assignment =
        partition::assignment_of(partition::parse_mapping(points, pes, c.cluster, count), count);
    return c;
}

autodice::Package package_of(const Case& c) {
    return autodice::make_package(
        c.model, autodice::package_parts(c.model, c.kernels, c.assignment, c.cluster), &c.cluster,
        "test");
}

std::vector<std::string> names(const graph::Model& model, const std::vector<int>& tensors) {
    std::vector<std::string> out;
    for (const int t : tensors)
        out.push_back(graph::sub_model_tensor_name(model.tensors[static_cast<std::size_t>(t)].name,
                                                   graph::SubModelNaming::autodice));
    return out;
}

std::string error_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::vector<std::string> folder_entries(const fs::path& folder) {
    std::vector<std::string> entries;
    for (const auto& e : fs::directory_iterator(folder))
        entries.push_back(e.path().filename().string());
    std::sort(entries.begin(), entries.end());
    return entries;
}

} // namespace

class ExportTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    // The package equals AutoDiCE's for the same mapping: comm tables as JSON values (AutoDiCE
    // orders buffers by Python set order), the rankfile byte for byte, and per key the same
    // inputs and, as outputs, AutoDiCE's output buffers in the same order.
    void compare_with_autodice(const Case& c, const std::string& fixture) {
        // As `cleave split` made the fixtures' mapping.json: keys in segment order.
        std::vector<autodice::PackagePart> parts;
        for (const auto& part :
             autodice::package_parts(c.model, c.kernels, c.assignment, c.cluster))
            parts.push_back(part);
        std::sort(parts.begin(), parts.end(),
                  [](const auto& a, const auto& b) { return a.nodes.front() < b.nodes.front(); });
        const auto package = autodice::make_package(c.model, parts, &c.cluster, "test");
        const fs::path folder = kFixtures + "/" + fixture;
        QCOMPARE(nlohmann::json::parse(package.sender_json),
                 nlohmann::json::parse(read_text(folder / "sender.json")));
        QCOMPARE(nlohmann::json::parse(package.receiver_json),
                 nlohmann::json::parse(read_text(folder / "receiver.json")));
        QCOMPARE(*package.rankfile, read_text(folder / "rankfile"));
        const auto sub_models = nlohmann::json::parse(read_text(folder / "sub_models.json"));
        QCOMPARE(package.parts.size(), sub_models.size());
        for (std::size_t r = 0; r < package.parts.size(); ++r) {
            const auto& expected = sub_models.at(package.parts[r].key);
            auto inputs = names(c.model, package.sub_models[r].inputs);
            std::sort(inputs.begin(), inputs.end());
            QCOMPARE(inputs, expected.at("inputs").get<std::vector<std::string>>());
            const auto outputs = names(c.model, package.sub_models[r].outputs);
            QCOMPARE(outputs, expected.at("output_buffers").get<std::vector<std::string>>());
            for (const auto& graph_output : expected.at("outputs"))
                QVERIFY(std::find(outputs.begin(), outputs.end(), graph_output) != outputs.end());
        }
    }

private slots:
    void resnet18InThreePartsMatchesAutodice() {
        compare_with_autodice(
            load_case("resnet18.onnx", "10,20", "nx01_gpu,nx01_arm012345,nx02_gpu"),
            "resnet18-3parts");
    }

    void densenetConnectionAcrossTwoCutsMatchesAutodice() {
        const Case c =
            load_case("densenet121.onnx", "4,8,12", "nx01_gpu,nx02_gpu,nx03_gpu,nx04_gpu");
        compare_with_autodice(c, "densenet121-4parts");
        // The stem's output goes from rank 0 to ranks 1 and 3, once each.
        const auto package = package_of(c);
        const auto sender = nlohmann::json::parse(package.sender_json);
        QCOMPARE(sender["nx01_gpu"]["_features_pool0_MaxPool_output_0"],
                 nlohmann::json::parse("[1, 3]"));
    }

    // A hand-written mapping cuts two kernels between a Conv (+ BatchNormalization) and its Relu:
    // each PE fuses its part on its own, and the package equals AutoDiCE's for that mapping.
    void mappingThatCutsConvFromReluMatchesAutodice() {
        Case c{graph::load_model(kModels + "/resnet18.onnx"),
               {},
               device::load_cluster(kClusters + "/nx8.cluster.json"),
               {}};
        const auto method = fusion::find_fusion_method("ort-cpu");
        const auto whole = fusion::detect_kernels(c.model, method);
        const auto mapped = autodice::mapped_kernels(
            autodice::read_mapping_file(kFixtures + "/resnet18-conv-relu-cut/mapping.json",
                                        c.model, c.cluster),
            c.model, whole, method, c.cluster);
        QCOMPARE(mapped.cut.size(), std::size_t(2));
        QVERIFY2(contains(mapped.cut[0], "kernel /layer1/layer1.0/conv1/Conv (FusedConv, 3 nodes)"),
                 mapped.cut[0].c_str());
        QVERIFY2(contains(mapped.cut[0], "/layer1/layer1.0/relu/Relu on nx02_gpu"),
                 mapped.cut[0].c_str());
        QCOMPARE(mapped.kernels.kernels.size(), whole.kernels.size() + 2);
        c.kernels = mapped.kernels;
        c.assignment = mapped.assignment;
        compare_with_autodice(c, "resnet18-conv-relu-cut");
    }

    void mappingJsonIsWhatTheMappingFileWriterWrites() {
        const Case c = load_case("resnet18.onnx", "7,30", "nx03_gpu,nx01_gpu,nx02_arm012345");
        QCOMPARE(package_of(c).mapping_json,
                 autodice::mapping_file_json(c.model, c.kernels, c.assignment, c.cluster));
        // Keys in cluster PE order, as AutoDiCE's ranks follow mapping.json.
        const auto package = package_of(c);
        QCOMPARE(package.parts[0].key, std::string("nx01_gpu"));
        QCOMPARE(*package.hostfile, std::string("nx01\nnx02\nnx03\n"));
    }

    void subModelsReloadWithEveryNodeAndWeight() {
        const Case c = load_case("mobilenet_v2.onnx", "", "nx01_gpu");
        const auto points = partition::equal_node_points(c.kernels, 5);
        const int count = static_cast<int>(c.kernels.kernels.size());
        const Case split{c.model, c.kernels, c.cluster,
                         partition::assignment_of({points, {0, 1, 3, 5, 7}}, count)};
        const auto package = package_of(split);
        const fs::path folder = fs::path(dir_.path().toStdString()) / "mobilenet";
        const auto files = autodice::write_package(split.model, package, folder);
        QCOMPARE(files.size(), std::size_t{6 + 5});
        std::size_t nodes = 0;
        std::int64_t initializer_elements = 0;
        for (std::size_t r = 0; r < package.parts.size(); ++r) {
            const auto sub = graph::load_model(folder / (package.parts[r].key + ".onnx"));
            nodes += sub.nodes.size();
            initializer_elements += sub.initializer_elements;
            QCOMPARE(sub.opset, split.model.opset);
            QCOMPARE(sub.ir_version, split.model.ir_version);
            std::vector<std::string> inputs;
            for (const int t : sub.inputs)
                inputs.push_back(sub.tensors[static_cast<std::size_t>(t)].name);
            QCOMPARE(inputs, names(split.model, package.sub_models[r].inputs));
            std::vector<std::string> outputs;
            for (const int t : sub.outputs)
                outputs.push_back(sub.tensors[static_cast<std::size_t>(t)].name);
            QCOMPARE(outputs, names(split.model, package.sub_models[r].outputs));
            // Every tensor crossing in has its shape.
            for (const int t : sub.inputs)
                QVERIFY(sub.tensors[static_cast<std::size_t>(t)].shape.has_value());
        }
        QCOMPARE(nodes, split.model.nodes.size());
        QCOMPARE(initializer_elements, split.model.initializer_elements);
    }

    void nodeMappedTwiceOrNeverIsRefused() {
        const Case c = load_case("resnet18.onnx", "10", "nx01_gpu,nx02_gpu");
        auto parts = autodice::package_parts(c.model, c.kernels, c.assignment, c.cluster);
        auto twice = parts;
        twice[1].nodes.push_back(twice[0].nodes.front());
        const auto repeated =
            error_of([&] { autodice::make_package(c.model, twice, &c.cluster, "m.json"); });
        QVERIFY2(contains(repeated, "m.json") &&
                     contains(repeated, "mapped twice, to nx01_gpu and nx02_gpu"),
                 repeated.c_str());
        auto never = parts;
        never[1].nodes.pop_back();
        const auto missing =
            error_of([&] { autodice::make_package(c.model, never, &c.cluster, "m.json"); });
        QVERIFY2(contains(missing, "is mapped to no PE key"), missing.c_str());
        auto unknown = parts;
        unknown[1].key = "nx09_gpu";
        const auto key =
            error_of([&] { autodice::make_package(c.model, unknown, &c.cluster, "m.json"); });
        QVERIFY2(contains(key, "'nx09_gpu'") && contains(key, "nx08_gpu"), key.c_str());
    }

    void subModelsWaitingOnEachOtherAreRefused() {
        // nx01 runs the start and the end, nx02 the middle: each needs the other's tensors.
        const Case c = load_case("resnet18.onnx", "10,20", "nx01_gpu,nx02_gpu,nx01_gpu");
        const auto message = error_of([&] { package_of(c); });
        QVERIFY2(contains(message, "wait on each other") && contains(message, "nx01_gpu") &&
                     contains(message, "nx02_gpu"),
                 message.c_str());
    }

    void failedWriteLeavesTheEarlierExportInPlace() {
        const Case c = load_case("resnet18.onnx", "10,20", "nx01_gpu,nx02_gpu,nx03_gpu");
        const auto package = package_of(c);
        const fs::path folder = fs::path(dir_.path().toStdString()) / "fail-case" / "failing";
        fs::create_directories(folder.parent_path());
        autodice::write_package(c.model, package, folder, {false});
        const auto before = folder_entries(folder);
        const auto mapping = read_text(folder / "mapping.json");
        // Files may grow to 1 MiB only: the second sub-model (3.3 MB) fails half-written.
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        struct sigaction previous {};
        sigaction(SIGXFSZ, &ignore, &previous);
        rlimit limit{};
        getrlimit(RLIMIT_FSIZE, &limit);
        const rlimit small{1 << 20, limit.rlim_max};
        setrlimit(RLIMIT_FSIZE, &small);
        const auto message = error_of([&] { autodice::write_package(c.model, package, folder); });
        setrlimit(RLIMIT_FSIZE, &limit);
        sigaction(SIGXFSZ, &previous, nullptr);
        QVERIFY2(contains(message, "nx02_gpu.onnx") && contains(message, "cannot write"),
                 message.c_str());
        QCOMPARE(folder_entries(folder), before);
        QCOMPARE(read_text(folder / "mapping.json"), mapping);
        // No half-written sibling is left.
        QCOMPARE(folder_entries(folder.parent_path()), (std::vector<std::string>{"failing"}));
        // A complete export then replaces it.
        autodice::write_package(c.model, package, folder);
        QCOMPARE(folder_entries(folder).size(), before.size() + 3);
    }

    void folderThatIsNoExportIsNotReplaced() {
        const Case c = load_case("resnet18.onnx", "10", "nx01_gpu,nx02_gpu");
        const fs::path folder = fs::path(dir_.path().toStdString()) / "documents";
        fs::create_directories(folder);
        std::ofstream(folder / "notes.txt") << "mine";
        const auto message =
            error_of([&] { autodice::write_package(c.model, package_of(c), folder); });
        QVERIFY2(contains(message, "holds no mapping.json"), message.c_str());
        QCOMPARE(folder_entries(folder), (std::vector<std::string>{"notes.txt"}));
    }
};

QTEST_GUILESS_MAIN(ExportTest)
#include "export_test.moc"
