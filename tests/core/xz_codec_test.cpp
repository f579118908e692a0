// xz streams in memory: what is compressed comes back byte for byte, the tool's magic bytes
// mark it, and a damaged stream is an error that names the file and the byte.
#include "core/input_error.hpp"
#include "core/xz_codec.hpp"

#include <QtTest>
#include <string>

using namespace cleave;

class XzCodecTest : public QObject {
    Q_OBJECT

private slots:
    void compressedTextComesBackWhole() {
        std::string text;
        for (int i = 0; i < 5000; ++i)
            text += "{\"kernel\": " + std::to_string(i) + "}\n";
        const std::string packed = xz_compress(text);
        QVERIFY(is_xz(packed));
        QVERIFY(!is_xz(text));
        QVERIFY(packed.size() < text.size() / 5);
        QCOMPARE(xz_decompress(packed, "p.json.xz", "a predictor"), text);
    }

    void anEmptyTextRoundTrips() {
        QCOMPARE(xz_decompress(xz_compress(""), "e.xz", "anything"), std::string());
    }

    void aTruncatedStreamNamesTheFileAndTheByte() {
        const std::string packed = xz_compress(std::string(10000, 'a'));
        try {
            xz_decompress(packed.substr(0, packed.size() / 2), "cut.json.xz", "a predictor file");
            QFAIL("a truncated stream was accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("cut.json.xz"));
            QVERIFY(e.place().starts_with("byte "));
            QVERIFY(e.problem().find("corrupt or truncated; expected a predictor file") !=
                    std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(XzCodecTest)
#include "xz_codec_test.moc"
