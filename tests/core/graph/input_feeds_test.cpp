// The feeds a runtime gives a decoder: ids within the vocabulary the embedding table has, a mask of
// ones, positions counting on from the cached tokens; uniform floats for the caches and for every
// input of a model that is no decoder.
#include "core/graph/input_feeds.hpp"
#include "core/graph/onnx_import.hpp"
#include "genai_decoder.hpp"
#include "onnx_builder.hpp"
#include "tiny_decoder.hpp"

#include <QtTest>

using namespace cleave::graph;
using cleave::test::GenAiDecoder;
using cleave::test::OnnxBuilder;
using cleave::test::TinyDecoder;
using Fill = InputFeed::Fill;

namespace {

Model load(const onnx::ModelProto& proto, const DimBindings& bindings) {
    const std::string s = proto.SerializeAsString();
    LoadOptions options;
    options.dims = bindings;
    return load_model_from_bytes({s.begin(), s.end()}, "decoder.onnx", options);
}

InputFeed feed_of(const Model& model, const std::string& input) {
    const auto feeds = input_feeds(model);
    for (std::size_t k = 0; k < model.inputs.size(); ++k)
        if (model.tensors[static_cast<std::size_t>(model.inputs[k])].name == input)
            return feeds[k];
    throw std::runtime_error("no input " + input);
}

} // namespace

class InputFeedsTest : public QObject {
    Q_OBJECT

private slots:
    void aDecodeStepCountsOnFromItsCache() {
        DimBindings b;
        b.decode = 100;
        const Model model = load(TinyDecoder::build(), b);
        QCOMPARE(input_feeds(model).size(), model.inputs.size());
        const auto ids = feed_of(model, "input_ids");
        QCOMPARE(ids.fill, Fill::TokenIds);
        QCOMPARE(ids.value, std::int64_t{16}); // the rows of wte
        const auto mask = feed_of(model, "attention_mask");
        QCOMPARE(mask.fill, Fill::Constant);
        QCOMPARE(mask.value, std::int64_t{1});
        const auto positions = feed_of(model, "position_ids");
        QCOMPARE(positions.fill, Fill::Positions);
        QCOMPARE(positions.value, std::int64_t{100});
        QCOMPARE(feed_of(model, "past_key_values.1.value").fill, Fill::Uniform);
    }

    void aPrefillStartsAtPositionZero() {
        DimBindings b;
        b.prefill = 64;
        const auto positions = feed_of(load(TinyDecoder::build(), b), "position_ids");
        QCOMPARE(positions.fill, Fill::Positions);
        QCOMPARE(positions.value, std::int64_t{0});
    }

    void theGenAiFormsMaskIsOnesToo() {
        DimBindings b;
        b.decode = 8;
        const Model model = load(GenAiDecoder::build(), b);
        QCOMPARE(feed_of(model, "attention_mask").fill, Fill::Constant);
        QCOMPARE(feed_of(model, "attention_mask").value, std::int64_t{1});
        QCOMPARE(feed_of(model, "input_ids").fill, Fill::TokenIds);
        QCOMPARE(feed_of(model, "input_ids").value, std::int64_t{16});
    }

    void aModelThatIsNoDecoderGetsUniformFloatsAndZeros() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.input("index", {2}, onnx::TensorProto::INT64);
        b.initializer("table", {4, 3});
        b.node("Gather", {"table", "index"}, {"g"});
        b.node("Relu", {"x"}, {"y"});
        b.output("y");
        b.output("g");
        const Model model = load(b.model, {});
        const auto feeds = input_feeds(model);
        QCOMPARE(feeds.size(), std::size_t{2});
        QCOMPARE(feeds[0].fill, Fill::Uniform);
        QCOMPARE(feeds[1].fill, Fill::Constant);
        QCOMPARE(feeds[1].value, std::int64_t{0});
    }

    void theFillsHaveNames() {
        QCOMPARE(to_string(Fill::Uniform), std::string_view("uniform"));
        QCOMPARE(to_string(Fill::Constant), std::string_view("constant"));
        QCOMPARE(to_string(Fill::TokenIds), std::string_view("ids"));
        QCOMPARE(to_string(Fill::Positions), std::string_view("positions"));
    }
};

QTEST_APPLESS_MAIN(InputFeedsTest)
#include "input_feeds_test.moc"
