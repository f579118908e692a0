// The .cleave project file: every field read back as written, paths below the project's folder
// stored relative (so a moved folder still opens) and others absolute, the inline cluster and
// the mapping checked with the pointer below /cluster/inline and /mapping, a newer schema refused,
// and bad files named with the JSON pointer and what was expected.
#include "../partition/tiny_partition_model.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/project/project.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

const fs::path kNx8 = fs::path(CLEAVE_EXAMPLE_CLUSTERS_DIR) / "nx8.cluster.json";

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

nlohmann::json read_json(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// The InputError `load` throws: "file|place|problem"; empty when it throws none.
template <typename Load>
std::string error_of(Load load) {
    try {
        load();
    } catch (const InputError& e) {
        return e.file() + "|" + e.place() + "|" + e.problem();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A project that names only its model.
std::string model_only(const std::string& model) {
    return R"({"format": "cleave-project", "version": 1, "model": {"path": ")" + model + R"("}})";
}

std::string parse_error(const std::string& text) {
    return error_of([&] { project::parse_project(text, "/p/x.cleave"); });
}

} // namespace

class ProjectTest : public QObject {
    Q_OBJECT

private slots:
    void everyFieldIsReadBackAsWritten() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        project::Project p;
        p.model = folder / "models" / "resnet18.onnx";
        p.input_shapes = {"input=2x3x224x224"};
        p.dims.decode = 1024;
        p.dims.batch = 2;
        p.dims.names["s3"] = 7;
        p.cluster = project::ClusterRef{kNx8, device::cluster_to_json(device::load_cluster(kNx8))};
        p.rules = "tflite-gpu";
        p.device = "jetson-xavier-nx";
        p.mapping = {{"nx01_gpu", {"a", "b"}}, {"nx02_gpu", {"c"}}};
        p.dse = {{"settings", {{"population", 16}}}, {"front", nlohmann::json::array({1, 2})}};
        p.grouping = {{"groups", 2}};
        partition::LlmWorkload workload;
        workload.context = 8192;
        workload.sequences = 3;
        workload.prompt_tokens = 512;
        workload.generated_tokens = 256;
        p.workload = workload;
        p.autosave = project::AutosaveInfo{folder / "x.cleave", "2026-11-23T17:00:00Z"};

        const fs::path file = folder / "x.cleave";
        project::save_project(file, p);
        const auto q = project::load_project(file);
        QCOMPARE(q.version, project::kSchemaVersion);
        QCOMPARE(q.model, p.model);
        QCOMPARE(q.input_shapes, p.input_shapes);
        QCOMPARE(q.dims, p.dims);
        QVERIFY(q.cluster);
        QCOMPARE(q.cluster->path, kNx8);
        QCOMPARE(*q.cluster->inline_, *p.cluster->inline_);
        QCOMPARE(q.rules, p.rules);
        QCOMPARE(q.device, p.device);
        QCOMPARE(q.mapping, p.mapping);
        QCOMPARE(q.dse, p.dse);
        QCOMPARE(q.grouping, p.grouping);
        QVERIFY(q.workload && *q.workload == workload);
        QVERIFY(q.autosave);
        QCOMPARE(q.autosave->project, file);
        QCOMPARE(q.autosave->written, p.autosave->written);
        // Written again, byte for byte the same.
        QCOMPARE(project::project_json(q, file), project::project_json(p, file));
    }

    void anEmptyProjectHasOnlyFormatAndVersion() {
        const auto json = nlohmann::json::parse(project::project_json({}, "/p/x.cleave"));
        QCOMPARE(json, (nlohmann::json{{"format", "cleave-project"}, {"version", 1}}));
        const auto p = project::parse_project(json.dump(), "/p/x.cleave");
        QVERIFY(p.model.empty());
        QVERIFY(!p.cluster);
        QVERIFY(p.mapping.empty());
    }

    void pathsBelowTheFolderAreStoredRelative() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        project::Project p;
        p.model = folder / "models" / "m.onnx";
        p.cluster = project::ClusterRef{kNx8, std::nullopt}; // outside the folder
        p.rules = (folder / "rules" / "mine.json").string();
        p.device = "learned-device.json"; // a device file, relative to the working folder
        const fs::path file = folder / "work" / ".." / "x.cleave";
        project::save_project(file, p);

        const auto json = read_json(folder / "x.cleave");
        QCOMPARE(json["model"]["path"].get<std::string>(), std::string("models/m.onnx"));
        QCOMPARE(json["cluster"]["path"].get<std::string>(), kNx8.generic_string());
        QCOMPARE(json["kernels"]["rules"].get<std::string>(), std::string("rules/mine.json"));
        QCOMPARE(json["kernels"]["device"].get<std::string>(),
                 fs::absolute("learned-device.json").generic_string());

        // The folder moved elsewhere: relative paths follow it, absolute ones stay.
        QTemporaryDir other;
        const fs::path moved = fs::path(other.path().toStdString()) / "moved.cleave";
        fs::copy_file(folder / "x.cleave", moved);
        const auto q = project::load_project(moved);
        QCOMPARE(q.model, moved.parent_path() / "models" / "m.onnx");
        QCOMPARE(q.rules, (moved.parent_path() / "rules" / "mine.json").string());
        QCOMPARE(q.cluster->path, kNx8);
    }

    void learnedRulesAndShippedNamesKeepTheirForm() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        project::Project p;
        p.rules = "learned:" + (folder / "fusion.json").string();
        const fs::path file = folder / "x.cleave";
        project::save_project(file, p);
        QCOMPARE(read_json(file)["kernels"]["rules"].get<std::string>(),
                 std::string("learned:fusion.json"));
        QCOMPARE(project::load_project(file).rules, p.rules);
        p.rules = "ort-cpu";
        project::save_project(file, p);
        QCOMPARE(project::load_project(file).rules, std::string("ort-cpu"));
    }

    void inlineClusterWinsOverItsPath() {
        // Two hosts inline (an edited cluster), eight in the file it came from.
        auto root = nlohmann::json::parse(R"({"format": "cleave-project", "version": 1,
            "cluster": {"inline": {"version": 1, "hosts": [
                {"host": "a", "device": "jetson-xavier-nx"},
                {"host": "b", "device": "raspberry-pi-4"}]}}})");
        root["cluster"]["path"] = kNx8.string();
        const auto p = project::parse_project(root.dump(), "/p/x.cleave");
        const auto cluster = project::load_cluster(p, "/p/x.cleave");
        QCOMPARE(cluster.hosts.size(), std::size_t{2});
        QCOMPARE(cluster.hosts[1].device.id, std::string("raspberry-pi-4"));
        QCOMPARE(cluster.file, kNx8.string());
        // Without inline, the file is read.
        auto q = p;
        q.cluster->inline_.reset();
        QCOMPARE(project::load_cluster(q, "/p/x.cleave").hosts.size(), std::size_t{8});
    }

    void inputShapesAreParsedAsTheCliTakesThem() {
        project::Project p;
        p.input_shapes = {"input=1x3x160x160", "mask=1x8"};
        const auto shapes = project::input_shape_map(p, "x.cleave");
        QCOMPARE(shapes.at("input"), (graph::Shape{1, 3, 160, 160}));
        QCOMPARE(shapes.at("mask"), (graph::Shape{1, 8}));
    }

    // Beside input_shapes, optional: files written before it read as no bindings.
    void dimBindingsAreStoredAsTheFlagsGiveThem() {
        project::Project p;
        p.model = "/p/m.onnx";
        p.dims.prefill = 512;
        p.dims.names["s0"] = 1;
        const auto json = nlohmann::json::parse(project::project_json(p, "/p/x.cleave"));
        QCOMPARE(json["model"]["dims"], (nlohmann::json{{"prefill", 512}, {"names", {{"s0", 1}}}}));
        const auto old = project::parse_project(
            R"({"format": "cleave-project", "version": 1, "model": {"path": "m.onnx"}})",
            "/p/x.cleave");
        QVERIFY(old.dims.empty());
    }

    void mappingIsCheckedAgainstTheModelUnderSlashMapping() {
        const auto model = test::tiny_partition_model();
        const auto cluster = test::tiny_cluster();
        const auto kernels = test::tiny_kernels(model);
        project::Project p;
        p.mapping = nlohmann::json::parse(
            autodice::mapping_file_json(model, kernels, {{1, 1, 3, 5}}, cluster));
        QCOMPARE(project::mapping_pe_of_node(p, "x.cleave", model, cluster),
                 (std::vector<int>{1, 1, 3, 5}));

        p.mapping["h1_gpu"].push_back("no_such_node");
        const auto message =
            error_of([&] { project::mapping_pe_of_node(p, "x.cleave", model, cluster); });
        QVERIFY2(message.starts_with("x.cleave|/mapping/h1_gpu/2|"), message.c_str());
        QVERIFY2(contains(message, "no_such_node"), message.c_str());
    }

    void newerSchemaIsRefusedWithAClearMessage() {
        const auto message = parse_error(R"({"format": "cleave-project", "version": 2})");
        QVERIFY2(message.starts_with("/p/x.cleave|/version|"), message.c_str());
        QVERIFY2(contains(message, "newer Cleave (schema version 2)"), message.c_str());
        QVERIFY2(contains(message, "reads versions up to 1"), message.c_str());
    }

    void badFilesNameThePointerAndWhatWasExpected() {
        const std::string head = R"({"format": "cleave-project", "version": 1, )";
        struct Case {
            std::string text;
            std::string place;
            std::string expected;
        };
        const std::vector<Case> cases = {
            {R"({"format": "cleave-project", "version": 1,})", "byte", "not valid JSON"},
            {R"([1, 2])", "/", "expected a Cleave project"},
            {R"({"version": 1})", "/", "missing \"format\""},
            {R"({"format": "cleave-cluster", "version": 1})", "/format", "cleave-project"},
            {R"({"format": "cleave-project", "version": "1"})", "/version", "whole number"},
            {R"({"format": "cleave-project"})", "/", "missing \"version\""},
            {head + R"("models": {}})", "/", "models"},
            {head + R"("model": {"path": 3}})", "/model/path", "the path of an ONNX model"},
            {head + R"("model": {"path": "m.onnx", "input_shapes": ["x=1x3", "y=0x2"]}})",
             "/model/input_shapes/1", "whole number >= 1"},
            {head + R"("model": {"path": "m.onnx", "dims": {"prefill": 0}}})",
             "/model/dims/prefill", "whole number"},
            {head + R"("model": {"path": "m.onnx", "dims": {"prefill": 2, "decode": 3}}})",
             "/model/dims", "expected one of them"},
            {head + R"("model": {"path": "m.onnx", "dims": {"names": {"s0": -1}}}})",
             "/model/dims/names/s0", "whole number"},
            {head + R"("model": {"path": "m.onnx", "dims": {"past": 3}}})", "/model/dims", "past"},
            {head + R"("cluster": {}})", "/cluster", "\"path\", \"inline\" or both"},
            {head +
                 R"("cluster": {"inline": {"version": 1, "hosts": [{"host": "a", "device": "x"}]}}})",
             "/cluster/inline/hosts/0/device", "no such device \"x\""},
            {head + R"("kernels": {"rules": ""}})", "/kernels/rules", "empty string"},
            {head + R"("mapping": {"h1_gpu": "relu0"}})", "/mapping/h1_gpu", "list of node names"},
            {head + R"("mapping": {"h1_gpu": [1]}})", "/mapping/h1_gpu/0", "a node name"},
            {head + R"("dse": []})", "/dse", "an object"},
            {head + R"("workload": {"context": -1}})", "/workload/context", "whole number"},
            {head + R"("workload": {"sequences": 0}})", "/workload/sequences", "whole number"},
            {head + R"("workload": {"tokens": 3}})", "/workload", "tokens"},
        };
        for (const auto& c : cases) {
            const auto message = parse_error(c.text);
            QVERIFY2(message.starts_with("/p/x.cleave|" + c.place),
                     (c.text + " -> " + message).c_str());
            QVERIFY2(contains(message, c.expected), (c.text + " -> " + message).c_str());
        }
    }

    void aMissingModelIsFoundCompressedWithANote() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        write(folder / "models" / "m.onnx.xz", "x");
        write(folder / "p.cleave", model_only("models/m.onnx"));
        const auto p = project::load_project(folder / "p.cleave");
        QCOMPARE(p.model, folder / "models" / "m.onnx.xz");
        QCOMPARE(p.notes, std::vector<std::string>{
                              (folder / "p.cleave").string() +
                              " /model/path: models/m.onnx is not there; models/m.onnx.xz, the "
                              "same model compressed, is opened instead"});
    }

    void aMissingCompressedModelIsFoundUnpackedWithANote() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        write(folder / "m.onnx", "x");
        write(folder / "p.cleave", model_only("m.onnx.gz"));
        const auto p = project::load_project(folder / "p.cleave");
        QCOMPARE(p.model, folder / "m.onnx");
        QCOMPARE(p.notes.size(), std::size_t{1});
        QVERIFY2(contains(p.notes[0], "m.onnx.gz is not there; m.onnx, the same model unpacked"),
                 p.notes[0].c_str());
    }

    void aModelThatIsThereOrNowhereIsKeptWithoutANote() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        write(folder / "m.onnx", "x");
        write(folder / "m.onnx.xz", "x");
        write(folder / "p.cleave", model_only("m.onnx.xz"));
        write(folder / "q.cleave", model_only("gone.onnx"));
        const auto p = project::load_project(folder / "p.cleave");
        QCOMPARE(p.model, folder / "m.onnx.xz");
        QVERIFY(p.notes.empty());
        const auto q = project::load_project(folder / "q.cleave");
        QCOMPARE(q.model, folder / "gone.onnx"); // opening it says what is missing
        QVERIFY(q.notes.empty());
    }

    void theExampleProjectOpensFromTheRepository() {
        // The repository holds examples/models/resnet101.onnx.xz; the project names the .onnx
        // that the build folder unpacks.
        const auto p =
            project::load_project(fs::path(CLEAVE_SOURCE_EXAMPLES_DIR) / "example.cleave");
        QVERIFY2(fs::exists(p.model), p.model.c_str());
        const graph::Model model = graph::load_model(p.model);
        const graph::Model unpacked =
            graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet101.onnx");
        QCOMPARE(model.nodes.size(), unpacked.nodes.size());
        const auto cluster =
            project::load_cluster(p, fs::path(CLEAVE_SOURCE_EXAMPLES_DIR) / "example.cleave");
        QCOMPARE(cluster.hosts.size(), std::size_t{8});
    }

    void missingFileIsNamed() {
        const auto message = error_of([] { project::load_project("/no/such/x.cleave"); });
        QVERIFY2(message.starts_with("/no/such/x.cleave|"), message.c_str());
    }

    void saveReplacesTheFileWhole() {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "x.cleave";
        write(file, "old");
        project::Project p;
        p.rules = "ort-cpu";
        project::save_project(file, p);
        QCOMPARE(project::load_project(file).rules, std::string("ort-cpu"));
        // Only the project is left in the folder: no temporary file beside it.
        QCOMPARE(static_cast<int>(std::distance(fs::directory_iterator(file.parent_path()),
                                                fs::directory_iterator())),
                 1);
        // A folder that does not exist is an InputError naming the path.
        const auto message =
            error_of([&] { project::save_project(file.parent_path() / "no" / "x.cleave", p); });
        QVERIFY2(contains(message, "x.cleave"), message.c_str());
    }
};

QTEST_GUILESS_MAIN(ProjectTest)
#include "project_test.moc"
