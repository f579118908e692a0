// The gbdt regressor plugin (XGBoost): found by kind, fits kernel times, keeps its fit through
// save and load, and says what is wrong with a model it did not write.
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/regressor.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

using namespace cleave::predict;

namespace {

// Kernels whose time is a launch plus MACs at a rate that depends on the channel count.
RegressionSamples samples(int rows, unsigned seed) {
    RegressionSamples s;
    s.feature_names = kernel_feature_names();
    const auto column = [&](const char* name) {
        return static_cast<std::size_t>(
            std::find(s.feature_names.begin(), s.feature_names.end(), name) -
            s.feature_names.begin());
    };
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> macs(1e5, 1e8);
    std::uniform_int_distribution<int> channels(8, 512);
    for (int i = 0; i < rows; ++i) {
        std::vector<double> row(s.feature_names.size(), 0);
        row[column("macs")] = macs(random);
        row[column("channels_in")] = channels(random);
        const double gmacs_per_s = row[column("channels_in")] < 64 ? 10 : 40;
        s.x.insert(s.x.end(), row.begin(), row.end());
        s.y.push_back(3 + row[column("macs")] / (gmacs_per_s * 1e3));
        ++s.rows;
    }
    return s;
}

} // namespace

class XgboostRegressorTest : public QObject {
    Q_OBJECT

private slots:
    void fitsSavesAndLoads() {
        if (!CLEAVE_HAVE_XGBOOST_REGRESSOR)
            QSKIP("built without XGBoost (libxgboost-dev): no gbdt plugin");
        const auto kinds = regressor_kinds();
        QVERIFY(std::find(kinds.begin(), kinds.end(), "gbdt") != kinds.end());
        auto gbdt = make_regressor("gbdt", "--kind");
        const auto train = samples(2000, 1);
        gbdt->fit(train, 7);
        const auto test = samples(300, 2);
        const auto columns = test.feature_names.size();
        double error = 0;
        std::vector<double> batch(test.rows);
        gbdt->predict_rows(test.x.data(), test.rows, columns, batch.data());
        for (std::size_t i = 0; i < test.rows; ++i) {
            const double one = gbdt->predict(&test.x[i * columns]);
            QCOMPARE(one, batch[i]);
            error += std::abs(one - test.y[i]) / test.y[i];
        }
        error /= static_cast<double>(test.rows);
        QVERIFY2(error < 0.05, std::to_string(error).c_str());

        auto loaded = make_regressor("gbdt", "--kind");
        loaded->load(gbdt->save(), columns);
        for (std::size_t i = 0; i < test.rows; ++i)
            QCOMPARE(loaded->predict(&test.x[i * columns]), batch[i]);
    }

    void refusesWhatItDidNotWrite() {
        if (!CLEAVE_HAVE_XGBOOST_REGRESSOR)
            QSKIP("built without XGBoost (libxgboost-dev): no gbdt plugin");
        auto gbdt = make_regressor("gbdt", "--kind");
        const auto expect = [&](const std::string& text, std::size_t features,
                                const std::string& start) {
            try {
                gbdt->load(text, features);
            } catch (const cleave::InputError& e) { // the place inside the model, then the problem
                QVERIFY2(std::string(e.what()).starts_with(start), e.what());
                return;
            }
            QFAIL("no error");
        };
        expect(R"({"target": "log_us"})", 27, "/target: expected");
        expect(R"({"target": "log_us_over_baseline", "features": 5})", 27, "/features: expected 27, the");
        expect(R"({"target": "log_us_over_baseline", "features": 27, "baseline_macs": 0,
                   "baseline_bytes": [1], "xgboost": {"learner": 1}})",
               27, "/xgboost/learner: expected XGBoost's learner, found number");
    }

    // XGBoost's loader reads past a tree array shorter than the tree (a crash) and loads a
    // cycle that predict then follows for ever: both are refused before XGBoost sees them.
    void refusesTreesXgboostWouldCrashOrHangOn() {
        if (!CLEAVE_HAVE_XGBOOST_REGRESSOR)
            QSKIP("built without XGBoost (libxgboost-dev): no gbdt plugin");
        auto gbdt = make_regressor("gbdt", "--kind");
        const auto train = samples(300, 3);
        gbdt->fit(train, 7);
        const auto saved = nlohmann::json::parse(gbdt->save());
        const auto refused = [&](const std::function<void(nlohmann::json&)>& change,
                                 const std::string& start) {
            auto doc = saved;
            change(doc["xgboost"]["learner"]["gradient_booster"]["model"]["trees"][5]);
            try {
                make_regressor("gbdt", "--kind")->load(doc.dump(), train.feature_names.size());
            } catch (const cleave::InputError& e) {
                QVERIFY2(std::string(e.what()).starts_with(start), e.what());
                return;
            }
            QFAIL("no error");
        };
        const std::string tree = "/xgboost/learner/gradient_booster/model/trees/5/";
        refused([](auto& t) { t["split_type"].erase(t["split_type"].size() - 1); },
                tree + "split_type: expected");
        // The root's right child the root itself: a cycle.
        refused([](auto& t) { t["right_children"][0] = 0; },
                tree + "right_children/0: node 0 is reached a second time");
    }

    void aMissingKindSaysWhatThereIs() {
        try {
            make_regressor("forest", "--kind");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("--kind"));
            QVERIFY2(e.problem().starts_with("no regressor plugin named 'forest'"),
                     e.problem().c_str());
            return;
        }
        QFAIL("no error");
    }
};

QTEST_GUILESS_MAIN(XgboostRegressorTest)
#include "xgboost_regressor_test.moc"
