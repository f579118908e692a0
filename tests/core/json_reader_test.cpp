// The one way every JSON file is read: each accessor's error names the file, the JSON pointer of
// the value at fault and what was expected there, and the text itself is refused at the byte
// where it stops being JSON, a number overflows or the nesting runs too deep.
#include "core/input_error.hpp"
#include "core/json_reader.hpp"

#include <QtTest>
#include <functional>

using cleave::child_pointer;
using cleave::InputError;
using cleave::JsonReader;
using nlohmann::json;

namespace {

const JsonReader kReader("board.json");

// The message the call throws, or "" when it throws none.
std::string error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

const json kObject = json::parse(R"({
  "name": "nx", "empty": "", "count": 3, "ratio": 0.5, "zero": 0, "negative": -2,
  "flag": true, "flag_text": "true", "list": [1, 2.5, 3], "words": ["a", 1],
  "inner": {"x": 1}, "nothing": null
})");

} // namespace

class JsonReaderTest : public QObject {
    Q_OBJECT

private slots:
    void parseReadsValidText() {
        const json value = kReader.parse(R"({"a": [1, {"b": "c"}]})", "a test file");
        QCOMPARE(value["a"][1]["b"].get<std::string>(), std::string("c"));
    }

    void parseOrderedKeepsTheKeysInFileOrder() {
        const auto value = kReader.parse_ordered(R"({"z": 1, "a": 2})", "a test file");
        QCOMPARE(value.begin().key(), std::string("z"));
    }

    void syntaxErrorNamesTheByte() {
        QCOMPARE(error_of([] { kReader.parse(R"({"a": tru})", "a device file"); }),
                 std::string("board.json: byte 10: not valid JSON; expected a device file"));
    }

    void numberOverflowNamesTheByteAndTheNumber() {
        QCOMPARE(error_of([] { kReader.parse("[1,\n 31e998, 2]", "a predictor"); }),
                 std::string("board.json: byte 11: the number 31e998 is too large for a double; "
                             "expected a predictor"));
        QCOMPARE(error_of([] { kReader.parse_ordered("{\"a\": -1e400}", "a predictor"); }),
                 std::string("board.json: byte 12: the number -1e400 is too large for a double; "
                             "expected a predictor"));
    }

    void nestingPastTheLimitNamesTheByte() {
        const auto nested = [](int depth) {
            return std::string(static_cast<std::size_t>(depth), '[') +
                   std::string(static_cast<std::size_t>(depth), ']');
        };
        QVERIFY(kReader.parse(nested(cleave::kMaxJsonDepth), "a file").is_array());
        // The object's brace counts, brackets inside a string do not: the array at byte
        // 8 + kMaxJsonDepth is one too deep.
        const std::string text = "{\"[[[\": " + nested(cleave::kMaxJsonDepth) + "}";
        QCOMPARE(error_of([&] { kReader.parse(text, "a file"); }),
                 "board.json: byte " + std::to_string(8 + cleave::kMaxJsonDepth) +
                     ": arrays and objects nested more than " +
                     std::to_string(cleave::kMaxJsonDepth) + " deep; expected a file");
    }

    void lineAndColumnPlaceForFilesReadByLine() {
        const JsonReader trace("trace.json", JsonReader::TextPlace::line_and_column);
        QCOMPARE(error_of([&] { trace.parse("[\n  {\"a\": 1},\n  {\"a\": x}\n]", "a trace"); }),
                 std::string("trace.json: line 3, column 9: not valid JSON; expected a trace"));
    }

    void failWithoutPointerPlacesTheRoot() {
        QCOMPARE(error_of([] { kReader.fail("", "expected an object"); }),
                 std::string("board.json: /: expected an object"));
    }

    void memberMissingWhenRequired() {
        QVERIFY(kReader.member(kObject, "", "name", true, "a name") != nullptr);
        QVERIFY(kReader.member(kObject, "", "absent", false, "a name") == nullptr);
        QCOMPARE(error_of([] { kReader.member(kObject["inner"], "/inner", "y", true, "a y"); }),
                 std::string("board.json: /inner: missing \"y\"; expected a y"));
    }

    void objectAndArrayOfTheWrongType() {
        QVERIFY(kReader.object(kObject, "", "inner", true, "an object") != nullptr);
        QVERIFY(kReader.array(kObject, "", "list", true, "a list") != nullptr);
        QCOMPARE(error_of([] { kReader.object(kObject, "", "list", true, "the inner part"); }),
                 std::string("board.json: /list: expected the inner part, found array"));
        QCOMPARE(error_of([] { kReader.array(kObject, "", "nothing", false, "a list"); }),
                 std::string("board.json: /nothing: expected a list, found null"));
    }

    void stringNotAStringOrEmpty() {
        QCOMPARE(kReader.string(kObject, "", "name", true), std::string("nx"));
        QCOMPARE(kReader.string(kObject, "", "absent", false), std::string());
        QCOMPARE(error_of([] { kReader.string(kObject, "", "count", true, "a host name"); }),
                 std::string("board.json: /count: expected a host name, found number"));
        QCOMPARE(error_of([] { kReader.string(kObject, "", "empty", true, "a host name"); }),
                 std::string("board.json: /empty: expected a host name, found an empty string"));
    }

