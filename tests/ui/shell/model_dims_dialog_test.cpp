// File > Model Dims…: the dialog takes the bindings as one line and refuses what does not parse;
// a decoder that failed to open for want of its token counts opens with them, and a project made
// of it keeps them.
#include "../studio_waits.hpp"
#include "tests/core/graph/tiny_decoder.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/model_dims_dialog.hpp"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using cleave::graph::DimBindings;
using cleave::ui::MainWindow;
using cleave::ui::ModelDimsDialog;

namespace {

QAction* menuAction(MainWindow& window, const QString& text) {
    for (auto* action : window.menuBar()->findChildren<QAction*>())
        if (action->text() == text)
            return action;
    return nullptr;
}

} // namespace

class ModelDimsDialogTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsTheBindingsItStartsWith() {
        DimBindings current;
        current.decode = 1024;
        current.names["s0"] = 2;
        ModelDimsDialog dialog("decoder.onnx", current);
        QCOMPARE(dialog.dimsEdit()->text(), QString("decode=1024 s0=2"));
        QVERIFY(dialog.windowTitle().contains("decoder.onnx"));
        QCOMPARE(dialog.bindings(), current);
    }

    void acceptsWhatParses() {
        ModelDimsDialog dialog("decoder.onnx", {});
        dialog.dimsEdit()->setText("prefill=512, batch=2");
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        DimBindings expected;
        expected.prefill = 512;
        expected.batch = 2;
        QCOMPARE(dialog.bindings(), expected);
    }

    void staysOpenSayingWhyForWhatDoesNot() {
        ModelDimsDialog dialog("decoder.onnx", {});
        dialog.show();
        dialog.dimsEdit()->setText("prefill=0");
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QVERIFY(!dialog.problemLabel()->isHidden());
        QCOMPARE(dialog.problemLabel()->text(),
                 QString("--prefill: 0: a prefill reads at least one new token; expected a whole "
                         "number >= 1"));
        QVERIFY(dialog.bindings().empty());
    }

    void aDecoderOpensWithTheDimsGiven() {
        QTemporaryDir dir;
        const QString path = dir.filePath("decoder.onnx");
        std::ofstream(path.toStdString(), std::ios::binary)
            << cleave::test::TinyDecoder::build().SerializeAsString();
        MainWindow window;
        auto* dims = menuAction(window, "Model &Dims…");
        QVERIFY(dims);
        QVERIFY(!dims->isEnabled()); // no model asked for yet

        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openFile(path);
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.front().at(1).toString().contains("new-token count is not bound"));
        QVERIFY(dims->isEnabled());

        dims->trigger();
        auto* dialog = window.findChild<ModelDimsDialog*>();
        QVERIFY(dialog);
        dialog->dimsEdit()->setText("decode=1024 batch=1");
        QSignalSpy shown(&window, &MainWindow::modelShown);
        dialog->accept();
        QVERIFY(shown.wait(30000));
        const auto& model = *window.model();
        QVERIFY(model.warnings.empty());
        QCOMPARE(model.macs, std::int64_t(33440)); // 640 + 32 x 1025 (tiny_decoder.hpp)
        const int present = model.find_tensor("present.0.key");
        QCOMPARE(model.tensors[present].shape, std::optional(cleave::graph::Shape{1, 2, 1025, 4}));
        DimBindings expected;
        expected.decode = 1024;
        expected.batch = 1;
        QCOMPARE(window.document()->dimBindings(), expected);
        QCOMPARE(window.document()->snapshot().dims, expected);

        // The prediction says what it costs: one decode step at its context, tokens per second.
        QVERIFY(cleave::test::predictOn(*window.document(), "jetson-orin-nano"));
        const QString headline = window.breakdownDock()->headline();
        QVERIFY2(headline.contains("decode of 1 token at context 1025 (batch 1)"),
                 qPrintable(headline));
        QVERIFY2(headline.contains("tokens/s"), qPrintable(headline));
    }
};

QTEST_MAIN(ModelDimsDialogTest)
#include "model_dims_dialog_test.moc"
