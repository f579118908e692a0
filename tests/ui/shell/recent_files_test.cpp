// Recent files: newest first, no duplicates, at most ten, and files that vanished drop out.
#include "ui/shell/recent_files.hpp"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using cleave::ui::RecentFiles;

namespace {
QString touch(const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write("x");
    return path;
}
} // namespace

class RecentFilesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("CleaveTest");
    }

    void init() { QSettings().clear(); }

    void newestComesFirstAndOnlyOnce() {
        QTemporaryDir dir;
        const QString a = touch(dir, "a.onnx");
        const QString b = touch(dir, "b.onnx");
        RecentFiles recent;
        recent.add(a);
        recent.add(b);
        recent.add(a);
        QCOMPARE(recent.files(), (QStringList{a, b}));
    }

    void keepsAtMostTen() {
        QTemporaryDir dir;
        RecentFiles recent;
        for (int i = 0; i < 12; ++i)
            recent.add(touch(dir, QString("m%1.onnx").arg(i)));
        QCOMPARE(recent.files().size(), RecentFiles::kMaxFiles);
        QCOMPARE(recent.files().first(), dir.filePath("m11.onnx"));
        QCOMPARE(recent.files().last(), dir.filePath("m2.onnx"));
    }

    void vanishedFilesDropOut() {
        QTemporaryDir dir;
        const QString kept = touch(dir, "kept.onnx");
        const QString gone = touch(dir, "gone.onnx");
        RecentFiles recent;
        recent.add(kept);
        recent.add(gone);
        QVERIFY(QFile::remove(gone));
        QCOMPARE(recent.files(), QStringList{kept});
    }

    void listOutlivesTheObject() {
        QTemporaryDir dir;
        const QString path = touch(dir, "a.onnx");
        RecentFiles().add(path);
        QCOMPARE(RecentFiles().files(), QStringList{path});
    }

    void changesAreAnnounced() {
        QTemporaryDir dir;
        RecentFiles recent;
        QSignalSpy changed(&recent, &RecentFiles::changed);
        recent.add(touch(dir, "a.onnx"));
        recent.clear();
        QCOMPARE(changed.count(), 2);
        QVERIFY(recent.files().isEmpty());
    }
};

QTEST_MAIN(RecentFilesTest)
#include "recent_files_test.moc"