    void stringAtMayAllowEmpty() {
        QCOMPARE(kReader.string_at(kObject["empty"], "/empty", "a note", true), std::string());
        QCOMPARE(error_of([] { kReader.string_at(kObject["words"][1], "/words/1", "a word"); }),
                 std::string("board.json: /words/1: expected a word, found number"));
    }

    void numberAboveZeroOrAtLeastZero() {
        QCOMPARE(*kReader.number(kObject, "", "ratio", true, "GB/s"), 0.5);
        QCOMPARE(*kReader.number(kObject, "", "zero", true, "GB/s", true), 0.0);
        QVERIFY(!kReader.number(kObject, "", "absent", false, "GB/s"));
        QCOMPARE(error_of([] { kReader.number(kObject, "", "zero", true, "GB/s"); }),
                 std::string("board.json: /zero: expected a number > 0 (GB/s), found 0"));
        QCOMPARE(error_of([] { kReader.number(kObject, "", "negative", true, "", true); }),
                 std::string("board.json: /negative: expected a number >= 0, found -2"));
        QCOMPARE(error_of([] { kReader.number(kObject, "", "name", true, "W"); }),
                 std::string("board.json: /name: expected a number > 0 (W), found string"));
    }

    void finiteNumberOfAnyValue() {
        QCOMPARE(kReader.finite(kObject, "", "negative"), -2.0);
        QCOMPARE(error_of([] { kReader.finite(kObject, "", "flag"); }),
                 std::string("board.json: /flag: expected a finite number, found boolean"));
    }

    void finiteNumbersCountAndElements() {
        QCOMPARE(kReader.finite_numbers(kObject, "", "list", 3, "one per PE"),
                 (std::vector<double>{1, 2.5, 3}));
        QCOMPARE(error_of([] { kReader.finite_numbers(kObject, "", "list", 2, "one per PE"); }),
                 std::string("board.json: /list: expected 2 numbers, one per PE, found 3"));
        QCOMPARE(error_of([] { kReader.finite_numbers(kObject, "", "words", 2, "one per PE"); }),
                 std::string("board.json: /words/0: expected a finite number, found string"));
        QCOMPARE(error_of([] { kReader.finite_numbers_at(kObject["inner"], "/inner", 1, "x"); }),
                 std::string("board.json: /inner: expected 1 numbers, x, found object"));
    }

    void booleanShowsAQuotedStringAsWritten() {
        QCOMPARE(*kReader.boolean(kObject, "", "flag", true), true);
        QVERIFY(!kReader.boolean(kObject, "", "absent", false));
        QCOMPARE(error_of([] { kReader.boolean(kObject, "", "flag_text", true); }),
                 std::string("board.json: /flag_text: expected true or false, found \"true\""));
    }

    void wholeNumberInRange() {
        QCOMPARE(*kReader.whole_number(kObject, "", "count", true, 1, 8), 3);
        QCOMPARE(error_of([] { kReader.whole_number(kObject, "", "count", true, 4, 8); }),
                 std::string("board.json: /count: expected a whole number from 4 to 8, found 3"));
        QCOMPARE(error_of([] { kReader.whole_number(kObject, "", "ratio", true, 0, INT_MAX); }),
                 std::string("board.json: /ratio: expected a whole number >= 0, found 0.5"));
        QCOMPARE(error_of([] { kReader.whole_number_at(json(1e30), "/n", 0, 9); }),
                 std::string("board.json: /n: expected a whole number from 0 to 9, found 1e+30"));
    }

    void expectObject() {
        QCOMPARE(error_of([] { kReader.expect_object(kObject["list"], "/list", "a PE"); }),
                 std::string("board.json: /list: expected a PE, found array"));
    }

    void onlyKnownNamesTheUnknownMember() {
        QCOMPARE(error_of([] {
                     kReader.only_known(kObject["inner"], "/inner", {"a", "b"});
                 }),
                 std::string("board.json: /inner/x: unknown field; expected one of a, b"));
    }

    void rethrowUnderMovesAPartsErrorIntoItsFile() {
        const InputError part("", "/w1/0", "expected 3 numbers");
        QCOMPARE(error_of([&] { cleave::rethrow_under(part, "p.json", "/classes/*/model"); }),
                 std::string("p.json: /classes/*/model/w1/0: expected 3 numbers"));
        const InputError whole("", "/", "expected an object");
        QCOMPARE(error_of([&] { cleave::rethrow_under(whole, "p.json", "/model"); }),
                 std::string("p.json: /model: expected an object"));
    }

    void childPointerEscapesAsRfc6901Asks() {
        QCOMPARE(child_pointer("/a", "b/c~d"), std::string("/a/b~1c~0d"));
        QCOMPARE(child_pointer("/a", std::size_t{4}), std::string("/a/4"));
    }
};

QTEST_GUILESS_MAIN(JsonReaderTest)
#include "json_reader_test.moc"
