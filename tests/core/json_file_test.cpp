// A user's JSON file is read plain or xz-compressed alike; a missing file, a corrupt stream or a
// syntax error is an InputError naming the file, the byte and what the file should have been.
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/xz_codec.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;

namespace {

const std::string kExpected = "a device file";

void write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// What the read throws, as "file | place | problem"; "no error" without one.
std::string error_of(const std::string& path) {
    try {
        read_json_file(path, kExpected);
    } catch (const InputError& e) {
        return e.file() + " | " + e.place() + " | " + e.problem();
    }
    return "no error";
}

} // namespace

class JsonFileTest : public QObject {
    Q_OBJECT

private slots:
    void plainFileIsRead() {
        QTemporaryDir dir;
        const auto path = dir.filePath("d.json").toStdString();
        write(path, R"({"id": "nx", "cores": [4, 2]})");
        const auto doc = read_json_file(path, kExpected);
        QCOMPARE(doc["id"].get<std::string>(), std::string("nx"));
        QCOMPARE(doc["cores"][1].get<int>(), 2);
    }

    void xzFileIsReadAsItsText() {
        QTemporaryDir dir;
        const auto path = dir.filePath("d.json.xz").toStdString();
        write(path, xz_compress(R"({"id": "packed", "threads": 8})"));
        const auto doc = read_json_file(path, kExpected);
        QCOMPARE(doc["id"].get<std::string>(), std::string("packed"));
        QCOMPARE(doc["threads"].get<int>(), 8);
    }

    void orderedReadKeepsTheKeysInFileOrder() {
        QTemporaryDir dir;
        const auto path = dir.filePath("o.json").toStdString();
        write(path, xz_compress(R"({"z": 1, "a": 2, "m": 3})"));
        const auto doc = read_ordered_json_file(path, kExpected);
        std::vector<std::string> keys;
        for (const auto& [key, _] : doc.items())
            keys.push_back(key);
        QCOMPARE(keys, (std::vector<std::string>{"z", "a", "m"}));
    }

    void missingFileNamesTheFileAndWhatItShouldBe() {
        QTemporaryDir dir;
        const auto path = dir.filePath("absent.json").toStdString();
        QCOMPARE(error_of(path), path + " |  | cannot open; expected a device file");
        QVERIFY_THROWS_EXCEPTION(InputError, read_ordered_json_file(path, kExpected));
    }

    void syntaxErrorNamesTheFileAndTheByte() {
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.json").toStdString();
        write(path, R"({"id": nx})");
        QCOMPARE(error_of(path), path + " | byte 9 | not valid JSON; expected a device file");
    }

    void syntaxErrorInsideAnXzFileNamesTheByteOfItsText() {
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.json.xz").toStdString();
        write(path, xz_compress(R"({"id": nx})"));
        QCOMPARE(error_of(path), path + " | byte 9 | not valid JSON; expected a device file");
    }

    void truncatedXzStreamNamesTheFile() {
        QTemporaryDir dir;
        const auto path = dir.filePath("cut.json.xz").toStdString();
        const auto packed = xz_compress(std::string(4000, ' ') + R"({"id": "nx"})");
        write(path, packed.substr(0, packed.size() / 2));
        const auto message = error_of(path);
        QVERIFY2(message.starts_with(path + " | byte "), message.c_str());
        QVERIFY2(message.find("expected a device file") != std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(JsonFileTest)
#include "json_file_test.moc"
