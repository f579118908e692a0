// Inputs the importer's fuzzer once crashed on (tests/fuzz/regressions): each must now load or
// be refused with an InputError.
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QDir>
#include <QtTest>

class FuzzRegressionsTest : public QObject {
    Q_OBJECT

private slots:
    void everyFormerCrashLoadsOrIsRefused_data() {
        QTest::addColumn<QString>("path");
        const QDir dir(CLEAVE_FUZZ_REGRESSIONS_DIR);
        const auto files = dir.entryList({"*.onnx"}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const auto& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void everyFormerCrashLoadsOrIsRefused() {
        QFETCH(QString, path);
        try {
            cleave::graph::load_model(path.toStdString());
        } catch (const cleave::InputError& e) {
            QVERIFY(QString(e.what()).startsWith(path + ": "));
        }
    }
};

QTEST_GUILESS_MAIN(FuzzRegressionsTest)
#include "fuzz_regressions_test.moc"
