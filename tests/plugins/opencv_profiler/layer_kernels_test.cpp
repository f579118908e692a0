// OpenCV's layers grouped into kernels over a small model whose layer list is written as
// OpenCV 4.6 names and fuses them: batch norm and ReLU into a convolution, an in-place concat,
// a helper layer of a node, a node without a name, a node the graph simplifier merged away and
// the Identity added for the graph output.
#include "../../core/graph/onnx_builder.hpp"
#include "core/graph/onnx_import.hpp"
#include "plugins/opencv_profiler/layer_kernels.hpp"

#include <QtTest>

namespace {

using cleave::opencv_profiler::Layer;
using cleave::opencv_profiler::LayerKernel;
using cleave::test::OnnxBuilder;
using Names = std::vector<std::string>;

cleave::graph::Model small_model() {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 1, 1});
    b.initializer("w_b", {4, 4, 1, 1});
    for (const char* p : {"scale", "bias", "mean", "var"})
        b.initializer(p, {4});
    b.initializer("half", {});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"}, "bn");
    b.node("Relu", {"n"}, {"r"}, "relu");
    b.node("Conv", {"r", "w_b"}, {"d"}, "conv_b");
    b.node("Relu", {"d"}, {"e"}, "relu_b");
    OnnxBuilder::set_int(b.node("Concat", {"r", "e"}, {"k"}, "cat"), "axis", 1);
    b.node("Flatten", {"k"}, {"f"}, "flat");
    auto& shape = b.node("Constant", {}, {"target"}, "target_shape");
    auto* value = shape.add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
    value->mutable_t()->add_dims(2);
    value->mutable_t()->add_int64_data(1);
    value->mutable_t()->add_int64_data(512);
    b.node("Reshape", {"f", "target"}, {"g"}, "reshape");
    b.node("Mul", {"g", "half"}, {"p"}, "pre");
    b.node("Relu", {"p"}, {"q"}, "post");
    b.node("Relu", {"q"}, {"out"}).set_name("");
    b.output("out");
    return cleave::graph::load_model_from_bytes(b.bytes(), "small.onnx");
}

// As OpenCV 4.6 builds it: "pre" has no layer, "flat" has a helper layer, "out" is registered.
std::vector<Layer> opencv_layers() {
    return {{"onnx_node!conv", "Convolution", {-1}, false},
            {"onnx_node!bn", "BatchNorm", {0}, true},
            {"onnx_node!relu", "ReLU", {1}, true},
            {"onnx_node!conv_b", "Convolution", {2}, false},
            {"onnx_node!relu_b", "ReLU", {3}, true},
            {"onnx_node!cat", "Concat", {2, 4}, true},
            {"onnx_node!flat/flatten", "Flatten", {5}, false},
            {"onnx_node!flat", "Flatten", {6}, false},
            {"onnx_node!reshape", "Reshape", {7}, false},
            {"onnx_node!post", "ReLU", {8}, false},
            {"onnx_node_output_0!out", "ReLU", {9}, false},
            {"out", "Identity", {10}, false}};
}

} // namespace

class LayerKernelsTest : public QObject {
    Q_OBJECT

private slots:
    void fusedLayersJoinTheLayerTheyFeedFrom() {
        const auto model = small_model();
        const auto kernels = cleave::opencv_profiler::group_layers(model, opencv_layers());
        QCOMPARE(kernels.size(), std::size_t{6});
        QCOMPARE(kernels[0].name, std::string("conv"));
        QCOMPARE(kernels[0].op, std::string("Convolution"));
        QCOMPARE(kernels[0].covers, (Names{"conv", "bn", "relu"}));
        QCOMPARE(kernels[0].layers, (std::vector<int>{0, 1, 2}));
    }

    void inPlaceConcatJoinsItsLastInput() {
        const auto kernels = cleave::opencv_profiler::group_layers(small_model(), opencv_layers());
        QCOMPARE(kernels[1].name, std::string("conv_b"));
        QCOMPARE(kernels[1].covers, (Names{"conv_b", "relu_b", "cat"}));
    }

    void helperLayersJoinTheirNode() {
        const auto kernels = cleave::opencv_profiler::group_layers(small_model(), opencv_layers());
        QCOMPARE(kernels[2].name, std::string("flat"));
        QCOMPARE(kernels[2].layers, (std::vector<int>{6, 7}));
        QCOMPARE(kernels[2].covers, (Names{"flat"}));
    }

    void loadTimeConstantsAreInNoKernel() {
        const auto kernels = cleave::opencv_profiler::group_layers(small_model(), opencv_layers());
        QCOMPARE(kernels[3].covers, (Names{"reshape"}));
        for (const auto& k : kernels)
            QVERIFY(std::find(k.covers.begin(), k.covers.end(), "target_shape") == k.covers.end());
    }

    void nodesWithoutLayerJoinTheNodeTheyFeed() {
        const auto kernels = cleave::opencv_profiler::group_layers(small_model(), opencv_layers());
        QCOMPARE(kernels[4].name, std::string("post"));
        QCOMPARE(kernels[4].covers, (Names{"pre", "post"}));
    }

    void unnamedNodeAndOutputIdentityShareAKernel() {
        const auto kernels = cleave::opencv_profiler::group_layers(small_model(), opencv_layers());
        QCOMPARE(kernels[5].name, std::string("out"));
        QCOMPARE(kernels[5].op, std::string("ReLU"));
        QCOMPARE(kernels[5].layers, (std::vector<int>{10, 11}));
        QCOMPARE(kernels[5].covers, (Names{"out"}));
    }
};

QTEST_GUILESS_MAIN(LayerKernelsTest)
#include "layer_kernels_test.moc"
