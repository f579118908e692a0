// Splitting an ONNX file into its structure and the byte ranges of its large weights: the ranges
// hold exactly the weights' bytes, the structure is the model less those payloads, and broken
// framing is refused at the byte where it breaks.
#include "core/graph/weight_payloads.hpp"
#include "core/input_error.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using namespace cleave::graph;
using cleave::InputError;
using cleave::test::OnnxBuilder;

namespace {

// x -> Conv(w) -> Add(b) -> y with w of 2000 floats (8000 bytes), b of 8 (32 bytes), and an int64
// initializer held in its typed field rather than raw_data.
OnnxBuilder conv_model() {
    OnnxBuilder b;
    b.input("x", {1, 10, 8, 8});
    auto& w = b.initializer("w", {8, 10, 5, 5});
    std::string& raw = *w.mutable_raw_data();
    for (std::size_t i = 0; i < raw.size(); ++i)
        raw[i] = static_cast<char>(i % 253);
    b.initializer("b", {1, 8, 1, 1});
    b.int64_initializer("axes", {0, 1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Add", {"c", "b"}, {"y"}, "add");
    b.output("y");
    return b;
}

std::string error_of(const std::vector<std::uint8_t>& bytes) {
    try {
        separate_weight_payloads(bytes, "m.onnx", 1024);
    } catch (const InputError& e) {
        return e.file() + " | " + e.place() + " | " + e.problem();
    }
    return "no error";
}

} // namespace

class WeightPayloadsTest : public QObject {
    Q_OBJECT

private slots:
    void largePayloadsStayInTheFile() {
        const auto b = conv_model();
        const auto bytes = b.bytes();
        const auto separated = separate_weight_payloads(bytes, "m.onnx", 1024);
        QCOMPARE(separated.initializer_payloads.size(), std::size_t{3});
        QVERIFY(separated.initializer_payloads[0].has_value());
        QVERIFY(!separated.initializer_payloads[1]); // 32 bytes: below the threshold
        QVERIFY(!separated.initializer_payloads[2]); // no raw_data
        const auto range = *separated.initializer_payloads[0];
        QCOMPARE(range.length, std::uint64_t{8000});
        const std::string& weights = b.model.graph().initializer(0).raw_data();
        QVERIFY(
            std::equal(weights.begin(), weights.end(),
                       bytes.begin() + static_cast<std::ptrdiff_t>(range.offset),
                       [](char a, std::uint8_t c) { return static_cast<std::uint8_t>(a) == c; }));
    }

    void theStructureIsTheModelLessItsPayloads() {
        const auto b = conv_model();
        const auto separated = separate_weight_payloads(b.bytes(), "m.onnx", 1024);
        auto expected = b.model;
        expected.mutable_graph()->mutable_initializer(0)->clear_raw_data();
        QCOMPARE(separated.structure.size(), expected.SerializeAsString().size());
        QVERIFY(separated.structure == expected.SerializeAsString());
        onnx::ModelProto parsed;
        QVERIFY(parsed.ParseFromString(separated.structure));
        QCOMPARE(parsed.graph().initializer(0).dims_size(), 4);
        QCOMPARE(parsed.graph().initializer(1).raw_data().size(), std::size_t{32});
        QCOMPARE(parsed.graph().initializer(2).int64_data_size(), 2);
        QCOMPARE(parsed.graph().node_size(), 2);
    }

    void aLowerThresholdSeparatesSmallerPayloads() {
        const auto separated = separate_weight_payloads(conv_model().bytes(), "m.onnx", 32);
        QCOMPARE(separated.initializer_payloads[1].value_or(PayloadRange{}).length,
                 std::uint64_t{32});
        QVERIFY(!separated.initializer_payloads[2]);
    }

    void truncatedFramingIsRefusedAtItsByte() {
        auto bytes = conv_model().bytes();
        bytes.resize(bytes.size() - 100);
        // ir_version (2 bytes) and producer_name "cleave-tests" (14) come before the graph.
        const auto message = error_of(bytes);
        QVERIFY2(message.starts_with("m.onnx | byte 16 | field 7 of ModelProto declares "),
                 message.c_str());
        QVERIFY2(message.ends_with("; the file is truncated or corrupt"), message.c_str());
    }

    void anInvalidTagIsRefused() {
        QCOMPARE(error_of({0x00, 0x01}),
                 std::string("m.onnx | byte 0 | invalid field tag in ModelProto; expected a "
                             "protobuf-encoded ONNX model"));
    }
};

QTEST_GUILESS_MAIN(WeightPayloadsTest)
#include "weight_payloads_test.moc"
