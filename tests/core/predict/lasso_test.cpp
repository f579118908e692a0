// The non-negative lasso (Li et al. Eq. 1): known sparse weights recovered, a penalty large enough
// leaving the weighted mean, the floor, the error it minimises, its checks, and the lasso as a
// regressor that reads only additive features, saved and loaded.
#include "../input_error_of.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/lasso.hpp"

#include <QtTest>
#include <random>
#include <stdexcept>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

} // namespace

class LassoTest : public QObject {
    Q_OBJECT

private slots:
    void lassoRecoversNonNegativeWeights() {
        // y = 5 + 2 x0 + 0.5 x1, with x2 pulling the wrong way: its weight must stay at zero.
        std::mt19937 random(3);
        std::uniform_real_distribution<double> u(1, 100);
        const int n = 200;
        Eigen::MatrixXd x(n, 3);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            x(i, 0) = u(random);
            x(i, 1) = u(random);
            x(i, 2) = u(random);
            y(i) = 5 + 2 * x(i, 0) + 0.5 * x(i, 1) - 0.01 * x(i, 2);
        }
        const auto model = fit_lasso(x, y, 0.0);
        QVERIFY(std::abs(model.weights[0] - 2) < 0.05);
        QVERIFY(std::abs(model.weights[1] - 0.5) < 0.05);
        QCOMPARE(model.weights[2], 0.0);
        const auto cv = fit_lasso_cv(x, y);
        QVERIFY(mean_squared_percentage_error(cv, x, y) < 1e-3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fit_lasso(x, Eigen::VectorXd::Zero(n), 0.0));
    }

    void crossValidationRecoversSparseWeights() {
        // Six features, two of them used: y = 10 + 3 x1 + 0.25 x4, exactly.
        std::mt19937 random(11);
        std::uniform_real_distribution<double> u(0, 50);
        const int n = 120;
        Eigen::MatrixXd x(n, 6);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < 6; ++j)
                x(i, j) = u(random);
            y(i) = 10 + 3 * x(i, 1) + 0.25 * x(i, 4);
        }
        const auto model = fit_lasso_cv(x, y);
        QCOMPARE(model.weights.size(), std::size_t{6});
        for (const int j : {0, 2, 3, 5})
            QVERIFY2(model.weights[static_cast<std::size_t>(j)] < 1e-3, std::to_string(j).c_str());
        QVERIFY(std::abs(model.weights[1] - 3) < 1e-3);
        QVERIFY(std::abs(model.weights[4] - 0.25) < 1e-3);
        QVERIFY(std::abs(model.intercept - 10) < 0.05);
        const double row[] = {7, 2, 7, 7, 8, 7}; // 10 + 6 + 2
        QVERIFY(std::abs(model.predict(row) - 18) < 0.01);
    }

    void aLargePenaltyLeavesTheWeightedMean() {
        Eigen::MatrixXd x(2, 1);
        x << 1, 2;
        Eigen::VectorXd y(2);
        y << 1, 2;
        // Squared percentage error weighs each sample by y^-2: (1 x 1 + 0.25 x 2) / 1.25.
        const auto relative = fit_lasso(x, y, 100.0);
        QCOMPARE(relative.weights, std::vector<double>{0.0});
        QCOMPARE(relative.intercept, 1.2);
        QCOMPARE(relative.alpha, 100.0);
        LassoOptions plain;
        plain.target_power = 0; // plain squared error: the mean
        QCOMPARE(fit_lasso(x, y, 100.0, plain).intercept, 1.5);
    }

    void predictionsKeepToTheFloor() {
        LinearModel m;
        m.intercept = -4;
        m.weights = {2, 1};
        m.floor = 0.5;
        const double high[] = {3, 1}; // -4 + 6 + 1
        const double low[] = {1, 1};  // -4 + 2 + 1 = -1
        QCOMPARE(m.predict(high), 3.0);
        QCOMPARE(m.predict(low), 0.5);
        // A fit's floor is half its smallest target.
        Eigen::MatrixXd x(3, 1);
        x << 1, 2, 3;
        Eigen::VectorXd y(3);
        y << 4, 6, 8;
        QCOMPARE(fit_lasso(x, y, 0.0).floor, 2.0);
    }

    void meanSquaredPercentageError() {
        LinearModel m;
        m.intercept = 1;
        m.weights = {1};
        Eigen::MatrixXd x(2, 1);
        x << 1, 3;
        Eigen::VectorXd y(2);
        y << 2, 5; // predicted 2 and 4: errors 0 and 0.2
        QCOMPARE(mean_squared_percentage_error(m, x, y), 0.02);
    }

    void aFeatureThatNeverVariesGetsNoWeight() {
        Eigen::MatrixXd x(4, 2);
        x << 1, 7, 2, 7, 3, 7, 4, 7;
        Eigen::VectorXd y(4);
        y << 3, 5, 7, 9;
        const auto model = fit_lasso(x, y, 0.0);
        QCOMPARE(model.weights[1], 0.0);
        QVERIFY(std::abs(model.weights[0] - 2) < 1e-6);
        QVERIFY(std::abs(model.intercept - 1) < 1e-6);
    }

    void samplesItCannotFitAreRefused() {
        Eigen::MatrixXd x(3, 1);
        x << 1, 2, 3;
        Eigen::VectorXd two(2);
        two << 1, 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fit_lasso(x, two, 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fit_lasso(Eigen::MatrixXd(0, 1), Eigen::VectorXd(0), 0.0));
        Eigen::VectorXd negative(3);
        negative << 1, -2, 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fit_lasso_cv(x, negative));
    }

    void theRegressorReadsOnlyAdditiveFeatures() {
        // Time follows MACs; the channel count moves with them but is not additive: no weight.
        RegressionSamples s;
        s.feature_names = kernel_feature_names();
        const auto p = s.feature_names.size();
        for (int i = 1; i <= 40; ++i) {
            std::vector<double> row(p, 0);
            row[column("macs")] = i * 1000.0;
            row[column("channels_in")] = i * 8.0;
            s.x.insert(s.x.end(), row.begin(), row.end());
            s.y.push_back(4 + i * 0.5);
            ++s.rows;
        }
        LassoRegressor lasso;
        lasso.fit(s, 1);
        QCOMPARE(lasso.model().weights[column("channels_in")], 0.0);
        QVERIFY(std::abs(lasso.model().weights[column("macs")] - 0.0005) < 1e-6);
        QVERIFY(std::abs(lasso.predict(&s.x[9 * p]) - 9.0) < 1e-3);
        s.y.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lasso.fit(s, 1));
    }

    void theRegressorSavesAndLoads() {
        LassoRegressor saved;
        saved.load(R"({"intercept_us": 4, "weights": [0.5, 0, 2], "floor_us": 1, "alpha": 0.01})",
                   3);
        QCOMPARE(saved.model().intercept, 4.0);
        QCOMPARE(saved.model().weights, (std::vector<double>{0.5, 0, 2}));
        LassoRegressor loaded;
        loaded.load(saved.save(), 3);
        const double row[] = {2, 100, 3}; // 4 + 1 + 6
        QCOMPARE(loaded.predict(row), 11.0);
        QCOMPARE(loaded.model().floor, 1.0);
        QCOMPARE(loaded.model().alpha, 0.01);
        QCOMPARE(cleave::test::input_error_of([&] { loaded.load(saved.save(), 4); }).substr(0, 14),
                 std::string(" | /weights | "));
        QCOMPARE(
            cleave::test::input_error_of([&] {
                loaded.load(
                    R"({"intercept_us": 4, "weights": [0.5, -1, 2], "floor_us": 1, "alpha": 0})",
                    3);
            }),
            std::string(" | /weights/1 | expected a non-negative number"));
    }
};

QTEST_GUILESS_MAIN(LassoTest)
#include "lasso_test.moc"
