// A decoder's weight precision as a what-if (docs/partition.md, "Precision what-if"): the model
// file fixes the precision its matrix weights are stored in; costing it at another re-types those
// weights (a matrix product's weight input, as ONNX Runtime GenAI's int4 export quantizes them:
// the embedding table stays as stored) before prediction and memory, so weights, their bytes read
// per step and what fits all follow. Labelled wherever it shows.
#pragma once

#include "model.hpp"

#include <optional>
#include <string>

namespace cleave::graph {

enum class WeightPrecision { fp32, fp16, int8, int4 };

// "fp32", "fp16", "int8" or "int4"; anything else (3 bits, "nf4") is an InputError at
// `--precision` naming what the cost model expresses.
WeightPrecision parse_weight_precision(const std::string& text);
const char* to_string(WeightPrecision precision);

// The precision most matrix weights are stored in, counted by weight (MatMulNBits: int4);
// nullopt for a model without matrix weights.
std::optional<WeightPrecision> stored_weight_precision(const Model& model);

// Re-types every floating-point matrix weight (MatMul and Gemm initializer inputs of two dims or
// more) as `precision`: a 4-bit weight is half a byte (its block scales, an
// fp16 per 32 weights, are not counted). Returns the weights re-typed. Throws InputError
// (model.file, "--precision") for a model whose matrix weights are stored quantized, which the
// what-if cannot widen.
int requantize_weights(Model& model, WeightPrecision precision);

} // namespace cleave::graph
