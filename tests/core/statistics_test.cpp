// The one quantile definition (linear interpolation, R's and NumPy's default), the median it
// gives, and the coefficient of variation that decides when a measurement is steady.
#include "core/statistics.hpp"

#include <QtTest>

class StatisticsTest : public QObject {
    Q_OBJECT

private slots:
    void medianOfOddAndEvenCounts() {
        QCOMPARE(cleave::median({3.0, 1.0, 2.0}), 2.0);
        QCOMPARE(cleave::median({4.0, 1.0, 3.0, 2.0}), 2.5);
        QCOMPARE(cleave::median({7.0}), 7.0);
        QCOMPARE(cleave::median({}), 0.0);
    }

    void quantilesInterpolateBetweenOrderStatistics() {
        // numpy.quantile([10, 20, 30, 40, 50], q): 0.05 -> 12, 0.95 -> 48, 0.25 -> 20.
        const std::vector<double> v{50, 10, 40, 20, 30};
        QCOMPARE(cleave::quantile(v, 0.05), 12.0);
        QCOMPARE(cleave::quantile(v, 0.95), 48.0);
        QCOMPARE(cleave::quantile(v, 0.25), 20.0);
        QCOMPARE(cleave::quantile(v, 0.0), 10.0);
        QCOMPARE(cleave::quantile(v, 1.0), 50.0);
        QCOMPARE(cleave::quantile(v, 2.0), 50.0); // clamped
        QCOMPARE(cleave::quantile({}, 0.5), 0.0);
    }

    void coefficientOfVariationUsesTheSampleDeviation() {
        // mean 10, sample standard deviation sqrt((4 + 0 + 4) / 2) = 2
        QCOMPARE(cleave::coefficient_of_variation({8.0, 10.0, 12.0}), 0.2);
        QCOMPARE(cleave::coefficient_of_variation({5.0}), 0.0);
        QCOMPARE(cleave::coefficient_of_variation({0.0, 0.0}), 0.0);
    }
};

QTEST_GUILESS_MAIN(StatisticsTest)
#include "statistics_test.moc"
