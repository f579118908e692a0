// `cleave generate-models --llm NAME`: a published language model's decoder with its key/value
// cache written as ONNX (docs/model-generation.md), its weights as a sparse external data file
// (all zero, no disk used) or random ones, in the plain exporter form or ONNX Runtime GenAI's.
#pragma once

#include "llm_configs.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cleave::modelgen {

enum class LlmPrecision { Fp32, Fp16, Int4 };
enum class LlmForm { Onnx, Genai };

// "fp32", "fp16", "int4"; "onnx", "genai". The parsers throw InputError naming `flag`.
std::string_view to_string(LlmPrecision precision);
std::string_view to_string(LlmForm form);
LlmPrecision parse_llm_precision(std::string_view text, const std::string& flag);
LlmForm parse_llm_form(std::string_view text, const std::string& flag);

struct WrittenLlm {
    std::string model_file;  // NAME.onnx, inside the folder
    std::string data_file;   // NAME.onnx.data
    std::string config_file; // genai_config.json for the genai form, else empty
    std::uint64_t data_bytes = 0;
    int nodes = 0;
    std::int64_t context = 0;
};

// Writes `config`'s decoder into `folder` (created): NAME.onnx, NAME.onnx.data and, for the
// genai form, genai_config.json. The model's metadata_props hold context_length (the config's
// max_position_embeddings) and source (its config.json). Throws InputError for int4 in the onnx
// form (int4 weights are written as the genai form's MatMulNBits only). fp16: weights and
// activations in half precision; int4: MatMulNBits weights, float activations and scales (as
// the GenAI builder writes int4 for the CPU), the embedding table float.
// Given `random_seed`, the weights are random (random_weight_values) instead of zeros.
WrittenLlm write_llm(const LlmConfig& config, LlmPrecision precision, LlmForm form,
                     const std::filesystem::path& folder,
                     std::optional<std::uint64_t> random_seed = std::nullopt);

} // namespace cleave::modelgen
