// The weight-precision what-if: a generated decoder's matrix weights re-typed, their bytes scaled
// exactly and nothing else touched; the precision a model stores (an int4 GenAI export's
// MatMulNBits included); the precisions refused.
#include "core/graph/onnx_import.hpp"
#include "core/graph/weight_precision.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/llm_configs.hpp"
#include "core/modelgen/llm_writer.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

using namespace cleave;
using graph::WeightPrecision;

namespace {

graph::Model smollm(const QTemporaryDir& dir, modelgen::LlmPrecision precision,
                    modelgen::LlmForm form) {
    const std::filesystem::path folder = dir.path().toStdString();
    const auto written =
        modelgen::write_llm(*modelgen::find_llm_config("smollm2-135m"), precision, form, folder);
    graph::LoadOptions options;
    options.dims.decode = 16;
    options.dims.batch = 1;
    return graph::load_model(folder / written.model_file, options);
}

// Bytes of the initializers a MatMul reads (`products`), or of all the others.
std::int64_t initializer_bytes(const graph::Model& model, bool products) {
    std::vector<bool> read(model.tensors.size(), false);
    for (const auto& node : model.nodes)
        if (node.op == "MatMul")
            for (const int t : node.inputs)
                if (t >= 0)
                    read[static_cast<std::size_t>(t)] = true;
    std::int64_t sum = 0;
    for (std::size_t t = 0; t < model.tensors.size(); ++t)
        if (model.tensors[t].kind == graph::Tensor::Kind::Initializer && read[t] == products)
            sum += model.tensors[t].bytes();
    return sum;
}

} // namespace

class WeightPrecisionTest : public QObject {
    Q_OBJECT

private slots:
    void matrixWeightsTakeTheNewPrecision() {
        QTemporaryDir dir;
        auto model = smollm(dir, modelgen::LlmPrecision::Fp32, modelgen::LlmForm::Onnx);
        QCOMPARE(graph::stored_weight_precision(model), std::optional(WeightPrecision::fp32));
        const auto matrices = initializer_bytes(model, true);
        const auto others = initializer_bytes(model, false);
        QVERIFY(matrices > 100'000'000);
        // 30 layers x 7 projections; the embedding table (tied: the head reads it through a
        // Transpose) and the rotary tables stay.
        QCOMPARE(graph::requantize_weights(model, WeightPrecision::int4), 30 * 7);
        QCOMPARE(initializer_bytes(model, true), matrices / 8);
        QCOMPARE(initializer_bytes(model, false), others);
        QCOMPARE(graph::stored_weight_precision(model), std::optional(WeightPrecision::int4));
        // From fp32 to fp16 halves them; again to fp16 changes nothing.
        auto half = smollm(dir, modelgen::LlmPrecision::Fp32, modelgen::LlmForm::Onnx);
        graph::requantize_weights(half, WeightPrecision::fp16);
        QCOMPARE(initializer_bytes(half, true), matrices / 2);
        QCOMPARE(graph::requantize_weights(half, WeightPrecision::fp16), 0);
    }

    void quantizedModelsAreNotWidened() {
        QTemporaryDir dir;
        auto model = smollm(dir, modelgen::LlmPrecision::Int4, modelgen::LlmForm::Genai);
        QCOMPARE(graph::stored_weight_precision(model), std::optional(WeightPrecision::int4));
        QCOMPARE(graph::requantize_weights(model, WeightPrecision::int4), 0);
        try {
            graph::requantize_weights(model, WeightPrecision::fp16);
            QFAIL("an int4 model widened");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--precision"));
            QVERIFY(std::string(e.what()).find("stores them as int4") != std::string::npos);
        }
    }

    void onlyWhatTheCostModelExpresses() {
        QCOMPARE(graph::parse_weight_precision("int8"), WeightPrecision::int8);
        for (const char* bad : {"3", "int3", "nf4", "FP16", ""})
            QVERIFY_THROWS_EXCEPTION(InputError, graph::parse_weight_precision(bad));
    }
};

QTEST_APPLESS_MAIN(WeightPrecisionTest)
#include "weight_precision_test.moc"
