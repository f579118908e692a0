// A model file's bytes: a plain file is mapped as it is, a compressed one (.onnx.xz, .onnx.gz,
// or a plain name over compressed bytes) is unpacked, and a damaged compressed file is refused
// with a message naming the file and what it is not; what was written reads back byte for byte,
// and a missing file, a folder, an empty file or a device is refused naming the path.
#include "../gzip_stream.hpp"
#include "core/graph/mapped_file.hpp"
#include "core/input_error.hpp"
#include "core/xz_codec.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using cleave::InputError;
using cleave::graph::MappedFile;

namespace {

const std::string kBytes = std::string("\x08\x08\x12\x0c", 4) + std::string(20000, 'w');

std::string written(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string text(const MappedFile& file) {
    return {reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size()};
}

std::string packed(const std::string& format, const std::string& bytes) {
    return format == "xz" ? cleave::xz_compress(bytes) : cleave::test::gzip(bytes);
}

// The InputError reading `path` throws, as the CLI prints it; empty when none.
QString error_of(const std::string& path) {
    try {
        MappedFile file(path);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

// What mapping `path` throws, as "file | place | problem"; "no error" without one.
std::string error_parts(const std::filesystem::path& path) {
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
    void aPlainFileIsMappedAsItIs() {
        QTemporaryDir dir;
        const MappedFile file(written(dir, "m.onnx", kBytes));
        QCOMPARE(text(file), kBytes);
        QVERIFY(!file.unpacked());
    }

    void aCompressedFileIsUnpacked_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("name");
        QTest::newRow("xz") << "xz"
                            << "m.onnx.xz";
        QTest::newRow("gzip") << "gz"
                              << "m.onnx.gz";
        QTest::newRow("xz under a plain name") << "xz"
                                               << "m.onnx";
        QTest::newRow("gzip under a plain name") << "gz"
                                                 << "m.onnx";
    }
    void aCompressedFileIsUnpacked() {
        QFETCH(QString, format);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const MappedFile file(
            written(dir, name.toStdString(), packed(format.toStdString(), kBytes)));
        QCOMPARE(text(file), kBytes);
        QVERIFY(file.unpacked());
    }

    void aDamagedCompressedFileIsNamedWithItsFormat_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem");
        const std::string xz = cleave::xz_compress(kBytes);
        const std::string gz = cleave::test::gzip(kBytes);
        QTest::newRow("truncated xz")
            << "cut.onnx.xz" << QByteArray::fromStdString(xz.substr(0, xz.size() / 2))
            << "not valid xz: the stream is corrupt or truncated; expected an ONNX model "
               "compressed with xz";
        QTest::newRow("truncated gzip")
            << "cut.onnx.gz" << QByteArray::fromStdString(gz.substr(0, gz.size() / 2))
            << "not valid gzip: the stream is truncated; expected an ONNX model compressed "
               "with gzip";
        QTest::newRow("plain bytes named .xz")
            << "plain.onnx.xz" << QByteArray::fromStdString(kBytes)
            << "not valid xz: the file does not start with xz's magic bytes (fd 37 7a 58 5a "
               "00); expected an ONNX model compressed with xz";
        QTest::newRow("xz named .gz")
            << "xz.onnx.gz" << QByteArray::fromStdString(xz)
            << "not valid gzip: the file does not start with gzip's magic bytes (1f 8b); "
               "expected an ONNX model compressed with gzip";
    }
    void aDamagedCompressedFileIsNamedWithItsFormat() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const std::string path = written(dir, name.toStdString(), bytes.toStdString());
        const QString message = error_of(path);
        QVERIFY2(message.startsWith(QString::fromStdString(path) + ": byte ") &&
                     message.endsWith(": " + problem),
                 qPrintable(message));
    }

    void aMissingFileNamesTheSameModelInAnotherForm() {
        QTemporaryDir dir;
        const std::string packed = written(dir, "m.onnx.xz", cleave::xz_compress(kBytes));
        const std::string plain = dir.filePath("m.onnx").toStdString();
        QCOMPARE(error_of(plain),
                 QString::fromStdString(plain + ": no such file; expected an ONNX model file (" +
                                        packed + " is there)"));
    }

    void aCompressedEmptyFileIsRefused() {
        QTemporaryDir dir;
        const std::string path = written(dir, "empty.onnx.xz", cleave::xz_compress(""));
        QCOMPARE(error_of(path), QString::fromStdString(path) +
                                     ": unpacks to nothing (0 bytes); expected an ONNX model");
    }

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
        QCOMPARE(error_parts(path), path + " |  | no such file; expected an ONNX model file");
    }

    void folderIsRefused() {
        QTemporaryDir dir;
        QCOMPARE(error_parts(dir.path().toStdString()),
                 dir.path().toStdString() + " |  | is a directory; expected an ONNX model file");
    }

    void emptyFileIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("empty.onnx").toStdString();
        std::ofstream{path};
        QCOMPARE(error_parts(path),
                 path + " |  | the file is empty (0 bytes); expected an ONNX model");
    }

    void deviceIsNotARegularFile() {
        QCOMPARE(error_parts("/dev/null"),
                 std::string("/dev/null |  | not a regular file; expected an ONNX model file"));
    }
};

QTEST_APPLESS_MAIN(MappedFileTest)
#include "mapped_file_test.moc"
