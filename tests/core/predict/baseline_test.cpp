// The nominal roofline learned regressors predict a ratio to: a 2 us launch, MACs at 50 GMAC/s
// and bytes at 10 GB/s over the columns that name them, written into a model's JSON and read back.
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace cleave;
using namespace cleave::predict;

class BaselineTest : public QObject {
    Q_OBJECT

private slots:
    void columnsAreFoundByName() {
        const auto b = NominalRoofline::of(
            {"flops", "weight_bytes", "macs", "channels_in", "bytes_in", "bytes_out"});
        QCOMPARE(b.macs, 2);
        QCOMPARE(b.bytes, (std::vector<int>{1, 4, 5}));
        const auto none = NominalRoofline::of({"flops", "stride"});
        QCOMPARE(none.macs, -1);
        QVERIFY(none.bytes.empty());
    }

    void aLaunchPlusMacsPlusBytes() {
        const auto b =
            NominalRoofline::of({"macs", "bytes_in", "bytes_out", "weight_bytes", "flops"});
        // 5e6 MACs at 50e3 per us: 100 us; 2e5 bytes at 10e3 per us: 20 us; FLOPs are not read.
        const double row[] = {5e6, 1e5, 5e4, 5e4, 1e12};
        QCOMPARE(b.us(row), 122.0);
        const double empty[] = {0, 0, 0, 0, 0};
        QCOMPARE(b.us(empty), 2.0);
        // Without a MACs column, bytes alone.
        const auto bytes_only = NominalRoofline::of({"bytes_in"});
        const double copy[] = {3e4};
        QCOMPARE(bytes_only.us(copy), 5.0);
    }

    void writtenColumnsReadBack() {
        const auto b = NominalRoofline::of({"macs", "bytes_in", "stride", "bytes_out"});
        nlohmann::json doc;
        b.write(doc);
        QCOMPARE(doc["baseline_macs"].get<int>(), 0);
        QCOMPARE(doc["baseline_bytes"].get<std::vector<int>>(), (std::vector<int>{1, 3}));
        const auto read = NominalRoofline::read(doc, 4);
        QCOMPARE(read.macs, 0);
        QCOMPARE(read.bytes, (std::vector<int>{1, 3}));
        const auto none = NominalRoofline::read(
            nlohmann::json::parse(R"({"baseline_macs": -1, "baseline_bytes": []})"), 4);
        QCOMPARE(none.macs, -1);
    }

    void columnsBeyondTheRowAreRefused() {
        const auto place_of = [](const std::string& text) {
            try {
                NominalRoofline::read(nlohmann::json::parse(text), 4);
            } catch (const InputError& e) {
                return e.place();
            }
            return std::string("no error");
        };
        QCOMPARE(place_of(R"({"baseline_macs": 4, "baseline_bytes": [1]})"),
                 std::string("/baseline_macs"));
        QCOMPARE(place_of(R"({"baseline_macs": 0, "baseline_bytes": [1, 7]})"),
                 std::string("/baseline_bytes/1"));
        QCOMPARE(place_of(R"({"baseline_macs": 0, "baseline_bytes": [-1]})"),
                 std::string("/baseline_bytes/0"));
        QCOMPARE(place_of(R"({"baseline_macs": 0})"),
                 std::string("/")); // missing: named at its object
    }
};

QTEST_GUILESS_MAIN(BaselineTest)
#include "baseline_test.moc"
