// Names that are not UTF-8 are refused at import, naming where (a mutated model once ended in
// "internal error" when `cleave inspect --json` wrote such a name out).
#include "../input_error_of.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/graph/utf8_names.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using cleave::graph::invalid_utf8_at;
using cleave::test::OnnxBuilder;

class Utf8NamesTest : public QObject {
    Q_OBJECT

private slots:
    void validTextPasses() {
        QCOMPARE(invalid_utf8_at("conv_1/Relu"), std::nullopt);
        QCOMPARE(invalid_utf8_at("\xC3\xA9t\xC3\xA9"), std::nullopt);             // "été"
        QCOMPARE(invalid_utf8_at("\xE2\x82\xAC \xF0\x9F\x98\x80"), std::nullopt); // euro, emoji
        QCOMPARE(invalid_utf8_at(""), std::nullopt);
    }

    void theFirstBadByteIsFound() {
        QCOMPARE(invalid_utf8_at("ab\x82"), std::optional<std::size_t>(2));   // lone continuation
        QCOMPARE(invalid_utf8_at("a\xC3"), std::optional<std::size_t>(1));    // cut short
        QCOMPARE(invalid_utf8_at("\xC3(x"), std::optional<std::size_t>(1));   // no continuation
        QCOMPARE(invalid_utf8_at("\xC0\xAF"), std::optional<std::size_t>(0)); // overlong '/'
        QCOMPARE(invalid_utf8_at("\xE0\x80\xAF"), std::optional<std::size_t>(0));     // overlong
        QCOMPARE(invalid_utf8_at("\xED\xA0\x80"), std::optional<std::size_t>(0));     // surrogate
        QCOMPARE(invalid_utf8_at("\xF4\x90\x80\x80"), std::optional<std::size_t>(0)); // > U+10FFFF
        QCOMPARE(invalid_utf8_at("\xFF"), std::optional<std::size_t>(0));
    }

    void aModelWithSuchANameIsRefusedNamingIt() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"y"}, std::string("re\xF7lu"));
        b.output("y");
        QCOMPARE(cleave::test::input_error_of(
                     [&] { cleave::graph::load_model_from_bytes(b.bytes(), "m.onnx"); }),
                 std::string("m.onnx | node #0 name | is not valid UTF-8 (byte 2); expected a name "
                             "in UTF-8, as ONNX's strings are"));
        OnnxBuilder t;
        t.input(std::string("x\x80"), {1, 4});
        t.node("Relu", {std::string("x\x80")}, {"y"}, "relu");
        t.output("y");
        QCOMPARE(cleave::test::input_error_of(
                     [&] { cleave::graph::load_model_from_bytes(t.bytes(), "m.onnx"); }),
                 std::string("m.onnx | input #0 name | is not valid UTF-8 (byte 1); expected a "
                             "name in UTF-8, as ONNX's strings are"));
    }
};

QTEST_APPLESS_MAIN(Utf8NamesTest)
#include "utf8_names_test.moc"
