// A temporary folder is private, named for its purpose, and gone with all it holds when its
// owner goes, also when the owner leaves through an exception.
#include "core/temporary_folder.hpp"

#include <QtTest>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>

using namespace cleave;

class TemporaryFolderTest : public QObject {
    Q_OBJECT

private slots:
    void itIsPrivateAndNamedForItsPurpose() {
        const TemporaryFolder folder("cleave-test");
        QVERIFY(std::filesystem::is_directory(folder.path()));
        QVERIFY(folder.path().filename().string().starts_with("cleave-test-"));
        struct stat info {};
        QCOMPARE(::stat(folder.path().c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0700u);
    }

    void itGoesWithEverythingInIt() {
        std::filesystem::path kept;
        {
            const TemporaryFolder folder("cleave-test");
            kept = folder.path();
            std::filesystem::create_directories(kept / "models");
            std::ofstream(kept / "models" / "a.onnx") << "bytes";
        }
        QVERIFY(!std::filesystem::exists(kept));
    }

    void itGoesWhenWorkFails() {
        std::filesystem::path kept;
        try {
            const TemporaryFolder folder("cleave-test");
            kept = folder.path();
            throw std::runtime_error("measuring failed");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(!kept.empty());
        QVERIFY(!std::filesystem::exists(kept));
    }
};

QTEST_APPLESS_MAIN(TemporaryFolderTest)
#include "temporary_folder_test.moc"
