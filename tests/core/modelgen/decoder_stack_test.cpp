// GPT-2 decoder stacks: 47 nodes a layer in the decomposed form exporters write below opset 17,
// and bad sizes refused.
#include "built_model.hpp"
#include "core/modelgen/decoder_stack.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <map>

using namespace cleave;
using cleave::test::check_shapes;
using cleave::test::output_shape;
using cleave::test::producer;
using cleave::test::tensor;

class DecoderStackTest : public QObject {
    Q_OBJECT

private slots:
    // GPT-2 as exporters write it below opset 17: 47 nodes a layer, LayerNorm decomposed (no
    // LayerNormalization node), the causal mask added to the divided scores before Softmax, and
    // the same graph without weight values (how the large-model benchmark writes its stacks).
    void decoderStackIsGpt2InDecomposedForm() {
        const auto spec = modelgen::decoder_stack(3, 64, 4, 16, 100);
        const auto m = test::built_model(spec);
        check_shapes(m);
        QCOMPARE(m.nodes.size(), std::size_t{3 * 47 + 10});
        QCOMPARE(*tensor(m, m.outputs[0]).shape, (graph::Shape{1, 16, 100}));
        std::map<std::string, int> ops;
        for (const auto& n : m.nodes)
            ++ops[n.op];
        QCOMPARE(ops["LayerNormalization"], 0);
        QCOMPARE(ops["Sqrt"], 7);
        QCOMPARE(ops["Erf"], 3);
        QCOMPARE(ops["Softmax"], 3);
        QCOMPARE(ops["Split"], 3);
        for (const auto& n : m.nodes) {
            if (n.op != "Softmax")
                continue;
            const auto* masked = producer(m, n, 0);
            QVERIFY(masked && masked->op == "Add");
            const auto* divided = producer(m, *masked, 0);
            QVERIFY(divided && divided->op == "Div");
            QCOMPARE(output_shape(m, *divided), (graph::Shape{1, 4, 16, 16}));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelgen::decoder_stack(2, 64, 5, 16));
    }
};

QTEST_GUILESS_MAIN(DecoderStackTest)
#include "decoder_stack_test.moc"
