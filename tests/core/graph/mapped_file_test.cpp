// A model file's bytes, mapped read-only: what was written reads back byte for byte, and a
// missing file, a folder, an empty file or a device is refused naming the path.
#include "core/graph/mapped_file.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using cleave::InputError;
using cleave::graph::MappedFile;

namespace {

// What mapping `path` throws, as "file | place | problem"; "no error" without one.
std::string error_of(const std::filesystem::path& path) {
    try {
        const MappedFile file(path);
    } catch (const InputError& e) {
        return e.file() + " | " + e.place() + " | " + e.problem();
    }
    return "no error";
}

} // namespace

class MappedFileTest : public QObject {
    Q_OBJECT

private slots:
    void writtenBytesReadBack() {
        QTemporaryDir dir;
        const auto path = dir.filePath("model.onnx").toStdString();
        std::string written(70000, '\0');
        for (std::size_t i = 0; i < written.size(); ++i)
            written[i] = static_cast<char>((i * 37 + 11) % 251);
        std::ofstream(path, std::ios::binary) << written;
        const MappedFile file(path);
        const auto bytes = file.bytes();
        QCOMPARE(bytes.size(), written.size());
        QVERIFY(
            std::equal(bytes.begin(), bytes.end(), written.begin(), written.end(),
                       [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); }));
    }

    void bytesNotFromAFileAreHeld() {
        std::vector<std::uint8_t> given{1, 2, 3, 250};
        const MappedFile file(given);
        given[0] = 9; // the file holds its own copy
        QCOMPARE(file.bytes().size(), std::size_t{4});
        QCOMPARE(file.bytes()[0], std::uint8_t{1});
        QCOMPARE(file.bytes()[3], std::uint8_t{250});
    }

    void missingFileIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("absent.onnx").toStdString();
        QCOMPARE(error_of(path), path + " |  | no such file; expected an ONNX model file");
    }

    void folderIsRefused() {
        QTemporaryDir dir;
        QCOMPARE(error_of(dir.path().toStdString()),
                 dir.path().toStdString() + " |  | is a directory; expected an ONNX model file");
    }

    void emptyFileIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("empty.onnx").toStdString();
        std::ofstream{path};
        QCOMPARE(error_of(path),
                 path + " |  | the file is empty (0 bytes); expected an ONNX model");
    }

    void deviceIsNotARegularFile() {
        QCOMPARE(error_of("/dev/null"),
                 std::string("/dev/null |  | not a regular file; expected an ONNX model file"));
    }
};

QTEST_GUILESS_MAIN(MappedFileTest)
#include "mapped_file_test.moc"
