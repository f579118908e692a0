// The log-space correction of a base model for one device: one offset from a few samples, offsets
// per indicator column and a slope over kernel size recovered from many, and its JSON form.
#include "core/input_error.hpp"
#include "core/predict/log_correction.hpp"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <random>

using namespace cleave::predict;

namespace {

double offset_of(const LogCorrection& c, std::size_t column) {
    for (const auto& [col, value] : c.column_offsets)
        if (col == column)
            return value;
    return 0;
}

} // namespace

class LogCorrectionTest : public QObject {
    Q_OBJECT

private slots:
    void twoSamplesGiveTheirMeanAlone() {
        const auto c = LogCorrection::fit({{0.2, 3, {31}}, {0.6, 5, {32}}});
        QCOMPARE(c.offset, 0.4);
        QCOMPARE(c.slope, 0.0);
        QVERIFY(c.column_offsets.empty());
        const std::vector<double> row(40, 0);
        QCOMPARE(c.log_factor(row.data(), 9), 0.4);
    }

    void manySamplesRecoverOffsetsPerColumnAndASlope() {
        // log ratio = 0.2 + 0.5 on column 31, -0.3 on column 32, + 0.1 per unit of log size.
        std::mt19937_64 rng(3);
        std::normal_distribution<double> noise(0.0, 0.02);
        std::uniform_real_distribution<double> size(1.0, 9.0);
        std::vector<CorrectionSample> samples;
        for (int i = 0; i < 200; ++i) {
            const std::size_t column = 30 + static_cast<std::size_t>(i % 3); // 30 has no offset
            const double z = size(rng);
            const double r = 0.2 + (column == 31 ? 0.5 : column == 32 ? -0.3 : 0.0) +
                             0.1 * (z - 5.0) + noise(rng);
            samples.push_back({r, z, {column}});
        }
        const auto c = LogCorrection::fit(samples);
        QVERIFY(c.column_penalty <= 4);
        // The slope per unit of log size, whatever the split between offset and columns.
        QVERIFY2(std::abs(c.slope / c.scale - 0.1) < 0.01, std::to_string(c.slope).c_str());
        const double base = c.offset + offset_of(c, 30);
        QVERIFY2(std::abs(c.offset + offset_of(c, 31) - base - 0.5) < 0.02,
                 std::to_string(offset_of(c, 31)).c_str());
        QVERIFY2(std::abs(c.offset + offset_of(c, 32) - base + 0.3) < 0.02,
                 std::to_string(offset_of(c, 32)).c_str());
        std::vector<double> row(40, 0);
        row[31] = 1;
        QVERIFY(std::abs(c.log_factor(row.data(), 5.0) - 0.7) < 0.03);
    }

    void fiveSamplesWithoutAPatternKeepOneOffset() {
        // Columns that do not explain the ratios are pulled to nothing.
        const auto c = LogCorrection::fit(
            {{0.31, 2, {30}}, {0.29, 4, {31}}, {0.30, 6, {30}}, {0.32, 8, {31}}, {0.28, 3, {32}}});
        QVERIFY(std::abs(c.offset - 0.30) < 0.01);
        QCOMPARE(c.column_penalty, 1e6);
        for (const auto& [column, value] : c.column_offsets)
            QVERIFY(std::abs(value) < 1e-4);
    }

    void jsonRoundTripsAndRefusesColumnsBeyondTheRow() {
        LogCorrection c;
        c.offset = 0.1;
        c.slope = -0.2;
        c.center = 4;
        c.scale = 2;
        c.column_offsets = {{31, 0.5}};
        nlohmann::json doc;
        c.write(doc);
        const auto back = LogCorrection::read(doc, 40);
        QCOMPARE(back.offset, 0.1);
        QCOMPARE(back.column_offsets.size(), std::size_t{1});
        QCOMPARE(back.column_offsets[0].second, 0.5);
        try {
            LogCorrection::read(doc, 31);
            QFAIL("a column beyond the row was read");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("/columns/0/column"));
            QCOMPARE(e.problem(), std::string("expected a whole number from 0 to 30, found 31"));
        }
        doc["scale"] = 0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, LogCorrection::read(doc, 40));
    }
};

QTEST_GUILESS_MAIN(LogCorrectionTest)
#include "log_correction_test.moc"
