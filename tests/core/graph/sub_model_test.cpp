// Sub-models: which tensors cross a node subset's border, and the written file: a model that
// reloads with its inputs, outputs, shapes and weight bytes, in the model's or AutoDiCE's naming,
// external weights kept external, a file's symbolic dims kept symbolic.
//   x -> relu0 -> /blk/a -> matmul1 (W 256x256) -> /blk/b -> relu2 -> /blk/c -> add3 (a + c) -> d
#include "core/graph/onnx_import.hpp"
#include "core/graph/onnx_source.hpp"
#include "core/graph/sub_model.hpp"
#include "core/input_error.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <map>
#include <sys/stat.h>

using namespace cleave;
using graph::SubModelNaming;

namespace {

graph::Model tiny_model(bool weight_listed_as_input = false) {
    test::OnnxBuilder b;
    b.input("x", {1, 256});
    if (weight_listed_as_input)
        b.input("W", {256, 256});
    auto& w = b.initializer("W", {256, 256});
    for (std::size_t i = 0; i < w.raw_data().size(); ++i)
        (*w.mutable_raw_data())[i] = static_cast<char>(i * 7 % 251);
    b.node("Relu", {"x"}, {"/blk/a"}, "relu0");
    b.node("MatMul", {"/blk/a", "W"}, {"/blk/b"}, "matmul1");
    b.node("Relu", {"/blk/b"}, {"/blk/c"}, "relu2");
    b.node("Add", {"/blk/a", "/blk/c"}, {"d"}, "add3");
    b.output("d");
    return graph::load_model_from_bytes(b.bytes(), "tiny.onnx");
}

std::vector<std::string> names(const graph::Model& model, const std::vector<int>& tensors) {
    std::vector<std::string> out;
    for (const int t : tensors)
        out.push_back(model.tensors[static_cast<std::size_t>(t)].name);
    return out;
}

using Names = std::vector<std::string>;

std::string error_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

class SubModelTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void borderTensorsOfAMiddleSlice() {
        const auto model = tiny_model();
        const auto plan = graph::plan_sub_model(model, {2, 1});
        QCOMPARE(plan.nodes, (std::vector<int>{1, 2}));
        QCOMPARE(names(model, plan.inputs), (Names{"/blk/a"}));
        QCOMPARE(names(model, plan.initializers), (Names{"W"}));
        // /blk/b stays inside; /blk/c is read by add3 elsewhere.
        QCOMPARE(names(model, plan.outputs), (Names{"/blk/c"}));
    }

    void tensorReadInTwoPlacesIsOneOutput() {
        const auto model = tiny_model();
        const auto first = graph::plan_sub_model(model, {0});
        QCOMPARE(names(model, first.inputs), (Names{"x"}));
        QCOMPARE(names(model, first.outputs), (Names{"/blk/a"}));
        const auto last = graph::plan_sub_model(model, {3});
        QCOMPARE(names(model, last.inputs), (Names{"/blk/a", "/blk/c"}));
        QCOMPARE(names(model, last.outputs), (Names{"d"}));
    }

    void writtenSubModelReloadsWithItsWeightBytes() {
        const auto model = tiny_model();
        const auto plan = graph::plan_sub_model(model, {1, 2});
        const std::string file = dir_.filePath("middle.onnx").toStdString();
        const auto bytes = graph::write_sub_model(model, plan, file, SubModelNaming::model);
        QCOMPARE(static_cast<std::uintmax_t>(bytes), std::filesystem::file_size(file));
        const auto sub = graph::load_model(file);
        QCOMPARE(sub.nodes.size(), std::size_t{2});
        QCOMPARE(sub.nodes[0].name, std::string("matmul1"));
        QCOMPARE(names(sub, sub.inputs), (Names{"/blk/a"}));
        QCOMPARE(names(sub, sub.outputs), (Names{"/blk/c"}));
        QCOMPARE(sub.tensors[static_cast<std::size_t>(sub.inputs[0])].shape,
                 std::optional<graph::Shape>(graph::Shape{1, 256}));
        QCOMPARE(sub.opset, model.opset);
        const auto original = model.source->raw_initializer(0);
        const auto copied = sub.source->raw_initializer(0);
        QCOMPARE(copied.size(), std::size_t{256 * 256 * 4});
        QVERIFY(std::equal(original.begin(), original.end(), copied.begin(), copied.end()));
    }

