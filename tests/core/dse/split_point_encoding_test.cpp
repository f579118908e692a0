// Genes to mappings: SPE split genes become sorted distinct cuts (0 and K mean no cut), PE genes
// pick a stage PE per segment, adjacent segments on one PE merge; naive genes give a PE per
// kernel; widening a smaller stage's genes keeps their mapping, and so does encoding a mapping.
// Held to a decoder's layers, split genes index the allowed cuts.
#include "core/dse/split_point_encoding.hpp"

#include <QtTest>

using namespace cleave;
using dse::Encoding;
using dse::GeneLayout;

namespace {

// Cluster PE numbers of a 4-PE stage, deliberately not 0..3.
const std::vector<int> kStagePes{11, 13, 15, 17};

} // namespace

class SplitPointEncodingTest : public QObject {
    Q_OBJECT

private slots:
    void genesHaveBoundsPagmoAccepts() {
        const GeneLayout spe{Encoding::spe, 10, 4, true};
        QCOMPARE(spe.size(), 3 + 4);
        const auto [lower, upper] = spe.bounds();
        QCOMPARE(lower, (std::vector<double>{0, 0, 0, 0, 0, 0, 0}));
        QCOMPARE(upper, (std::vector<double>{10, 10, 10, 3, 3, 3, 3}));
        const GeneLayout order{Encoding::spe, 10, 4, false};
        QCOMPARE(order.size(), 3);
        const GeneLayout naive{Encoding::naive, 10, 4, true};
        QCOMPARE(naive.size(), 10);
        QCOMPARE(naive.bounds().second, std::vector<double>(10, 3.0));
    }

    void splitGenesAreSortedDistinctCuts() {
        const GeneLayout layout{Encoding::spe, 10, 4, true};
        const auto m = dse::decode_spe(layout, {7, 3, 7, 2, 0, 1, 3}, kStagePes);
        QCOMPARE(m.points, (std::vector<int>{3, 7}));
        QCOMPARE(m.pes, (std::vector<int>{15, 11, 13})); // PE genes 2, 0, 1; the 4th is unused
    }

    void splitGenesAtZeroOrKMeanNoCut() {
        const GeneLayout layout{Encoding::spe, 10, 4, true};
        const auto m = dse::decode_spe(layout, {0, 10, 5, 1, 3, 0, 0}, kStagePes);
        QCOMPARE(m.points, (std::vector<int>{5}));
        QCOMPARE(m.pes, (std::vector<int>{13, 17}));
        const auto single = dse::decode_spe(layout, {0, 10, 0, 2, 3, 0, 0}, kStagePes);
        QVERIFY(single.points.empty());
        QCOMPARE(single.pes, (std::vector<int>{15}));
    }

    void adjacentSegmentsOnOnePeMerge() {
        const GeneLayout layout{Encoding::spe, 10, 4, true};
        const auto m = dse::decode_spe(layout, {3, 7, 9, 1, 1, 2, 1}, kStagePes);
        QCOMPARE(m.points, (std::vector<int>{7, 9}));
        QCOMPARE(m.pes, (std::vector<int>{13, 15, 13})); // a PE may run two segments
    }

    void withoutPeGenesSegmentsTakeStagePesInOrder() {
        const GeneLayout layout{Encoding::spe, 10, 4, false};
        const auto m = dse::decode_spe(layout, {8, 2, 8}, kStagePes);
        QCOMPARE(m.points, (std::vector<int>{2, 8}));
        QCOMPARE(m.pes, (std::vector<int>{11, 13, 15}));
    }

    void naiveGenesGiveAPePerKernel() {
        const GeneLayout layout{Encoding::naive, 6, 4, true};
        const auto a = dse::decode_naive(layout, {0, 0, 3, 3, 0, 1}, kStagePes);
        QCOMPARE(a.pe_of_kernel, (std::vector<int>{11, 11, 17, 17, 11, 13}));
        const auto m = dse::mapping_of(a);
        QCOMPARE(m.points, (std::vector<int>{2, 4, 5}));
        QCOMPARE(m.pes, (std::vector<int>{11, 17, 11, 13}));
    }

    void widenedGenesDecodeToTheSameMapping() {
        std::mt19937 random(3);
        const GeneLayout small{Encoding::spe, 40, 2, true};
        const GeneLayout wide{Encoding::spe, 40, 4, true};
        for (int i = 0; i < 200; ++i) {
            const auto genes = dse::random_genes(small, random);
            const auto widened = dse::widen_genes(small, genes, wide, random);
            QCOMPARE(static_cast<int>(widened.size()), wide.size());
            const auto a = dse::decode_spe(small, genes, kStagePes);
            const auto b = dse::decode_spe(wide, widened, kStagePes);
            QCOMPARE(a.points, b.points);
            QCOMPARE(a.pes, b.pes);
            const auto [lower, upper] = wide.bounds();
            for (std::size_t g = 0; g < widened.size(); ++g)
                QVERIFY(widened[g] >= lower[g] && widened[g] <= upper[g]);
        }
    }

    void encodedMappingDecodesToItself() {
        std::mt19937 random(5);
        const GeneLayout layout{Encoding::spe, 40, 4, true};
        for (int i = 0; i < 200; ++i) {
            const auto mapping =
                dse::decode_spe(layout, dse::random_genes(layout, random), kStagePes);
            const auto genes = dse::encode_spe(layout, mapping, kStagePes, random);
            QCOMPARE(static_cast<int>(genes.size()), layout.size());
            const auto again = dse::decode_spe(layout, genes, kStagePes);
            QCOMPARE(again.points, mapping.points);
            QCOMPARE(again.pes, mapping.pes);
        }
    }

    void heldSplitGenesIndexTheAllowedCuts() {
        std::mt19937 random(9);
        GeneLayout layout{Encoding::spe, 40, 4, true};
        layout.cuts = {0, 7, 12, 20, 33, 40}; // a decoder's five layers
        const auto [lower, upper] = layout.bounds();
        QCOMPARE(upper[0], 5.0);
        QCOMPARE(upper[layout.split_genes()], 3.0); // PE genes as before
        int cut = 0;
        for (int i = 0; i < 300; ++i) {
            const auto mapping =
                dse::decode_spe(layout, dse::random_genes(layout, random), kStagePes);
            for (const int point : mapping.points) {
                QVERIFY(point > 0 && point < 40);
                QVERIFY(std::binary_search(layout.cuts.begin(), layout.cuts.end(), point));
                ++cut;
            }
            const auto again = dse::decode_spe(
                layout, dse::encode_spe(layout, mapping, kStagePes, random), kStagePes);
            QCOMPARE(again.points, mapping.points);
            QCOMPARE(again.pes, mapping.pes);
        }
        QVERIFY(cut > 300);
        // Split genes 0 and 5 stand for kernels 0 and K: no cut.
        QVERIFY(dse::decode_spe(layout, {0, 5, 5, 1, 2, 3, 0}, kStagePes).points.empty());
        QCOMPARE(dse::decode_spe(layout, {2, 0, 5, 1, 2, 3, 0}, kStagePes).points,
                 std::vector<int>{12});
    }
};

QTEST_APPLESS_MAIN(SplitPointEncodingTest)
#include "split_point_encoding_test.moc"
