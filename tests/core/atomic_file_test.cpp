// Writing a user's file never leaves it half-written, and checking first leaves no trace.
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

class AtomicFileTest : public QObject {
    Q_OBJECT

private slots:
    void writesNewFile() {
        QTemporaryDir dir;
        const auto path = dir.filePath("out.json").toStdString();
        cleave::write_file_atomically(path, "{}\n");
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{}\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void replacesAndKeepsMode() {
        QTemporaryDir dir;
        const auto path = dir.filePath("out.txt").toStdString();
        cleave::write_file_atomically(path, "old contents that are longer");
        ::chmod(path.c_str(), 0600);
        cleave::write_file_atomically(path, "new");
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("new"));
        struct stat info {};
        QCOMPARE(::stat(path.c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
    }

    void missingFolderIsAnInputError() {
        QVERIFY_THROWS_EXCEPTION(cleave::InputError, cleave::write_file_atomically(
                                                         "/nonexistent-folder/out.json", "{}"));
        QVERIFY_THROWS_EXCEPTION(cleave::InputError,
                                 cleave::check_file_can_be_written("/nonexistent-folder/out.json"));
    }

    // The check before the work leaves the folder as it was, an existing file included.
    void checkingAFolderLeavesNothingBehind() {
        QTemporaryDir dir;
        const auto path = dir.filePath("out.json").toStdString();
        cleave::check_file_can_be_written(path);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
        cleave::write_file_atomically(path, "kept");
        cleave::check_file_can_be_written(path);
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("kept"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }
};

QTEST_GUILESS_MAIN(AtomicFileTest)
#include "atomic_file_test.moc"
