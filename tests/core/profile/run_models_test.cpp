// The ONNX model behind each measured run, from the data's models folder: loaded once per model
// and input size, at the export size unless every size was asked for, found in any form the
// folder holds it (the repository's examples are .onnx.xz only), and a missing file remembered
// rather than fatal.
#include "../graph/onnx_builder.hpp"
#include "core/input_error.hpp"
#include "core/profile/run_models.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace cleave;
using namespace cleave::profile;
using cleave::test::OnnxBuilder;

namespace {

// x [1, 3, 8, 8] -> Relu -> GlobalAveragePool -> y, saved as <folder>/tiny.onnx.
void save_tiny(const QTemporaryDir& dir) {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("GlobalAveragePool", {"r"}, {"y"}, "pool");
    b.output("y");
    b.save(dir.filePath("tiny.onnx").toStdString());
}

MeasuredRun run_of(const std::string& model, std::vector<std::int64_t> shape) {
    MeasuredRun run;
    run.model = model;
    run.input_shape = std::move(shape);
    return run;
}

graph::Shape input_shape(const graph::Model& m) {
    return m.tensors[static_cast<std::size_t>(m.inputs[0])].shape.value_or(graph::Shape{});
}

} // namespace

class RunModelsTest : public QObject {
    Q_OBJECT

private slots:
    void aRunAtTheExportSizeGetsItsModelOnce() {
        QTemporaryDir dir;
        save_tiny(dir);
        RunModels models(dir.path().toStdString(), false);
        const auto* model = models.find(run_of("tiny", {1, 3, 8, 8}));
        QVERIFY(model);
        QCOMPARE(model->nodes.size(), std::size_t{2});
        QCOMPARE(input_shape(*model), (graph::Shape{1, 3, 8, 8}));
        QCOMPARE(models.find(run_of("tiny", {1, 3, 8, 8})), model);
        QVERIFY(models.missing().empty());
    }

    void otherSizesOnlyWhenAskedFor() {
        QTemporaryDir dir;
        save_tiny(dir);
        RunModels export_only(dir.path().toStdString(), false);
        QVERIFY(!export_only.find(run_of("tiny", {1, 3, 16, 16})));
        QVERIFY(export_only.find(run_of("tiny", {1, 3, 8, 8})));
        QVERIFY(!export_only.find(run_of("tiny", {2, 3, 8, 8})));
        QVERIFY(export_only.missing().empty()); // another size is not a missing file

        RunModels all(dir.path().toStdString(), true);
        const auto* big = all.find(run_of("tiny", {1, 3, 16, 16}));
        const auto* small = all.find(run_of("tiny", {1, 3, 8, 8}));
        QVERIFY(big && small && big != small);
        QCOMPARE(input_shape(*big), (graph::Shape{1, 3, 16, 16}));
        QCOMPARE(input_shape(*small), (graph::Shape{1, 3, 8, 8}));
        const int r = big->find_tensor("r");
        QCOMPARE(big->tensors[static_cast<std::size_t>(r)].shape.value_or(graph::Shape{}),
                 (graph::Shape{1, 3, 16, 16})); // inferred again at that size
    }

    void aMissingFileIsRememberedOnce() {
        QTemporaryDir dir;
        save_tiny(dir);
        RunModels models(dir.path().toStdString(), true);
        QVERIFY(!models.find(run_of("resnet18", {1, 3, 224, 224})));
        QVERIFY(!models.find(run_of("resnet18", {1, 3, 112, 112})));
        QVERIFY(!models.find(run_of("vgg11", {1, 3, 224, 224})));
        QCOMPARE(models.missing(), (std::vector<std::string>{"resnet18", "vgg11"}));
    }

    void aRunsModelIsFoundCompressed() {
        RunModels models(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR, false);
        const graph::Model* model = models.find(run_of("resnet18", {1, 3, 224, 224}));
        QVERIFY(model);
        QCOMPARE(model->file, std::string(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx.xz");
        QCOMPARE(model->nodes.size(), std::size_t{69});
        QVERIFY(models.missing().empty());
    }

    void aRunWhoseModelIsInNoFormIsRemembered() {
        RunModels models(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR, false);
        QVERIFY(!models.find(run_of("lenet", {1, 3, 224, 224})));
        QVERIFY(!models.find(run_of("lenet", {1, 3, 224, 224})));
        QCOMPARE(models.missing(), std::vector<std::string>{"lenet"});
    }

    void aFolderIsNeeded() {
        QTemporaryDir dir;
        const auto file = dir.filePath("tiny.onnx").toStdString();
        save_tiny(dir);
        try {
            RunModels models(file, false);
            QFAIL("took a file for the models folder");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), file);
            QCOMPARE(e.place(), std::string("--models"));
            QCOMPARE(e.problem(),
                     std::string("not a folder; expected the folder holding the data's models"));
        }
    }
};

QTEST_GUILESS_MAIN(RunModelsTest)
#include "run_models_test.moc"
