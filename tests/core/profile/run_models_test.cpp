// The model behind each measured run, found by its name in the models' folder in any form the
// folder holds it (the repository's examples are .onnx.xz only), and missing ones remembered.
#include "core/profile/run_models.hpp"

#include <QtTest>

using namespace cleave;

namespace {

profile::MeasuredRun run_of(const std::string& model) {
    profile::MeasuredRun run;
    run.model = model;
    run.input_shape = {1, 3, 224, 224};
    return run;
}

} // namespace

class RunModelsTest : public QObject {
    Q_OBJECT

private slots:
    void aRunsModelIsFoundCompressed() {
        profile::RunModels models(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR, false);
        const graph::Model* model = models.find(run_of("resnet18"));
        QVERIFY(model);
        QCOMPARE(model->file, std::string(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx.xz");
        QCOMPARE(model->nodes.size(), std::size_t{69});
        QVERIFY(models.missing().empty());
    }

    void aRunWhoseModelIsInNoFormIsRemembered() {
        profile::RunModels models(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR, false);
        QVERIFY(!models.find(run_of("lenet")));
        QVERIFY(!models.find(run_of("lenet")));
        QCOMPARE(models.missing(), std::vector<std::string>{"lenet"});
    }
};

QTEST_APPLESS_MAIN(RunModelsTest)
#include "run_models_test.moc"
