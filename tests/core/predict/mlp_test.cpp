// The mlp regressor: it learns a kernel time that a launch and a rate set by the channel count
// make (within 8%), repeats a fit for a seed, holds its output within the training targets'
// ratios to the nominal roofline, refuses what it cannot fit, and saves, loads and checks its file.
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/mlp.hpp"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// `rows` kernels of random MACs and bytes that take `ratio` times the nominal roofline
// (baseline.hpp: 2 us + MACs / 50e3 + bytes / 10e3).
RegressionSamples at_ratio(int rows, double ratio, unsigned seed) {
    RegressionSamples s;
    s.feature_names = kernel_feature_names();
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> macs(1e4, 1e7);
    std::uniform_real_distribution<double> bytes(1e3, 1e6);
    for (int i = 0; i < rows; ++i) {
        std::vector<double> row(s.feature_names.size(), 0);
        row[column("macs")] = macs(random);
        row[column("bytes_in")] = bytes(random);
        s.x.insert(s.x.end(), row.begin(), row.end());
        s.y.push_back(ratio * (2 + row[column("macs")] / 50e3 + row[column("bytes_in")] / 10e3));
        ++s.rows;
    }
    return s;
}

std::string place_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.place();
    }
    return "no error";
}

} // namespace

class MlpTest : public QObject {
    Q_OBJECT

private slots:
    void mlpFitsSavesAndLoads() {
        // Kernel times a launch plus MACs at a rate set by the channel count: a ratio to the
        // nominal roofline that a small network learns.
        RegressionSamples s;
        s.feature_names = kernel_feature_names();
        const auto& names = s.feature_names;
        const auto at = [&](const char* name) {
            return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                            names.begin());
        };
        std::mt19937 random(5);
        std::uniform_real_distribution<double> macs(1e5, 1e8);
        std::uniform_int_distribution<int> channels(8, 512);
        const auto make = [&](int rows) {
            RegressionSamples out = s;
            for (int i = 0; i < rows; ++i) {
                std::vector<double> row(names.size(), 0);
                row[at("macs")] = macs(random);
                row[at("channels_in")] = channels(random);
                const double rate = row[at("channels_in")] < 64 ? 10e3 : 40e3; // MACs per us
                out.x.insert(out.x.end(), row.begin(), row.end());
                out.y.push_back(3 + row[at("macs")] / rate);
                ++out.rows;
            }
            return out;
        };
        const auto train = make(3000);
        const auto test = make(300);
        auto mlp = make_regressor("mlp", "--kind");
        mlp->fit(train, 2);
        std::vector<double> predicted(test.rows);
        mlp->predict_rows(test.x.data(), test.rows, names.size(), predicted.data());
        double error = 0;
        for (std::size_t i = 0; i < test.rows; ++i)
            error += std::abs(predicted[i] - test.y[i]) / test.y[i];
        error /= static_cast<double>(test.rows);
        QVERIFY2(error < 0.08, std::to_string(error).c_str());
        auto loaded = make_regressor("mlp", "--kind");
        loaded->load(mlp->save(), names.size());
        for (std::size_t i = 0; i < test.rows; i += 37)
            QVERIFY(std::abs(loaded->predict(&test.x[i * names.size()]) - predicted[i]) <
                    1e-9 * predicted[i]);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loaded->load(mlp->save(), names.size() + 1));
    }

    void aFitIsRepeatableForItsSeed() {
        const auto s = at_ratio(200, 1.5, 3);
        MlpOptions options;
        options.epochs = 10;
        MlpRegressor a(options), b(options), c(options);
        a.fit(s, 7);
        b.fit(s, 7);
        c.fit(s, 8);
        const auto p = s.feature_names.size();
        bool differs = false;
        for (std::size_t i = 0; i < s.rows; i += 20) {
            QCOMPARE(a.predict(&s.x[i * p]), b.predict(&s.x[i * p]));
            differs |= a.predict(&s.x[i * p]) != c.predict(&s.x[i * p]);
        }
        QVERIFY(differs);
    }

    void outputStaysWithinTheTrainingRatios() {
        // Every target is 3 times the nominal roofline: so is every prediction, however far out.
        const auto s = at_ratio(100, 3, 4);
        MlpOptions options;
        options.epochs = 5;
        MlpRegressor mlp(options);
        mlp.fit(s, 1);
        std::vector<double> far(s.feature_names.size(), 0);
        far[column("macs")] = 1e12;
        far[column("bytes_in")] = 5e9;
        const double expected = 3 * (2 + 1e12 / 50e3 + 5e9 / 10e3);
        QVERIFY(std::abs(mlp.predict(far.data()) - expected) < 1e-9 * expected);
        const auto p = s.feature_names.size();
        for (std::size_t i = 0; i < s.rows; i += 9)
            QVERIFY(std::abs(mlp.predict(&s.x[i * p]) - s.y[i]) < 1e-9 * s.y[i]);
    }

    void whatItCannotFitIsRefused() {
        MlpRegressor mlp;
        const double row[33] = {};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, mlp.predict(row)); // before fit or load
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlp.fit(at_ratio(9, 1, 1), 1));
        auto s = at_ratio(20, 1, 1);
        s.y[4] = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlp.fit(s, 1));
        s = at_ratio(20, 1, 1);
        s.x.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlp.fit(s, 1));
    }

    void badModelFilesNameThePlace() {
        const auto s = at_ratio(40, 2, 5);
        MlpOptions options;
        options.hidden1 = 4;
        options.hidden2 = 3;
        options.epochs = 2;
        MlpRegressor mlp(options);
        mlp.fit(s, 1);
        const auto good = nlohmann::json::parse(mlp.save());
        QCOMPARE(good["w1"].size(), s.feature_names.size());
        QCOMPARE(good["w1"][0].size(), std::size_t{4});
        QCOMPARE(good["w2"].size(), std::size_t{4});
        QCOMPARE(good["b2"][0].size(), std::size_t{3});
        const auto n = s.feature_names.size();
        const auto load_with = [&](const std::function<void(nlohmann::json&)>& change) {
            auto doc = good;
            change(doc);
            MlpRegressor other;
            return place_of([&] { other.load(doc.dump(), n); });
        };
        QCOMPARE(load_with([](nlohmann::json&) {}), std::string("no error"));
        QCOMPARE(load_with([](nlohmann::json& d) { d["target"] = "us"; }), std::string("/target"));
        QCOMPARE(load_with([](nlohmann::json& d) { d["scale"][2] = 0; }), std::string("/scale"));
        QCOMPARE(load_with([](nlohmann::json& d) {
                     d["target_max"] = d["target_min"].get<double>() - 1;
                 }),
                 std::string("/target_max"));
        QCOMPARE(load_with([](nlohmann::json& d) { d["w2"].erase(0); }), std::string("/w2"));
        QCOMPARE(load_with([](nlohmann::json& d) { d["w1"][3][1] = "x"; }), std::string("/w1/3/1"));
        QCOMPARE(load_with([](nlohmann::json& d) { d["baseline_macs"] = 99; }),
                 std::string("/baseline_macs"));
    }
};

QTEST_GUILESS_MAIN(MlpTest)
#include "mlp_test.moc"
