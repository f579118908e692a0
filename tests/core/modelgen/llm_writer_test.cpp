// write_llm: the files of each form, the context length in the metadata, and int4 refused in
// the onnx form.
#include "core/input_error.hpp"
#include "core/modelgen/llm_writer.hpp"

#include <QTemporaryDir>
#include <QtTest>
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
