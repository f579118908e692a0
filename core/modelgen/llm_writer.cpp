#include "llm_writer.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "llm_genai_form.hpp"
#include "llm_onnx_form.hpp"

namespace cleave::modelgen {

std::string_view to_string(LlmPrecision precision) {
    switch (precision) {
    case LlmPrecision::Fp32:
        return "fp32";
    case LlmPrecision::Fp16:
        return "fp16";
    case LlmPrecision::Int4:
        return "int4";
    }
    return {};
}

std::string_view to_string(LlmForm form) {
    return form == LlmForm::Onnx ? "onnx" : "genai";
}

LlmPrecision parse_llm_precision(std::string_view text, const std::string& flag) {
    for (const auto p : {LlmPrecision::Fp32, LlmPrecision::Fp16, LlmPrecision::Int4})
        if (to_string(p) == text)
            return p;
    throw InputError(
        "", flag, "unknown precision \"" + std::string(text) + "\"; expected fp32, fp16 or int4");
}

LlmForm parse_llm_form(std::string_view text, const std::string& flag) {
    for (const auto f : {LlmForm::Onnx, LlmForm::Genai})
        if (to_string(f) == text)
            return f;
    throw InputError("", flag,
                     "unknown form \"" + std::string(text) + "\"; expected onnx or genai");
}

WrittenLlm write_llm(const LlmConfig& config, LlmPrecision precision, LlmForm form,
                     const std::filesystem::path& folder,
                     std::optional<std::uint64_t> random_seed) {
    if (form == LlmForm::Onnx && precision == LlmPrecision::Int4)
        throw InputError("", "--precision",
                         "int4 weights are written in the genai form only (MatMulNBits); use "
                         "--form genai, or fp32 or fp16 for the onnx form");
    // int4 keeps float activations and scales, as the GenAI builder writes int4 for the CPU.
    const int float_type =
        precision == LlmPrecision::Fp16 ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::FLOAT;
    LlmGraph graph(config.name, float_type, form == LlmForm::Genai);
    if (form == LlmForm::Onnx)
        build_llm_onnx_form(config, graph);
    else
        build_llm_genai_form(config, precision == LlmPrecision::Int4, graph);
    graph.metadata("context_length", std::to_string(config.context));
    graph.metadata("source",
                   config.hf_id.empty()
                       ? std::string("cleave generate-models --space decoder")
                       : "https://huggingface.co/" + config.hf_id + "/blob/main/config.json");

    std::filesystem::create_directories(folder);
    WrittenLlm written;
    written.model_file = config.name + ".onnx";
    written.data_file = written.model_file + ".data";
    graph.save(folder, written.model_file, random_seed);
    written.data_bytes = graph.data_bytes();
    written.nodes = graph.model().graph().node_size();
    written.context = config.context;
    if (form == LlmForm::Genai) {
        written.config_file = "genai_config.json";
        write_file_atomically(folder / written.config_file,
                              genai_config(config, written.model_file).dump(4) + "\n");
    }
    return written;
}

} // namespace cleave::modelgen
