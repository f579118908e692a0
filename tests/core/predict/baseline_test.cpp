// The nominal roofline learned regressors predict a ratio to: a 2 us launch, MACs at 50 GMAC/s
// and bytes at 10 GB/s over the columns that name them, written into a model's JSON and read back;
// and the laws fitted for the classes whose products have one row, which replace it for their rows.
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"

#include <QtTest>
#include <cmath>
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

    // Rows of a "/gemv" class that follow 3 us + 20 ps a MAC + 70 ps a byte read or written give
    // that law back, whatever their stored weights (a rotary table read in a few rows); other
    // rows keep the nominal roofline, and so does a class with too few rows.
    void aVectorClassGetsItsOwnLaw() {
        const std::vector<std::string> names{"macs",
                                             "bytes_in",
                                             "weight_bytes",
                                             "class=GroupQueryAttention/gemv",
                                             "class=MatMul/gemm",
                                             "class=Gemm/gemv"};
        std::vector<double> x, y;
        for (int i = 1; i <= 30; ++i) {
            const double macs = 1e5 * i, moved = 4e4 * ((i * 7) % 13 + 1);
            const double stored = 1e6 * ((i * 5) % 3);
            x.insert(x.end(), {macs, moved, stored, 1, 0, 0});
            y.push_back(3 + macs * 20e-6 + moved * 70e-6);
            x.insert(x.end(), {macs, moved, stored, 0, 1, 0}); // a gemm class: no law of its own
            y.push_back(1);
        }
        x.insert(x.end(), {1e6, 1e4, 0, 0, 0, 1}); // one row of a gemv class: too few for a law
        y.push_back(50);
        auto b = NominalRoofline::of(names);
        QCOMPARE(b.law_bytes, std::vector<int>{1});
        b.fit(names, x, y);
        QCOMPARE(b.laws.size(), std::size_t{1});
        QCOMPARE(b.laws[0].column, 3);
        QVERIFY(std::abs(b.laws[0].launch_us - 3) < 1e-6);
        QVERIFY(std::abs(b.laws[0].us_per_mac - 20e-6) < 1e-12);
        QVERIFY(std::abs(b.laws[0].us_per_byte - 70e-6) < 1e-12);
        const double gqa[] = {2e6, 1e6, 4e6, 1, 0, 0};
        QVERIFY(std::abs(b.us(gqa) - (3 + 40 + 70)) < 1e-6);
        const double gemm[] = {5e6, 1e5, 0, 0, 1, 0};
        QCOMPARE(b.us(gemm), 2.0 + 100 + 10);

        nlohmann::json doc;
        b.write(doc);
        const auto read = NominalRoofline::read(doc, names.size());
        QCOMPARE(read.laws.size(), std::size_t{1});
        QCOMPARE(read.us(gqa), b.us(gqa));
        // Laws written before they had columns of their own counted every bytes column.
        doc.erase("baseline_law_bytes");
        const auto older = NominalRoofline::read(doc, names.size());
        QCOMPARE(older.law_bytes, (std::vector<int>{1, 2}));
        QVERIFY(std::abs(older.us(gqa) - (3 + 40 + 350)) < 1e-6);
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
        QCOMPARE(
            place_of(
                R"({"baseline_macs": 0, "baseline_bytes": [], "baseline_laws": [[9, 1, 0, 0]]})"),
            std::string("/baseline_laws/0/0"));
        QCOMPARE(
            place_of(
                R"({"baseline_macs": 0, "baseline_bytes": [], "baseline_laws": [[1, -1, 0, 0]]})"),
            std::string("/baseline_laws/0/1"));
        QCOMPARE(
            place_of(R"({"baseline_macs": 0, "baseline_bytes": [], "baseline_laws": [[1, 2]]})"),
            std::string("/baseline_laws/0"));
        QCOMPARE(place_of(R"({"baseline_macs": 0, "baseline_bytes": [], "baseline_laws": [],
                              "baseline_law_bytes": [4]})"),
                 std::string("/baseline_law_bytes/0"));
    }
};

QTEST_GUILESS_MAIN(BaselineTest)
#include "baseline_test.moc"
