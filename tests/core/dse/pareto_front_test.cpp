// Non-dominated sets and hypervolumes small enough to check by hand.
#include "core/dse/pareto_front.hpp"

#include <QtTest>

using namespace cleave;

class ParetoFrontTest : public QObject {
    Q_OBJECT

private slots:
    void dominatedAndRepeatedPointsAreDropped() {
        const std::vector<std::vector<double>> points{
            {1, 3}, {2, 2}, {2, 3}, {3, 1}, {2, 2}, {4, 4}};
        QCOMPARE(dse::non_dominated(points), (std::vector<std::size_t>{0, 1, 3}));
    }

    void dominanceNeedsOneStrictlyBetterObjective() {
        QVERIFY(dse::dominates({1, 2}, {1, 3}));
        QVERIFY(!dse::dominates({1, 3}, {1, 2}));
        QVERIFY(!dse::dominates({1, 2}, {1, 2}));   // equal
        QVERIFY(!dse::dominates({1, 3}, {2, 2}));   // each better in one
        QVERIFY(!dse::dominates({1, 2}, {1, 2, 3})); // other objectives
    }

    void hypervolumeOfAStaircase() {
        // Against (4, 4): the union of [1,4]x[3,4], [2,4]x[2,4], [3,4]x[1,4].
        const std::vector<std::vector<double>> front{{1, 3}, {2, 2}, {3, 1}};
        QCOMPARE(dse::hypervolume(front, {4, 4}), 3.0 + 2.0 + 1.0);
        // Three objectives: a unit cube's corner dominates 2 x 2 x 2 of the box to (3, 3, 3).
        QCOMPARE(dse::hypervolume({{1, 1, 1}}, {3, 3, 3}), 8.0);
    }

    void pointsOutsideTheReferenceAddNothing() {
        QCOMPARE(dse::hypervolume({{1, 3}, {5, 0.5}, {2, 4}}, {4, 4}), 3.0);
        QCOMPARE(dse::hypervolume({{5, 5}}, {4, 4}), 0.0);
        QCOMPARE(dse::hypervolume({}, {4, 4}), 0.0);
    }
};

QTEST_APPLESS_MAIN(ParetoFrontTest)
#include "pareto_front_test.moc"