    // A model keeping W (with nonzero bytes) and Z (zeros) in an external file, at offsets that
    // are no multiple of 4096: the sub-model keeps them external, in its own FILE.data at
    // aligned offsets, the zeros left as a hole; it reloads and reads the same bytes.
    void externalWeightsStayExternal() {
        test::OnnxBuilder b;
        b.input("x", {1, 256});
        auto& w = b.initializer("W", {256, 256});
        std::string bytes(w.raw_data().size(), '\0');
        for (std::size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>(i * 7 % 251 + 1);
        auto& z = b.initializer("Z", {512, 1024});
        const std::string folder = dir_.filePath("external").toStdString();
        std::filesystem::create_directories(folder);
        auto move_out = [](onnx::TensorProto& t, std::int64_t offset, std::size_t length) {
            t.clear_raw_data();
            t.set_data_location(onnx::TensorProto::EXTERNAL);
            for (const auto& [key, value] :
                 {std::pair<std::string, std::string>{"location", "whole.onnx.data"},
                  {"offset", std::to_string(offset)},
                  {"length", std::to_string(length)}}) {
                auto* e = t.add_external_data();
                e->set_key(key);
                e->set_value(value);
            }
        };
        const std::size_t z_bytes = 512 * 1024 * 4;
        move_out(w, 100, bytes.size());
        move_out(z, 100 + static_cast<std::int64_t>(bytes.size()), z_bytes);
        b.node("MatMul", {"x", "W"}, {"y"}, "matmul0");
        b.node("Relu", {"y"}, {"r"}, "relu1");
        b.node("MatMul", {"r", "Z"}, {"out"}, "matmul2");
        b.output("out");
        {
            std::ofstream data(folder + "/whole.onnx.data", std::ios::binary);
            data << std::string(100, 'x') << bytes << std::string(z_bytes, '\0');
            const auto proto = b.bytes();
            std::ofstream(folder + "/whole.onnx", std::ios::binary)
                .write(reinterpret_cast<const char*>(proto.data()),
                       static_cast<std::streamsize>(proto.size()));
        }
        const auto model = graph::load_model(folder + "/whole.onnx");
        const std::string file = dir_.filePath("external/part.onnx").toStdString();
        graph::write_sub_model(model, graph::plan_sub_model(model, {0, 1, 2}), file,
                               SubModelNaming::autodice);
        const std::string data = graph::sub_model_data_file(file).string();
        QCOMPARE(data, file + ".data");
        const auto sub = graph::load_model(file);
        QVERIFY(sub.missing_external_data.empty());
        std::map<std::string, std::map<std::string, std::string>> entries;
        for (const auto& t : sub.source->proto.graph().initializer()) {
            QCOMPARE(t.data_location(), onnx::TensorProto::EXTERNAL);
            for (const auto& e : t.external_data())
                entries[t.name()][e.key()] = e.value();
        }
        QCOMPARE(entries["W"]["location"], std::string("part.onnx.data"));
        QCOMPARE(entries["W"]["offset"], std::string("0"));
        QCOMPARE(entries["Z"]["offset"], std::string("262144")); // W fills 64 x 4096 bytes
        QCOMPARE(std::filesystem::file_size(data), std::uintmax_t{262144 + z_bytes});
        std::ifstream in(data, std::ios::binary);
        std::string copied(bytes.size(), '\0');
        in.read(copied.data(), static_cast<std::streamsize>(copied.size()));
        QVERIFY(copied == bytes);
        struct stat st {};
        QCOMPARE(::stat(data.c_str(), &st), 0);
        QVERIFY2(st.st_blocks * 512 < 1024 * 1024, "the zeros were written, not left a hole");

        // Without its data file the model still loads, but no sub-model is written from it.
        std::filesystem::rename(folder + "/whole.onnx.data", folder + "/moved.data");
        const auto without = graph::load_model(folder + "/whole.onnx");
        const auto message = error_of([&] {
            graph::write_sub_model(without, graph::plan_sub_model(without, {0}),
                                   dir_.filePath("external/again.onnx").toStdString(),
                                   SubModelNaming::model);
        });
        QVERIFY2(message.find("whole.onnx.data") != std::string::npos &&
                     message.find("missing") != std::string::npos,
                 message.c_str());
        QVERIFY(!std::filesystem::exists(dir_.filePath("external/again.onnx").toStdString()));
    }

    // A model whose file leaves a dim symbolic (bound to 4 on load): its sub-models keep the
    // file's dims, and those inferred from them, so that they run at any binding; no value_info
    // carries the bound shapes. read_model_io names their inputs and outputs without binding.
    void symbolicDimsStaySymbolic() {
        test::OnnxBuilder b;
        b.input("x", {-1, 256});
        b.initializer("W", {256, 256});
        b.node("Relu", {"x"}, {"a"}, "relu0");
        b.node("MatMul", {"a", "W"}, {"m"}, "matmul1");
        b.node("Relu", {"m"}, {"r"}, "relu2");
        b.output("r");
        graph::LoadOptions options;
        options.dims.names["N"] = 4;
        const auto model = graph::load_model_from_bytes(b.bytes(), "symbolic.onnx", options);
        QCOMPARE(model.tensors[static_cast<std::size_t>(model.inputs[0])].shape,
                 std::optional(graph::Shape{4, 256}));
        for (const auto& [nodes, input] :
             {std::pair<std::vector<int>, std::string>{{0, 1}, "x"}, {{2}, "m"}}) {
            const std::string file =
                dir_.filePath(QString::fromStdString(input) + "-part.onnx").toStdString();
            graph::write_sub_model(model, graph::plan_sub_model(model, nodes), file,
                                   SubModelNaming::model);
            onnx::ModelProto written;
            std::ifstream in(file, std::ios::binary);
            QVERIFY(written.ParseFromIstream(&in));
            const auto& dims = written.graph().input(0).type().tensor_type().shape().dim();
            QCOMPARE(written.graph().input(0).name(), input);
            QCOMPARE(dims.size(), 2);
            QCOMPARE(dims[0].dim_param(), std::string("N"));
            QCOMPARE(dims[1].dim_value(), std::int64_t{256});
            QCOMPARE(written.graph().output(0).type().tensor_type().shape().dim(0).dim_param(),
                     std::string("N"));
            QCOMPARE(written.graph().value_info_size(), 0);
            const auto io = graph::read_model_io(file);
            QCOMPARE(io.inputs, Names{input});
            QCOMPARE(io.outputs, Names{nodes.size() == 2 ? "m" : "r"});
        }
        // A model bound from a file without symbolic dims keeps the shapes it has.
        const auto fixed = tiny_model();
        const std::string file = dir_.filePath("fixed-part.onnx").toStdString();
        graph::write_sub_model(fixed, graph::plan_sub_model(fixed, {1}), file,
                               SubModelNaming::model);
        onnx::ModelProto written;
        std::ifstream in(file, std::ios::binary);
        QVERIFY(written.ParseFromIstream(&in));
        QCOMPARE(written.graph().input(0).type().tensor_type().shape().dim(0).dim_value(),
                 std::int64_t{1});
        QVERIFY(error_of([&] {
                    graph::read_model_io(dir_.filePath("none.onnx").toStdString());
                }).find("none.onnx") != std::string::npos);
    }

    void autodiceNamingReplacesSlashes() {
        const auto model = tiny_model();
        const std::string file = dir_.filePath("autodice.onnx").toStdString();
        graph::write_sub_model(model, graph::plan_sub_model(model, {1, 2}), file,
                               SubModelNaming::autodice);
        const auto sub = graph::load_model(file);
        QCOMPARE(names(sub, sub.inputs), (Names{"_blk_a"}));
        QCOMPARE(names(sub, sub.outputs), (Names{"_blk_c"}));
        QCOMPARE(sub.nodes[0].name, std::string("_blk_b")); // the first output's name
    }

    void initializerListedAsInputStaysListed() {
        const auto model = tiny_model(true);
        const std::string file = dir_.filePath("listed.onnx").toStdString();
        graph::write_sub_model(model, graph::plan_sub_model(model, {1}), file,
                               SubModelNaming::model);
        const auto written = graph::load_model(file);
        const auto& inputs = written.source->proto.graph().input();
        QCOMPARE(inputs.size(), 2);
        QCOMPARE(inputs[0].name(), std::string("W"));
        QCOMPARE(names(written, written.inputs),
                 (Names{"/blk/a"})); // W is a weight, not a user input
    }

    void badNodesAndUnwritablePathsAreRefused() {
        const auto model = tiny_model();
        QVERIFY(error_of([&] {
                    graph::plan_sub_model(model, {1, 1});
                }).find("listed twice") != std::string::npos);
        QVERIFY(error_of([&] { graph::plan_sub_model(model, {4}); }).find("node #4") !=
                std::string::npos);
        const std::string file = dir_.filePath("missing/folder/x.onnx").toStdString();
        const auto message = error_of([&] {
            graph::write_sub_model(model, graph::plan_sub_model(model, {0}), file,
                                   SubModelNaming::model);
        });
        QVERIFY2(message.find(file) != std::string::npos &&
                     message.find("cannot create the file") != std::string::npos,
                 message.c_str());
    }
};

QTEST_GUILESS_MAIN(SubModelTest)
#include "sub_model_test.moc"
