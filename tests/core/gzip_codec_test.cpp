// gzip streams in memory: what gzip wrote comes back byte for byte, members written one after
// another come back as one, and bytes that are not gzip, or a damaged stream, are an error that
// names the file and the byte.
#include "core/gzip_codec.hpp"
#include "core/input_error.hpp"
#include "gzip_stream.hpp"

#include <QtTest>
#include <string>

using namespace cleave;

namespace {

std::string lines(int count) {
    std::string text;
    for (int i = 0; i < count; ++i)
        text += "{\"kernel\": " + std::to_string(i) + "}\n";
    return text;
}

// The InputError `decompress` throws, or a failed test.
InputError error_of(const std::string& bytes, const std::string& file) {
    try {
        gzip_decompress(bytes, file, "an ONNX model compressed with gzip");
    } catch (const InputError& e) {
        return e;
    }
    throw std::runtime_error("the bytes were accepted");
}

} // namespace

class GzipCodecTest : public QObject {
    Q_OBJECT

private slots:
    void compressedBytesComeBackWhole() {
        const std::string text = lines(5000);
        const std::string packed = test::gzip(text);
        QVERIFY(is_gzip(packed));
        QVERIFY(!is_gzip(text));
        QCOMPARE(gzip_decompress(packed, "m.onnx.gz", "a model"), text);
    }

    void membersOneAfterAnotherComeBackAsOne() {
        const std::string a = lines(100);
        const std::string b = lines(7);
        QCOMPARE(gzip_decompress(test::gzip(a) + test::gzip(b), "ab.gz", "a model"), a + b);
    }

    void aTruncatedStreamNamesTheFileAndTheByte() {
        const std::string packed = test::gzip(lines(2000));
        const InputError e = error_of(packed.substr(0, packed.size() / 2), "cut.onnx.gz");
        QCOMPARE(e.file(), std::string("cut.onnx.gz"));
        QVERIFY(e.place().starts_with("byte "));
        QCOMPARE(e.problem(), std::string("not valid gzip: the stream is truncated; expected an "
                                          "ONNX model compressed with gzip"));
    }

    void aDamagedStreamIsNotValidGzip() {
        std::string packed = test::gzip(lines(2000));
        const std::size_t crc = packed.size() - 8; // the trailer: CRC-32, then the size
        packed[crc] = static_cast<char>(~packed[crc]);
        const InputError e = error_of(packed, "bad.onnx.gz");
        QCOMPARE(e.file(), std::string("bad.onnx.gz"));
        QCOMPARE(e.problem(), std::string("not valid gzip: the stream is corrupt (incorrect data "
                                          "check); expected an ONNX model compressed with gzip"));
    }

    void bytesWithoutTheMagicAreNotGzip() {
        const InputError e = error_of("\x08\x07 an ONNX model, not compressed", "plain.onnx.gz");
        QCOMPARE(e.place(), std::string("byte 0"));
        QVERIFY2(e.problem().starts_with("not valid gzip: the file does not start with gzip's "
                                         "magic bytes"),
                 e.problem().c_str());
    }

    void trailingBytesThatStartNoMemberAreRefused() {
        const std::string packed = test::gzip(lines(10));
        const InputError e = error_of(packed + "garbage", "tail.onnx.gz");
        QCOMPARE(e.place(), "byte " + std::to_string(packed.size()));
        QVERIFY2(e.problem().starts_with("not valid gzip: bytes after the end of the stream"),
                 e.problem().c_str());
    }
};

QTEST_APPLESS_MAIN(GzipCodecTest)
#include "gzip_codec_test.moc"
