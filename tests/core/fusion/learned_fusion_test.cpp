// The learned fusion classifier: trained on four CNNs of the measured sample
// (tests/data/ort-cpu-xeon-sample.json) it scores the fifth, with message passing it fits all
// five, and the model file's round trip and its errors. Its training is fusion_training_test's.
#include "../measured_sample.hpp"
#include "core/atomic_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/fusion/fusion_score.hpp"
#include "core/fusion/fusion_training.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;
using namespace cleave::fusion;

namespace {

// The sample's runs with their example models, kept alive for the examples' pointers.
struct Sample : cleave::test::MeasuredSample {
    std::vector<FusionExample> examples(const std::string& except = "") const {
        std::vector<FusionExample> out;
        for (std::size_t i = 0; i < data.runs.size(); ++i)
            if (data.runs[i].model != except)
                out.push_back({data.runs[i].model, &models[i], &data.runs[i]});
        return out;
    }
    std::size_t index(const std::string& model) const {
        for (std::size_t i = 0; i < data.runs.size(); ++i)
            if (data.runs[i].model == model)
                return i;
        return data.runs.size();
    }
};

void write(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class LearnedFusionTest : public QObject {
    Q_OBJECT

private slots:
    void heldOutSqueezeNetIsPredictedFromFourOtherFamilies() {
        // Trained on resnet18, densenet121, mobilenet_v2 and efficientnet_b0 only.
        const Sample sample;
        FusionTrainingOptions options;
        options.epochs = 200;
        const auto learned = train_learned_fusion(sample.examples("squeezenet1_1"), options);
        const auto i = sample.index("squeezenet1_1");
        const auto kernels = fuse_learned(sample.models[i], learned);
        const auto score = score_fusion(sample.models[i], kernels, sample.data.runs[i]);
        QCOMPARE(score.edges(), 72);
        QVERIFY2(score.accuracy() >= 0.99, qPrintable(QString::number(score.accuracy())));
        QCOMPARE(score.kernels_measured, 39);
        QVERIFY(std::abs(score.kernels_predicted - 39) <= 1);
    }

    void messagePassingLayerTrainsToo() {
        const Sample sample;
        FusionTrainingOptions options;
        options.epochs = 100;
        options.node_hidden = 8;
        const auto learned = train_learned_fusion(sample.examples(), options);
        QCOMPARE(learned.node_hidden(), 8);
        FusionScore fit;
        for (std::size_t i = 0; i < sample.models.size(); ++i)
            fit += score_fusion(sample.models[i], fuse_learned(sample.models[i], learned),
                                sample.data.runs[i]);
        QVERIFY2(fit.accuracy() >= 0.99, qPrintable(QString::number(fit.accuracy())));
    }

    void savedModelPredictsExactlyTheSame() {
        const Sample sample;
        FusionTrainingOptions options;
        options.epochs = 20;
        const auto learned = train_learned_fusion(sample.examples(), options);
        QTemporaryDir dir;
        const auto path = dir.filePath("ort.fusion.json").toStdString();
        save_learned_fusion(learned, path);
        const auto method = find_fusion_method("learned:" + path);
        QCOMPARE(method.name, "learned:" + path);
        const auto& loaded = std::get<LearnedFusion>(method.how);
        QCOMPARE(loaded.ops, learned.ops);
        QCOMPARE(loaded.trained_on.size(), std::size_t{5});
        const auto& model = sample.models[sample.index("mobilenet_v2")];
        const auto edges = node_edges(model);
        QVERIFY(fused_probabilities(model, edges, loaded) ==
                fused_probabilities(model, edges, learned));
    }

    void modelFileErrorsNameThePlace() {
        const Sample sample;
        FusionTrainingOptions options;
        options.epochs = 1;
        const auto learned = train_learned_fusion(sample.examples("densenet121"), options);
        QTemporaryDir dir;
        const auto good = dir.filePath("good.json");
        save_learned_fusion(learned, good.toStdString());
        std::ifstream in(good.toStdString());
        const std::string text((std::istreambuf_iterator<char>(in)), {});

        const auto expect = [&](const std::string& content, const std::string& place) {
            const auto path = dir.filePath("bad.json");
            write(path, content);
            try {
                load_learned_fusion(path.toStdString());
                QFAIL("accepted a bad model file");
            } catch (const InputError& e) {
                QCOMPARE(e.file(), path.toStdString());
                QCOMPARE(e.place(), place);
            }
        };
        expect("{\"format\": \"cleave-fusion-rules\"}", "/format");
        expect(text.substr(0, text.size() / 2), "byte " + std::to_string(text.size() / 2 + 1));
        auto doc = nlohmann::json::parse(text);
        doc["weights"]["w_out"]["values"][0] = "x";
        expect(doc.dump(), "/weights/w_out/values/0");
        doc = nlohmann::json::parse(text);
        doc["ops"].push_back("NewOp"); // the weights no longer fit the vocabulary
        expect(doc.dump(), "/weights/w_self");
        QVERIFY_THROWS_EXCEPTION(InputError, find_fusion_method("learned:"));
        QVERIFY_THROWS_EXCEPTION(
            InputError, find_fusion_method("learned:" + dir.filePath("none").toStdString()));
    }
};

QTEST_GUILESS_MAIN(LearnedFusionTest)
#include "learned_fusion_test.moc"
