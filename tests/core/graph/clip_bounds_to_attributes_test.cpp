// Clip's constant bound inputs become the min/max attributes older importers read; bounds
// computed at run time and models without such Clips are left alone.
#include "core/graph/clip_bounds_to_attributes.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>

namespace {

using cleave::test::OnnxBuilder;

onnx::NodeProto& constant(OnnxBuilder& b, const std::string& output, float value) {
    auto& node = b.node("Constant", {}, {output}, output);
    auto* a = node.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    a->mutable_t()->add_float_data(value);
    return node;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const std::string& name) {
    for (const auto& a : node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

} // namespace

class ClipBoundsToAttributesTest : public QObject {
    Q_OBJECT

private slots:
    void constantBoundsBecomeAttributes() {
        QTemporaryDir dir;
        OnnxBuilder b;
        b.input("x", {1, 4});
        constant(b, "low", 0.0f);
        constant(b, "high", 6.0f);
        b.node("Clip", {"x", "low", "high"}, {"y"}, "relu6");
        b.node("Clip", {"y", "", "high"}, {"z"}, "cap");
        b.output("z");
        const auto path = dir.filePath("clip.onnx").toStdString();
        b.save(path);

        const auto rewrite = cleave::graph::clip_bounds_to_attributes(path);
        QVERIFY(rewrite);
        QCOMPARE(rewrite->clips, 2);
        onnx::ModelProto model;
        QVERIFY(model.ParseFromString(rewrite->model));
        const auto& relu6 = model.graph().node(2);
        QCOMPARE(relu6.input_size(), 1);
        QCOMPARE(attribute(relu6, "min")->f(), 0.0f);
        QCOMPARE(attribute(relu6, "max")->f(), 6.0f);
        const auto& cap = model.graph().node(3);
        QCOMPARE(cap.input_size(), 1);
        QVERIFY(!attribute(cap, "min"));
        QCOMPARE(attribute(cap, "max")->f(), 6.0f);
    }

    void boundsComputedAtRunTimeStay() {
        QTemporaryDir dir;
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.input("limit", {});
        b.node("Clip", {"x", "", "limit"}, {"y"}, "clip");
        b.output("y");
        const auto path = dir.filePath("dynamic.onnx").toStdString();
        b.save(path);
        QVERIFY(!cleave::graph::clip_bounds_to_attributes(path));
    }
};

QTEST_GUILESS_MAIN(ClipBoundsToAttributesTest)
#include "clip_bounds_to_attributes_test.moc"
