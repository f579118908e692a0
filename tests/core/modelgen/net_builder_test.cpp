// The network builder: the shapes its layers declare are the ones shape inference finds, and its
// functional ops are named as PyTorch names them.
#include "built_model.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/net_builder.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <vector>

using namespace cleave;
using cleave::test::check_shapes;
using cleave::test::first_warning;
using cleave::test::tensor;

namespace {

graph::Model loaded(const modelgen::NetBuilder& b) {
    const std::string bytes = b.model().SerializeAsString();
    return graph::load_model_from_bytes({bytes.begin(), bytes.end()}, "built.onnx");
}

} // namespace

class NetBuilderTest : public QObject {
    Q_OBJECT

private slots:
    void netBuilderLayersDeclareTheShapesInferenceFinds() {
        modelgen::NetBuilder b("layers", {1, 16, 8, 8}, 1);
        std::vector<modelgen::Tensor> declared;
        const auto keep = [&](const modelgen::Tensor& t) {
            declared.push_back(t);
            return t;
        };
        const auto x = b.input();
        // Squeeze-excitation's broadcast: [1, 16, 1, 1] x [1, 16, 8, 8].
        const auto gated = keep(b.mul(keep(b.global_avg_pool(x)), x));
        QCOMPARE(gated.shape, (std::vector<std::int64_t>{1, 16, 8, 8}));
        const auto halves = b.split(gated, 1, {4, 12});
        keep(halves[0]);
        keep(halves[1]);
        const auto joined = keep(b.concat({halves[1], keep(b.slice(gated, 1, 8, 16))}, "", 1));
        keep(b.transpose(keep(b.reshape(joined, {1, 2, 10, 8, 8})), {0, 2, 1, 3, 4}));
        // Tokens [1, 64, 16], two heads of 8.
        const auto tokens = keep(b.transpose(keep(b.reshape(x, {1, 16, -1})), {0, 2, 1}));
        const auto normed = keep(b.layer_norm(tokens, 1e-6f));
        const auto q = keep(b.transpose(keep(b.reshape(normed, {1, 64, -1, 8})), {0, 2, 1, 3}));
        const auto k = keep(b.transpose(q, {0, 1, 3, 2}));
        const auto scores = keep(b.scale(keep(b.matmul(q, k)), 2.0f, "Div"));
        QCOMPARE(scores.shape, (std::vector<std::int64_t>{1, 2, 64, 64}));
        keep(b.add(scores, b.parameter("bias", {2, 64, 64}, 0.02)));
        keep(b.squeeze(keep(b.unsqueeze(normed, 0)), 0));
        const auto first = keep(b.gather(normed, 1, 0));
        const auto mean = keep(b.reduce_mean(normed, {1}, false));
        b.output(b.add(first, mean));

        const auto m = loaded(b);
        check_shapes(m);
        QVERIFY2(m.warnings.empty(), first_warning(m).c_str());
        for (const auto& t : declared) {
            const int i = m.find_tensor(t.name);
            QVERIFY2(i >= 0, t.name.c_str());
            QVERIFY2(tensor(m, i).shape == t.shape,
                     (t.name + ": inferred " + graph::shape_to_string(tensor(m, i).shape)).c_str());
        }
        // Named as PyTorch names functional ops: no module of their own.
        QVERIFY(m.find_node("/Transpose") >= 0);
        QVERIFY(m.find_node("/Transpose_1") >= 0);
        QVERIFY(m.find_node("/Split") >= 0);
    }
};

QTEST_GUILESS_MAIN(NetBuilderTest)
#include "net_builder_test.moc"
