// A device's measured runs as distinct profiled kernels (the measured sample: five CNNs at 1
// thread): each kernel once with every time it was measured, the KMeans choice as indices, and
// scores that leave the chosen kernels out.
#include "../measured_sample.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/predict/profiled_kernels.hpp"

#include <QtTest>
#include <set>

using namespace cleave;
using namespace cleave::predict;

namespace {

const cleave::test::PreparedSample& sample() {
    return cleave::test::prepared_sample();
}

} // namespace

class ProfiledKernelsTest : public QObject {
    Q_OBJECT

private slots:
    void eachKernelOnceWithEveryTimeItWasMeasured() {
        const auto profiled = ProfiledKernels::of(sample().runs);
        std::size_t timed = 0;
        for (const auto& r : sample().runs)
            timed += r.samples.size();
        QCOMPARE(profiled.candidates.size(), timed);
        QVERIFY(profiled.kernels.size() < timed); // resnet18 repeats its blocks
        std::size_t times = 0;
        for (const auto& k : profiled.kernels)
            times += k.us.size();
        QCOMPARE(times, timed);
        for (std::size_t r = 0; r < sample().runs.size(); ++r)
            for (std::size_t i = 0; i < sample().runs[r].samples.size(); ++i) {
                const auto& k = profiled.kernels[profiled.of_sample[r][i]];
                QCOMPARE(k.features, sample().runs[r].samples[i].features);
                QCOMPARE(k.cost_class, sample().runs[r].samples[i].model_class);
            }
    }

    void kmeansChoosesDistinctKernelsRepeatably() {
        const auto profiled = ProfiledKernels::of(sample().runs);
        const auto chosen = profiled.choose_by_kmeans(20, 1);
        QCOMPARE(chosen.size(), std::size_t{20});
        QCOMPARE(std::set<int>(chosen.begin(), chosen.end()).size(), std::size_t{20});
        for (const int id : chosen)
            QVERIFY(id >= 0 && id < static_cast<int>(profiled.kernels.size()));
        QCOMPARE(profiled.choose_by_kmeans(20, 1), chosen);
        const auto samples = profiled.samples(chosen);
        QCOMPARE(samples.size(), std::size_t{20});
        QCOMPARE(samples[3].features, profiled.kernels[chosen[3]].features);
    }

    void scoresLeaveTheChosenKernelsOut() {
        const auto profiled = ProfiledKernels::of(sample().runs);
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        const auto predictor = train_predictor(sample().all(), options);
        std::vector<fusion::KernelGraph> graphs;
        for (const auto& r : sample().runs)
            graphs.push_back(fusion::detect_kernels(*r.model, fusion::find_fusion_method("ort-cpu")));
        const auto all = score_on_runs(predictor, profiled, {}, sample().all(), graphs);
        QCOMPARE(static_cast<std::size_t>(all.kernels.count), profiled.candidates.size());
        QCOMPARE(all.e2e.count, 5);
        QCOMPARE(all.e2e_errors.size(), std::size_t{5});
        QVERIFY(all.kernels.mape > 0 && all.e2e.mape > 0);
        // The kernels chosen are not scored, each occurrence of them.
        const auto chosen = profiled.choose_by_kmeans(10, 1);
        std::size_t occurrences = 0;
        for (const int id : chosen)
            occurrences += profiled.kernels[id].us.size();
        const auto rest = score_on_runs(predictor, profiled, chosen, sample().all(), graphs);
        QCOMPARE(static_cast<std::size_t>(rest.kernels.count),
                 profiled.candidates.size() - occurrences);
        QCOMPARE(rest.e2e.mape, all.e2e.mape);
    }

    void batchedPredictionsAreThoseOneByOne() {
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        const auto predictor = train_predictor(sample().all(), options);
        std::vector<std::vector<double>> features;
        std::vector<std::string> classes;
        for (const auto& s : sample().runs.front().samples) {
            features.push_back(s.features);
            classes.push_back(s.model_class);
        }
        const auto batch = predict_features(predictor, features, classes);
        for (std::size_t i = 0; i < features.size(); ++i)
            QCOMPARE(batch[i].us, predict_features(predictor, features[i], classes[i]).us);
    }
};

QTEST_GUILESS_MAIN(ProfiledKernelsTest)
#include "profiled_kernels_test.moc"
