// The values a split run feeds graph inputs: the same seed gives the same bytes, another seed
// others; ids stay within the vocabulary, positions count along the last dim, half floats are
// IEEE half, integers left uniform are zeros; an unknown shape or an element type no engine
// carries is refused naming the file and the input.
#include "core/graph/feed_values.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <cstring>

using namespace cleave;

namespace {

graph::Tensor tensor(graph::DataType type, graph::Shape shape) {
    static const std::string name = "x";
    graph::Tensor t;
    t.name = name;
    t.dtype = type;
    t.shape = std::move(shape);
    return t;
}

template <typename T>
std::vector<T> as(const std::vector<std::byte>& bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

} // namespace

class FeedValuesTest : public QObject {
    Q_OBJECT

private slots:
    void uniformFloatsRepeatBySeed() {
        const auto t = tensor(graph::DataType::Float32, {2, 3, 4});
        const auto a = graph::feed_values(t, {}, 7, "m.onnx");
        QCOMPARE(a.size(), std::size_t{24 * 4});
        QCOMPARE(graph::feed_values(t, {}, 7, "m.onnx"), a);
        QVERIFY(graph::feed_values(t, {}, 8, "m.onnx") != a);
        for (const float v : as<float>(a))
            QVERIFY(v >= 0 && v < 1);
    }

    void idsPositionsAndConstants() {
        const auto ids = as<std::int64_t>(graph::feed_values(
            tensor(graph::DataType::Int64, {1, 64}), {graph::InputFeed::Fill::TokenIds, 50}, 1,
            "m.onnx"));
        for (const auto id : ids)
            QVERIFY(id >= 0 && id < 50);
        QVERIFY(std::any_of(ids.begin(), ids.end(), [](auto id) { return id > 0; }));
        const auto positions = as<std::int64_t>(graph::feed_values(
            tensor(graph::DataType::Int64, {2, 3}), {graph::InputFeed::Fill::Positions, 10}, 1,
            "m.onnx"));
        QCOMPARE(positions, (std::vector<std::int64_t>{10, 11, 12, 10, 11, 12}));
        const auto mask = as<std::int32_t>(graph::feed_values(
            tensor(graph::DataType::Int32, {4}), {graph::InputFeed::Fill::Constant, 1}, 1,
            "m.onnx"));
        QCOMPARE(mask, (std::vector<std::int32_t>{1, 1, 1, 1}));
        const auto zeros = as<std::int64_t>(
            graph::feed_values(tensor(graph::DataType::Int64, {3}), {}, 1, "m.onnx"));
        QCOMPARE(zeros, (std::vector<std::int64_t>{0, 0, 0}));
    }

    void halfFloatsAreIeeeHalf() {
        const auto half = as<std::uint16_t>(graph::feed_values(
            tensor(graph::DataType::Float16, {2}), {graph::InputFeed::Fill::Constant, 1}, 1,
            "m.onnx"));
        QCOMPARE(half, (std::vector<std::uint16_t>{0x3c00, 0x3c00}));
        for (const auto h : as<std::uint16_t>(graph::feed_values(
                 tensor(graph::DataType::Float16, {256}), {}, 3, "m.onnx")))
            QVERIFY(h < 0x3c00); // in [0, 1)
    }

    void whatCannotBeFedIsNamed() {
        auto unknown = tensor(graph::DataType::Float32, {});
        unknown.shape.reset();
        try {
            graph::feed_values(unknown, {}, 1, "m.onnx");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("m.onnx: x: "), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(
            InputError, graph::feed_values(tensor(graph::DataType::String, {1}), {}, 1, "m.onnx"));
    }
};

QTEST_GUILESS_MAIN(FeedValuesTest)
#include "feed_values_test.moc"
