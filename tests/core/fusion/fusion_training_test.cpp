// Training the learned fusion classifier: the loss at known logits, its gradients against finite
// differences, training on the measured sample (tests/data/ort-cpu-xeon-sample.json) lowering it,
// what a trained classifier records, and launches read from kernels that cover no node.
#include "../measured_sample.hpp"
#include "core/fusion/fusion_training.hpp"
#include "core/graph/onnx_import.hpp"
#include "fusion_fixtures.hpp"

#include <QtTest>
#include <cmath>
#include <stdexcept>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;
using cleave::test::small_fusion_model;

namespace {

// The sample's runs as training examples, with their example models.
struct Sample : cleave::test::MeasuredSample {
    std::vector<FusionExample> examples() const {
        std::vector<FusionExample> out;
        for (std::size_t i = 0; i < data.runs.size(); ++i)
            out.push_back({data.runs[i].model, &models[i], &data.runs[i]});
        return out;
    }
};

// ONNX Runtime's kernels for the small model: FusedConv over conv and relu, the Add, and the
// HardSwish run as HardSigmoid (covering nothing) then Mul (covering it).
profile::MeasuredRun small_run() {
    profile::MeasuredRun run;
    run.model = "small";
    for (const auto& [op, covers] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"FusedConv", {"conv", "relu"}},
             {"Add", {"add"}},
             {"HardSigmoid", {}},
             {"Mul", {"hs"}}})
        run.kernels.push_back({op, op, "", covers, std::nullopt});
    return run;
}

} // namespace

class FusionTrainingTest : public QObject {
    Q_OBJECT

private slots:
    void lossIsTheMeanCrossEntropyOfTheLogits() {
        const auto model = small_fusion_model();
        const auto edges = node_edges(model);
        auto learned = initial_learned_fusion({"Conv", "Relu", "Add"}, 0, 6, 7);
        learned.w_out.setZero(); // every edge scores the output bias alone
        const auto features = fusion_features(model, edges, learned.ops);
        Eigen::VectorXd fused(4);
        fused << 1, 0, 1, 0;
        learned.b_out.setConstant(0);
        QCOMPARE(fusion_loss(learned, features, fused, nullptr), std::log(2.0));
        learned.b_out.setConstant(2);
        std::vector<Matrix> gradients;
        // log(1 + e^2) - 2 y, averaged over y = 1, 0, 1, 0.
        QCOMPARE(fusion_loss(learned, features, fused, &gradients), std::log1p(std::exp(2.0)) - 1);
        QCOMPARE(gradients.size(), std::size_t{8});
        // d/db_out: the mean of sigmoid(2) - y.
        QCOMPARE(gradients[7](0, 0), 1 / (1 + std::exp(-2.0)) - 0.5);
        fused << 1, 1, 1, 1;
        QCOMPARE(fusion_loss(learned, features, fused, nullptr), std::log1p(std::exp(-2.0)));
    }

    void gradientsMatchFiniteDifferences() {
        const auto model = small_fusion_model();
        const auto edges = node_edges(model);
        QCOMPARE(edges.size(), std::size_t{4});
        auto learned = initial_learned_fusion({"Conv", "Relu", "Add"}, 5, 6, 7);
        learned.b_edge.setConstant(0.3); // keep every relu unit active at the start
        const auto features = fusion_features(model, edges, learned.ops);
        Eigen::VectorXd fused(4);
        fused << 1, 0, 1, 0;
        std::vector<Matrix> gradients;
        fusion_loss(learned, features, fused, &gradients);
        const auto parameters = learned.parameters();
        double worst = 0.0;
        int checked = 0;
        for (std::size_t p = 0; p < parameters.size(); ++p) {
            Matrix& m = *parameters[p];
            for (Eigen::Index i = 0; i < m.size(); i += 7) {
                const double kept = m.data()[i];
                m.data()[i] = kept + 1e-6;
                const double up = fusion_loss(learned, features, fused, nullptr);
                m.data()[i] = kept - 1e-6;
                const double down = fusion_loss(learned, features, fused, nullptr);
                m.data()[i] = kept;
                const double numeric = (up - down) / 2e-6;
                worst = std::max(worst, std::abs(numeric - gradients[p].data()[i]));
                ++checked;
            }
        }
        QVERIFY(checked > 50);
        QVERIFY2(worst < 1e-7, qPrintable(QString("largest gradient error %1").arg(worst)));
    }

    void trainingLowersTheLoss() {
        const Sample sample;
        FusionTrainingOptions options;
        options.epochs = 40;
        const auto losses = train_learned_fusion(sample.examples(), options).losses;
        QCOMPARE(losses.size(), std::size_t{40});
        QVERIFY(losses.back() < 0.25 * losses.front());
    }

    void aTrainedClassifierRecordsWhatItWasTrainedOn() {
        const auto model = small_fusion_model();
        const auto run = small_run();
        FusionTrainingOptions options;
        options.epochs = 0;
        options.node_hidden = 3;
        options.edge_hidden = 5;
        const auto learned = train_learned_fusion({{"small", &model, &run}}, options);
        QCOMPARE(learned.ops, (std::vector<std::string>{"Add", "Conv", "HardSwish", "Relu"}));
        QCOMPARE(learned.trained_on, std::vector<std::string>{"small"});
        QCOMPARE(learned.node_hidden(), 3);
        QCOMPARE(learned.edge_hidden(), 5);
        QCOMPARE(learned.launches.at("HardSwish"), 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, train_learned_fusion({}, options));
    }

    void launchesAreReadFromKernelsThatCoverNoNode() {
        // ONNX Runtime runs HardSwish as HardSigmoid (covering nothing) then Mul (covering it).
        const auto model = small_fusion_model();
        profile::MeasuredRun run;
        run.model = "small";
        for (const auto& [op, covers] :
             std::vector<std::pair<std::string, std::vector<std::string>>>{
                 {"FusedConv", {"conv", "relu"}},
                 {"Add", {"add"}},
                 {"HardSigmoid", {}},
                 {"Mul", {"hs"}}})
            run.kernels.push_back({op, op, "", covers, std::nullopt});
        const auto launches = measured_launches({{"small", &model, &run}});
        QCOMPARE(launches.size(), std::size_t{1});
        QCOMPARE(launches.at("HardSwish"), 2);
    }
};

QTEST_GUILESS_MAIN(FusionTrainingTest)
#include "fusion_training_test.moc"
