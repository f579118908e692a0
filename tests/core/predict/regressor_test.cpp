// Regressors by kind: core's four made here, the rest from plugins, a kind that is not there
// refused naming the option; one row after another where a regressor batches nothing; and the
// opening every saved model is checked against (its target and feature count).
#include "../input_error_of.hpp"
#include "core/input_error.hpp"
#include "core/predict/cross_device.hpp"
#include "core/predict/lasso.hpp"
#include "core/predict/launch_bound.hpp"
#include "core/predict/mlp.hpp"
#include "core/predict/roofline.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::predict;

namespace {

// Predicts the sum of a row's features.
class SumRegressor final : public Regressor {
public:
    void fit(const RegressionSamples&, unsigned) override {}
    double predict(const double* features) const override {
        return features[0] + features[1] + features[2];
    }
    std::string save() const override { return "{}"; }
    void load(const std::string&, std::size_t) override {}
};

// "file | place | problem" of the InputError `f` throws.
} // namespace

class RegressorTest : public QObject {
    Q_OBJECT

private slots:
    void coreKindsAreMadeHere() {
        QVERIFY(dynamic_cast<LassoRegressor*>(make_regressor("lasso", "--kind").get()));
        QVERIFY(dynamic_cast<MlpRegressor*>(make_regressor("mlp", "--kind").get()));
        QVERIFY(dynamic_cast<RooflineRegressor*>(make_regressor("roofline", "--kind").get()));
        QVERIFY(
            dynamic_cast<LaunchBoundRegressor*>(make_regressor("launch-bound", "--kind").get()));
        QVERIFY(
            dynamic_cast<CrossDeviceRegressor*>(make_regressor(kCrossDeviceKind, "/kind").get()));
        const auto kinds = regressor_kinds();
        QVERIFY(kinds.size() >= 4);
        QCOMPARE(std::vector<std::string>(kinds.begin(), kinds.begin() + 4),
                 (std::vector<std::string>{"lasso", "mlp", "roofline", "launch-bound"}));
    }

    void aKindThatIsNotThereNamesTheOption() {
        const auto message = cleave::test::input_error_of([] { make_regressor("nope", "--kind"); });
        QVERIFY2(message.starts_with(" | --kind | no regressor plugin named 'nope'"),
                 message.c_str());
    }

    void rowsArePredictedOneByOneByDefault() {
        const SumRegressor sum;
        const std::vector<double> rows{1, 2, 3, 10, 20, 30};
        std::vector<double> out(2);
        sum.predict_rows(rows.data(), 2, 3, out.data());
        QCOMPARE(out, (std::vector<double>{6, 60}));
    }

    void aModelsOpeningIsChecked() {
        const auto doc = read_model_head(R"({"target": "us", "features": 5, "trees": []})",
                                         "a gbdt model", "us", 5);
        QVERIFY(doc.contains("trees"));
        QCOMPARE(cleave::test::input_error_of([] {
                     read_model_head(R"({"target": "ms", "features": 5})", "a gbdt model", "us", 5);
                 }),
                 std::string(" | /target | expected \"us\""));
        QCOMPARE(cleave::test::input_error_of([] {
                     read_model_head(R"({"target": "us", "features": 4})", "a gbdt model", "us", 5);
                 }),
                 std::string(" | /features | expected 5, the predictor's feature count"));
        QVERIFY(cleave::test::input_error_of([] {
                    read_model_head(R"({"target": "us"})", "a gbdt model", "us", 5);
                }).starts_with(" | / | missing \"features\""));
        QCOMPARE(cleave::test::input_error_of(
                     [] { read_model_head("[1, 2]", "a gbdt model", "us", 5); }),
                 std::string(" | / | expected a gbdt model, found array"));
        QVERIFY(cleave::test::input_error_of([] {
                    read_model_head("{\"target\": ", "a gbdt model", "us", 5);
                }).starts_with(" | byte "));
    }
};

QTEST_GUILESS_MAIN(RegressorTest)
#include "regressor_test.moc"
