// Cleave's own graph model: shapes as text and element counts, a tensor's bytes, attributes as a
// person reads them and looked up by name, and finding tensors, nodes and consumers.
#include "core/graph/model.hpp"

#include <QtTest>
#include <limits>
#include <stdexcept>

using namespace cleave::graph;

namespace {

Tensor named(std::string name) {
    Tensor t;
    t.name = std::move(name);
    return t;
}

Attribute attribute(std::string name, Attribute::Kind kind) {
    Attribute a;
    a.name = std::move(name);
    a.kind = kind;
    return a;
}

// x -> A -> t -> B, C (C reads t twice) ; A's second output u -> C.
Model fan_out_model() {
    Model m;
    for (const char* name : {"x", "t", "u", "b", "c"})
        m.tensors.push_back(named(name));
    m.tensors[0].kind = Tensor::Kind::GraphInput;
    m.nodes.resize(3);
    m.nodes[0].name = "A";
    m.nodes[0].inputs = {0};
    m.nodes[0].outputs = {1, -1, 2};
    m.nodes[1].name = "B";
    m.nodes[1].inputs = {1};
    m.nodes[1].outputs = {3};
    m.nodes[2].name = "C";
    m.nodes[2].inputs = {1, 1, 2};
    m.nodes[2].outputs = {4};
    m.tensors[1].consumers = {1, 2};
    m.tensors[2].consumers = {2};
    return m;
}

} // namespace

class ModelTest : public QObject {
    Q_OBJECT

private slots:
    void shapesAsText() {
        QCOMPARE(shape_to_string(Shape{1, 3, 224, 224}), std::string("1x3x224x224"));
        QCOMPARE(shape_to_string(Shape{-1, 3, 7}), std::string("?x3x7"));
        QCOMPARE(shape_to_string(Shape{}), std::string("scalar"));
        QCOMPARE(shape_to_string(std::nullopt), std::string("?"));
    }

    void elementCounts() {
        QCOMPARE(element_count(Shape{2, 3, 4}), std::int64_t{24});
        QCOMPARE(element_count(Shape{}), std::int64_t{1}); // a scalar
        QCOMPARE(element_count(Shape{5, 0, 3}), std::int64_t{0});
        QCOMPARE(element_count(Shape{2, -1}), std::int64_t{-1});
        QCOMPARE(element_count(std::nullopt), std::int64_t{-1});
    }

    void elementCountOverflowIsAnError() {
        const std::int64_t big = std::int64_t{1} << 32;
        QVERIFY_THROWS_EXCEPTION(std::overflow_error, element_count(Shape{big, big}));
        QCOMPARE(element_count(Shape{big, big / 2 - 1}), big * (big / 2 - 1));
    }

    void tensorBytesAreElementsTimesTheirSize() {
        Tensor t;
        t.dtype = DataType::Float32;
        t.shape = Shape{2, 3};
        QCOMPARE(t.elements(), std::int64_t{6});
        QCOMPARE(t.bytes(), std::int64_t{24});
        t.dtype = DataType::Float16;
        QCOMPARE(t.bytes(), std::int64_t{12});
        t.dtype = DataType::String; // no fixed size
        QCOMPARE(t.bytes(), std::int64_t{-1});
        t.dtype = DataType::Int64;
        t.shape = Shape{2, -1};
        QCOMPARE(t.bytes(), std::int64_t{-1});
        t.shape = Shape{std::numeric_limits<std::int64_t>::max() / 4}; // elements fit, bytes do not
        QCOMPARE(t.bytes(), std::int64_t{-1});
    }

    void attributesReadAsAPersonWritesThem() {
        auto i = attribute("axis", Attribute::Kind::Int);
        i.ints = {-1};
        QCOMPARE(i.to_string(), std::string("-1"));
        auto f = attribute("alpha", Attribute::Kind::Float);
        f.floats = {0.25};
        QCOMPARE(f.to_string(), std::string("0.25"));
        auto s = attribute("auto_pad", Attribute::Kind::String);
        s.strings = {"NOTSET"};
        QCOMPARE(s.to_string(), std::string("'NOTSET'"));
        auto is = attribute("pads", Attribute::Kind::Ints);
        is.ints = {1, 1, 0, 0};
        QCOMPARE(is.to_string(), std::string("[1, 1, 0, 0]"));
        auto fs = attribute("scales", Attribute::Kind::Floats);
        fs.floats = {1.5, 2};
        QCOMPARE(fs.to_string(), std::string("[1.5, 2]"));
        auto ss = attribute("modes", Attribute::Kind::Strings);
        ss.strings = {"a", "b"};
        QCOMPARE(ss.to_string(), std::string("['a', 'b']"));
        auto t = attribute("value", Attribute::Kind::Tensor);
        t.summary = "float32 [3]";
        QCOMPARE(t.to_string(), std::string("float32 [3]"));
        QCOMPARE(attribute("empty", Attribute::Kind::Int).to_string(), std::string("0"));
        QCOMPARE(attribute("none", Attribute::Kind::Ints).to_string(), std::string("[]"));
    }

    void attributesAreFoundByName() {
        Node n;
        auto group = attribute("group", Attribute::Kind::Int);
        group.ints = {4};
        auto pads = attribute("pads", Attribute::Kind::Ints);
        pads.ints = {1, 2};
        auto mode = attribute("mode", Attribute::Kind::String);
        mode.strings = {"linear"};
        auto strides = attribute("strides", Attribute::Kind::Int);
        strides.ints = {2};
        n.attributes = {group, mode, pads, strides}; // sorted by name
        QVERIFY(n.attribute("pads") == &n.attributes[2]);
        QVERIFY(n.attribute("dilations") == nullptr);
        QVERIFY(n.attribute("zzz") == nullptr);
        QCOMPARE(n.int_attribute("group", 1), std::int64_t{4});
        QCOMPARE(n.int_attribute("axis", 7), std::int64_t{7}); // absent
        QCOMPARE(n.int_attribute("pads", 7), std::int64_t{7}); // not an Int
        QCOMPARE(n.int_attribute("mode", 7), std::int64_t{7});
        QCOMPARE(n.ints_attribute("pads"), (std::vector<std::int64_t>{1, 2}));
        QCOMPARE(n.ints_attribute("strides"), (std::vector<std::int64_t>{2})); // one Int
        QVERIFY(n.ints_attribute("mode").empty());
        QVERIFY(n.ints_attribute("kernel_shape").empty());
    }

    void tensorsAndNodesAreFoundByName() {
        const auto m = fan_out_model();
        QCOMPARE(m.find_tensor("u"), 2);
        QCOMPARE(m.find_tensor("nothing"), -1);
        QCOMPARE(m.find_node("C"), 2);
        QCOMPARE(m.find_node("t"), -1);
    }

    void consumersInOutputThenConsumerOrder() {
        const auto m = fan_out_model();
        // t's readers B and C, then u's reader C again; the omitted output is skipped.
        QCOMPARE(m.consumers_of(m.nodes[0]), (std::vector<int>{1, 2, 2}));
        QVERIFY(m.consumers_of(m.nodes[1]).empty());
    }
};

QTEST_GUILESS_MAIN(ModelTest)
#include "model_test.moc"
