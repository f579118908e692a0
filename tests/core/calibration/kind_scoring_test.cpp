// The kinds a calibration scores: those asked for only when installed here, else every installed
// kind but the roofline, the tree ensemble first and lasso, the slowest to score, after mlp.
#include "core/calibration/kind_scoring.hpp"
#include "core/input_error.hpp"
#include "core/predict/regressor.hpp"

#include <QtTest>
#include <algorithm>

using namespace cleave;

namespace {

std::ptrdiff_t place(const std::vector<std::string>& kinds, const std::string& kind) {
    return std::find(kinds.begin(), kinds.end(), kind) - kinds.begin();
}

} // namespace

class KindScoringTest : public QObject {
    Q_OBJECT

private slots:
    void kindsAskedForAreScoredWhenInstalled() {
        calibration::CalibrationOptions options;
        options.kinds = {"mlp", "lasso"};
        QCOMPARE(calibration::kinds_to_score(options), (std::vector<std::string>{"mlp", "lasso"}));
        options.kinds = {"lasso", "no-such-kind"};
        try {
            calibration::kinds_to_score(options);
            QFAIL("a kind not installed was taken");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--kind"));
            QVERIFY(std::string(e.what()).find("no-such-kind") != std::string::npos);
        }
    }

    void everyInstalledKindButTheRooflineTheTreesFirst() {
        const auto kinds = calibration::kinds_to_score({});
        const auto installed = predict::regressor_kinds();
        QCOMPARE(place(kinds, "roofline"), static_cast<std::ptrdiff_t>(kinds.size()));
        for (const auto& kind : installed)
            if (kind != "roofline")
                QVERIFY2(place(kinds, kind) < static_cast<std::ptrdiff_t>(kinds.size()),
                         kind.c_str());
        if (place(kinds, "gbdt") < static_cast<std::ptrdiff_t>(kinds.size()))
            QCOMPARE(kinds.front(), std::string("gbdt"));
        QVERIFY(place(kinds, "mlp") < place(kinds, "lasso"));
    }
};

QTEST_GUILESS_MAIN(KindScoringTest)
#include "kind_scoring_test.moc"
