// Edges beside: dot's ranks estimated (a constant moved down to just above its consumer), and
// the longest edges that other paths imply left out of dot's layout until its virtual nodes fit
// the budget, never an edge that no other path implies.
#include "core/layout/edges_beside.hpp"

#include <QtTest>

using cleave::fusion::Edge;
using cleave::layout::edges_beside;
using cleave::layout::estimated_ranks;
using cleave::layout::rank_span;

class EdgesBesideTest : public QObject {
    Q_OBJECT

private slots:
    // 0 -> 1 -> 2 -> 3, and node 4 (a constant, no producer) read by 3 only.
    void ranksFollowTheLongestPathAndConstantsSinkToTheirConsumer() {
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {2, 3}, {4, 3}};
        QCOMPARE(estimated_ranks(5, edges), (std::vector<int>{0, 1, 2, 3, 2}));
        QCOMPARE(rank_span(edges[3], estimated_ranks(5, edges)), 1);
    }

    // A chain of five with two shortcuts: 0 -> 4 (implied by the chain, 3 virtual nodes) and
    // 1 -> 3 (implied, 1 virtual node). The longest goes first, and only as many as the budget
    // needs.
    void theLongestImpliedEdgesGoUntilTheBudgetFits() {
        const std::vector<Edge> edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 3}};
        const auto rank = estimated_ranks(5, edges);
        QCOMPARE(edges_beside(5, edges, rank, 4),
                 (std::vector<bool>{false, false, false, false, false, false}));
        QCOMPARE(edges_beside(5, edges, rank, 1),
                 (std::vector<bool>{false, false, false, false, true, false}));
        QCOMPARE(edges_beside(5, edges, rank, 0),
                 (std::vector<bool>{false, false, false, false, true, true}));
    }

    // 1 -> 2 -> 3 -> 4 and 0 -> 4, 0 -> 5: 0 -> 4 crosses three ranks, but no other path leads
    // from 0 to 4, so it stays in dot's layout whatever the budget.
    void anEdgeNoPathImpliesStays() {
        const std::vector<Edge> edges{{1, 2}, {2, 3}, {3, 4}, {0, 4}, {0, 5}};
        const auto rank = estimated_ranks(6, edges);
        QCOMPARE(rank_span(edges[3], rank), 3);
        QCOMPARE(edges_beside(6, edges, rank, 0), std::vector<bool>(5, false));
    }
};

QTEST_GUILESS_MAIN(EdgesBesideTest)
#include "edges_beside_test.moc"
