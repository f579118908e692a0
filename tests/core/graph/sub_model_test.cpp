// Sub-models: which tensors cross a node subset's border, and the written file: a model that
// reloads with its inputs, outputs, shapes and weight bytes, in the model's or AutoDiCE's naming.
//   x -> relu0 -> /blk/a -> matmul1 (W 256x256) -> /blk/b -> relu2 -> /blk/c -> add3 (a + c) -> d
#include "core/graph/onnx_import.hpp"
#include "core/graph/onnx_source.hpp"
#include "core/graph/sub_model.hpp"
#include "core/input_error.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>

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
