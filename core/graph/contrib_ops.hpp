// ONNX Runtime's contrib ops that language models are deployed with (ONNX Runtime GenAI's model
// builder writes every Llama, Phi, Qwen and Mistral export with them): their schemas, with
// Cleave's own shape inference following ONNX Runtime's, registered into libonnx's registry so
// that the importer checks and infers their nodes as it does built-in ones. Internal to
// core/graph; the rules are those of docs/graph-features.md.
#pragma once

namespace cleave::graph {

// Registers the schemas once per process: MatMulNBits, GroupQueryAttention, MultiHeadAttention,
// RotaryEmbedding, SkipSimplifiedLayerNormalization, SkipLayerNormalization,
// GatherBlockQuantized, QuickGelu and FastGelu in com.microsoft opset 1, and
// SimplifiedLayerNormalization in the default domain since opset 1, where ONNX Runtime registers
// it. Later calls do nothing.
void register_contrib_op_schemas();

} // namespace cleave::graph
