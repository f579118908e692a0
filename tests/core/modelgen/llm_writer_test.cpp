// write_llm: the files of each form, the context length in the metadata, random weights, and
// int4 refused in the onnx form.
#include "core/input_error.hpp"
#include "core/modelgen/llm_writer.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

onnx::ModelProto read(const fs::path& file) {
    onnx::ModelProto m;
    std::ifstream in(file, std::ios::binary);
    if (!m.ParseFromIstream(&in))
        throw std::runtime_error("unreadable " + file.string());
    return m;
}

std::string metadata(const onnx::ModelProto& m, const std::string& key) {
    for (const auto& p : m.metadata_props())
        if (p.key() == key)
            return p.value();
    return {};
}

} // namespace

class LlmWriterTest : public QObject {
    Q_OBJECT

private slots:
    void onnxFormWritesModelAndSparseData() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const auto* c = modelgen::find_llm_config("qwen2.5-0.5b");
        const auto w = modelgen::write_llm(*c, modelgen::LlmPrecision::Fp16,
                                           modelgen::LlmForm::Onnx, folder / "out");
        QCOMPARE(w.model_file, std::string("qwen2.5-0.5b.onnx"));
        QCOMPARE(w.data_file, std::string("qwen2.5-0.5b.onnx.data"));
        QVERIFY(w.config_file.empty());
        QVERIFY(!fs::exists(folder / "out" / "genai_config.json"));
        QCOMPARE(fs::file_size(folder / "out" / w.data_file), w.data_bytes);
        // 494M parameters (tied) in fp16, plus the rotary caches, page-aligned: about 1 GB.
        QVERIFY(w.data_bytes > 980'000'000 && w.data_bytes < 1'000'000'000);
        const auto m = read(folder / "out" / w.model_file);
        QCOMPARE(metadata(m, "context_length"), std::string("32768"));
        QCOMPARE(metadata(m, "source"),
                 std::string("https://huggingface.co/Qwen/Qwen2.5-0.5B/blob/main/config.json"));
        QCOMPARE(m.graph().node_size(), w.nodes);
    }

    void genaiFormWritesItsConfig() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const auto* c = modelgen::find_llm_config("smollm2-135m");
        const auto w =
            modelgen::write_llm(*c, modelgen::LlmPrecision::Int4, modelgen::LlmForm::Genai, folder);
        QCOMPARE(w.config_file, std::string("genai_config.json"));
        std::ifstream in(folder / "genai_config.json");
        const auto config = nlohmann::json::parse(in);
        QCOMPARE(config["model"]["context_length"].get<int>(), 8192);
        QCOMPARE(config["model"]["decoder"]["filename"].get<std::string>(),
                 std::string("smollm2-135m.onnx"));
        QCOMPARE(config["model"]["decoder"]["num_key_value_heads"].get<int>(), 3);
        QCOMPARE(metadata(read(folder / w.model_file), "context_length"), std::string("8192"));
    }

    // Random weights: the same seed writes the same bytes, another seed others; float weights of
    // a trained layer's scale, norm scales about 1, 4-bit scales of either sign.
    void randomWeightsAreSeededAndScaled() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        modelgen::LlmConfig c = *modelgen::find_llm_config("smollm2-135m");
        c.layers = 1;
        c.vocab = 512;
        c.name = "tiny";
        const auto read_bytes = [](const fs::path& file) {
            std::ifstream in(file, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        std::vector<std::string> data;
        for (const auto& [seed, sub] :
             {std::pair<std::uint64_t, const char*>{1, "a"}, {1, "b"}, {2, "c"}}) {
            const auto w = modelgen::write_llm(c, modelgen::LlmPrecision::Int4,
                                               modelgen::LlmForm::Genai, folder / sub, seed);
            data.push_back(read_bytes(folder / sub / w.data_file));
        }
        QVERIFY(data[0] == data[1]);
        QVERIFY(data[0] != data[2]);
        const auto m = read(folder / "a" / "tiny.onnx");
        const auto floats = [&](const std::string& suffix) {
            for (const auto& t : m.graph().initializer()) {
                if (!t.name().ends_with(suffix) || t.data_type() != onnx::TensorProto::FLOAT)
                    continue;
                std::size_t offset = 0, length = 0;
                for (const auto& e : t.external_data())
                    if (e.key() == "offset")
                        offset = std::stoull(e.value());
                    else if (e.key() == "length")
                        length = std::stoull(e.value());
                std::vector<float> values(length / 4);
                std::memcpy(values.data(), data[0].data() + offset, length);
                return values;
            }
            return std::vector<float>{};
        };
        const auto norm = floats("input_layernorm.weight");
        QVERIFY(!norm.empty());
        QVERIFY(
            std::all_of(norm.begin(), norm.end(), [](float v) { return v >= 0.9f && v <= 1.1f; }));
        const auto scales = floats(".scales");
        QVERIFY(!scales.empty());
        QVERIFY(std::any_of(scales.begin(), scales.end(), [](float v) { return v < 0; }));
        QVERIFY(std::any_of(scales.begin(), scales.end(), [](float v) { return v > 0; }));
        const auto embedding = floats("embed_tokens.weight");
        double sum = 0;
        for (const float v : embedding)
            sum += static_cast<double>(v) * v;
        const double variance = sum / static_cast<double>(embedding.size());
        QVERIFY2(std::abs(variance * 512 - 1) < 0.1, std::to_string(variance).c_str()); // 1/vocab
    }

    void int4IsRefusedInTheOnnxForm() {
        QTemporaryDir dir;
        const auto* c = modelgen::find_llm_config("smollm2-135m");
        try {
            modelgen::write_llm(*c, modelgen::LlmPrecision::Int4, modelgen::LlmForm::Onnx,
                                dir.path().toStdString());
            QFAIL("int4 in the onnx form was written");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("genai form only") != std::string::npos, e.what());
        }
        QVERIFY(fs::is_empty(dir.path().toStdString()));
        QCOMPARE(modelgen::parse_llm_precision("fp16", "--precision"),
                 modelgen::LlmPrecision::Fp16);
        QCOMPARE(modelgen::parse_llm_form("genai", "--form"), modelgen::LlmForm::Genai);
        QVERIFY_THROWS_EXCEPTION(InputError, modelgen::parse_llm_form("tflite", "--form"));
    }
};

QTEST_GUILESS_MAIN(LlmWriterTest)
#include "llm_writer_test.moc"
