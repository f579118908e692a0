// The "decoder" space: small language-model decoders with a key/value cache, written by
// write_llm as the published ones are (llm_writer.hpp), at random widths, depths, head counts,
// vocabularies and precisions, in the four styles the published ones come in: Llama (SwiGLU),
// Qwen2 (biases on q, k and v), Phi-3 (fused projections) and Gemma 2 (GELU, soft caps, a
// sliding window, norms after attention and the MLP). Each is measured at a few steps: prefills
// of a few lengths and decode steps after a few cached lengths. Calibration measures them beside
// the CNNs and encoders (calibration_pool.hpp); `cleave generate-models --space decoder` writes
// them for checking a calibrated device on decoders it never measured.
#pragma once

#include "llm_writer.hpp"

#include <cstdint>
#include <vector>

namespace cleave::modelgen {

struct DecoderSample {
    // name: "<style>_d<hidden>_l<layers>_h<heads>kv<kv heads>_<precision>_<form>_<number>", so that
    // profile::model_family gives the style, which a calibration holds out together.
    LlmConfig config;
    LlmPrecision precision = LlmPrecision::Fp32;
    LlmForm form = LlmForm::Onnx;
    std::vector<std::int64_t> prefill_lengths; // tokens of a prefill, nothing cached
    std::vector<std::int64_t> decode_contexts; // tokens cached before a decode step
};

// `count` decoders, numbered from `first` (the same seed gives the same sequence, so a pool can
// grow without repeating one). Hidden sizes 256 to 1024, 2 to 6 layers, grouped-query attention
// where the heads allow it; int4 ones (MatMulNBits) are written in the genai form, fp32 ones in
// either. Prefills of 16 to 1,024 tokens, kept under 40 GMACs (about 0.4 s at one thread here);
// decode steps after 64 to 8,192 cached tokens.
std::vector<DecoderSample> decoder_models(int first, int count, std::uint64_t seed);

} // namespace cleave::modelgen
