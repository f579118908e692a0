// The parsed file behind a Model: an initializer's raw bytes come from the mapped file where its
// payload was left there, else from the structure's own raw_data; typed fields give none.
#include "core/graph/onnx_source.hpp"
#include "onnx_builder.hpp"

#include <QtTest>
#include <stdexcept>

using namespace cleave::graph;
using cleave::test::OnnxBuilder;

namespace {

std::string text(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

} // namespace

class OnnxSourceTest : public QObject {
    Q_OBJECT

private slots:
    void rawInitializersComeFromWhereTheyWereLeft() {
        OnnxBuilder b;
        b.input("x", {1, 300});
        auto& w = b.initializer("w", {300, 4}); // 4800 bytes: left in the file
        for (std::size_t i = 0; i < w.raw_data().size(); ++i)
            (*w.mutable_raw_data())[i] = static_cast<char>('a' + i % 26);
        b.initializer("b", {4}) // 16 bytes: kept in the structure
            .set_raw_data(std::string("0123456789abcdef"));
        b.int64_initializer("shape", {1, 4}); // a typed field: no raw bytes
        b.node("MatMul", {"x", "w"}, {"m"});
        b.node("Add", {"m", "b"}, {"y"});
        b.output("y");

        OnnxSource source;
        source.file = std::make_shared<const MappedFile>(b.bytes());
        auto separated = separate_weight_payloads(source.file->bytes(), "m.onnx", 1024);
        QVERIFY(source.proto.ParseFromString(separated.structure));
        source.initializer_payloads = std::move(separated.initializer_payloads);
        QVERIFY(source.initializer_payloads[0].has_value());
        QVERIFY(source.proto.graph().initializer(0).raw_data().empty());

        QCOMPARE(text(source.raw_initializer(0)), b.model.graph().initializer(0).raw_data());
        QCOMPARE(text(source.raw_initializer(1)), std::string("0123456789abcdef"));
        QVERIFY(source.raw_initializer(2).empty());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, source.raw_initializer(3));
    }
};

QTEST_GUILESS_MAIN(OnnxSourceTest)
#include "onnx_source_test.moc"
