// The median and the coefficient of variation that decide when a measurement is steady.
#include "core/profile/timing_statistics.hpp"

#include <QtTest>

class TimingStatisticsTest : public QObject {
    Q_OBJECT

private slots:
    void medianOfOddAndEvenCounts() {
        QCOMPARE(cleave::profile::median({3.0, 1.0, 2.0}), 2.0);
        QCOMPARE(cleave::profile::median({4.0, 1.0, 3.0, 2.0}), 2.5);
        QCOMPARE(cleave::profile::median({}), 0.0);
    }

    void coefficientOfVariationUsesTheSampleDeviation() {
        // mean 10, sample standard deviation sqrt((4 + 0 + 4) / 2) = 2
        QCOMPARE(cleave::profile::coefficient_of_variation({8.0, 10.0, 12.0}), 0.2);
        QCOMPARE(cleave::profile::coefficient_of_variation({5.0}), 0.0);
        QCOMPARE(cleave::profile::coefficient_of_variation({0.0, 0.0}), 0.0);
    }
};

QTEST_GUILESS_MAIN(TimingStatisticsTest)
#include "timing_statistics_test.moc"
