// Einsum equations as exporters write them: MaxViT's attention with spaces between letters, the
// implicit form, broadcasting of size-1 dims; what it cannot read it leaves alone.
#include "core/graph/einsum_equation.hpp"
#include "core/graph/onnx_import.hpp"

#include <QtTest>

using namespace cleave::graph;

class EinsumEquationTest : public QObject {
    Q_OBJECT

private slots:
    void maxvitAttentionHasItsShapeAndMacs() {
        const auto eq = parse_einsum("B G H I D, B G H J D -> B G H I J");
        QVERIFY(eq);
        QCOMPARE(eq->inputs, (std::vector<std::string>{"BGHID", "BGHJD"}));
        QCOMPARE(eq->output, std::string("BGHIJ"));
        const std::vector<std::vector<std::int64_t>> operands{{1, 196, 2, 49, 32},
                                                              {1, 196, 2, 49, 32}};
        QCOMPARE(*einsum_output_shape(*eq, operands), (std::vector<std::int64_t>{1, 196, 2, 49, 49}));
        // Every (b, g, h, i, j, d): 196 x 2 x 49 x 49 x 32.
        QCOMPARE(*einsum_macs(*eq, operands), std::int64_t{196} * 2 * 49 * 49 * 32);
    }

    void theImplicitFormKeepsLettersUsedOnceInOrder() {
        const auto eq = parse_einsum("ij,jk");
        QVERIFY(eq);
        QCOMPARE(eq->output, std::string("ik"));
        QCOMPARE(*einsum_output_shape(*eq, {{3, 4}, {4, 5}}), (std::vector<std::int64_t>{3, 5}));
        QCOMPARE(*einsum_macs(*eq, {{3, 4}, {4, 5}}), std::int64_t{60});
    }

    void sizeOneBroadcastsOtherSizesMustAgree() {
        const auto eq = parse_einsum("bij,bjk->bik");
        QCOMPARE(*einsum_output_shape(*eq, {{1, 3, 4}, {8, 4, 5}}),
                 (std::vector<std::int64_t>{8, 3, 5}));
        QVERIFY(!einsum_output_shape(*eq, {{2, 3, 4}, {8, 4, 5}}));
        QVERIFY(!einsum_output_shape(*eq, {{3, 4}, {8, 4, 5}})); // rank differs
    }

    void oneOperandCostsNoMultiplyAccumulates() {
        const auto eq = parse_einsum("ij->ji");
        QCOMPARE(*einsum_macs(*eq, {{3, 4}}), std::int64_t{0});
    }

    void whatItCannotReadIsLeftAlone() {
        QVERIFY(!parse_einsum("...ij,...jk->...ik"));
        QVERIFY(!parse_einsum("ij,jk->iz"));
        QVERIFY(!parse_einsum("i1,jk"));
    }
};

QTEST_APPLESS_MAIN(EinsumEquationTest)
#include "einsum_equation_test.moc"
