// Files that once crashed, hung or ended in an internal error (tests/data/regressions, named
// KIND-WHAT.EXT): each is now read, or refused with an InputError naming it.
#include "core/input_error.hpp"
#include "user_file_readers.hpp"

#include <QDir>
#include <QtTest>

class UserFileRegressionsTest : public QObject {
    Q_OBJECT

private slots:
    void everyFormerFailureIsReadOrRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("path");
        const QDir dir(CLEAVE_REGRESSIONS_DIR);
        const auto files = dir.entryList(QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const auto& f : files) {
            const auto kind = cleave::test::kind_of_file(f.toStdString());
            if (!kind.empty())
                QTest::newRow(qPrintable(f)) << QString::fromStdString(kind) << dir.filePath(f);
        }
    }
    void everyFormerFailureIsReadOrRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, path);
        const auto fixtures = cleave::test::fixtures_for(
            kind.toStdString(), CLEAVE_EXAMPLE_MODELS_DIR, CLEAVE_SOURCE_DIR "/examples/clusters");
        try {
            cleave::test::read_user_file(kind.toStdString(), path.toStdString(), fixtures);
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(path + ": "), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(UserFileRegressionsTest)
#include "user_file_regressions_test.moc"
