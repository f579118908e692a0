// What a DSE search evaluated beyond its front, as the DSE tab keeps it: at most `capacity`
// mappings, the least recently seen dropped first; a mapping seen again takes its new figures,
// keeps its first generation and becomes the most recent.
#include "ui/document/dse_evaluated_points.hpp"

#include <QtTest>

class DseEvaluatedPointsTest : public QObject {
    Q_OBJECT

private slots:
    void evaluatedPointsKeepTheMostRecent() {
        cleave::ui::DseEvaluatedPoints points(3);
        std::vector<cleave::dse::Solution> batch;
        for (int i = 0; i < 5; ++i) {
            cleave::dse::Solution s;
            s.mapping.points = {i + 1};
            s.mapping.pes = {0, 1};
            s.objectives = {1.0 * i};
            s.generation = i;
            batch.push_back(s);
        }
        points.merge(batch);
        QCOMPARE(points.size(), std::size_t(3));
        QCOMPARE(points.points().front().mapping.points, std::vector<int>{3});
        QCOMPARE(points.find(batch[0].mapping), -1);
        // Seen again: new figures, its first generation, now the most recent.
        auto again = batch[2];
        again.objectives = {42.0};
        again.generation = 9;
        points.merge({again});
        QCOMPARE(points.size(), std::size_t(3));
        QCOMPARE(points.find(batch[2].mapping), 2);
        QCOMPARE(points.points().back().objectives, std::vector<double>{42.0});
        QCOMPARE(points.points().back().generation, 2);
        QCOMPARE(points.points().front().mapping.points, std::vector<int>{4});
    }
};

QTEST_APPLESS_MAIN(DseEvaluatedPointsTest)
#include "dse_evaluated_points_test.moc"
