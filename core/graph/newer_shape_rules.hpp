// Cleave's shape rules for the default-domain op versions of opsets 18 to 21 whose inputs or
// attributes changed after libonnx 1.12's newest (newer_op_schemas.hpp). Each is an
// onnx::InferenceFunction: it sets the outputs' element types and what it can of their shapes,
// and leaves a dim unknown where it depends on data it cannot read. Internal to core/graph.
#pragma once

#include <cstdint>
#include <onnx/defs/shape_inference.h>
#include <optional>
#include <vector>

namespace cleave::graph::shape_rules {

// Helpers shared by the rules (newer_shape_rules.cpp).

// Whether input `index` is given (an omitted optional input has no type).
bool has_input(onnx::InferenceContext& ctx, std::size_t index);
// The integers input `index` holds, where inference knows its data (a constant or a folded
// shape computation).
std::optional<std::vector<std::int64_t>> input_ints(onnx::InferenceContext& ctx, std::size_t index);
// An axis in [-rank, rank) made non-negative; fails inference outside it.
int normalized_axis(std::int64_t axis, int rank, const char* op);
// An INTS attribute, or `fallback` when the node does not have it.
std::vector<std::int64_t> ints_attribute(onnx::InferenceContext& ctx, const char* name,
                                         std::vector<std::int64_t> fallback = {});
// Output `index`'s shape cleared, ready for add_dim.
onnx::TensorShapeProto& fresh_output_shape(onnx::InferenceContext& ctx, std::size_t index);
// Appends a dim: its value where >= 0, unknown otherwise.
void add_dim(onnx::TensorShapeProto& shape, std::int64_t value);
// A dim's value, or -1 when unknown.
std::int64_t dim_value(const onnx::TensorShapeProto& shape, int index);

// Tensor ops (newer_tensor_rules.cpp).
void infer_split_18(onnx::InferenceContext& ctx);
void infer_pad_18(onnx::InferenceContext& ctx);
void infer_resize_18(onnx::InferenceContext& ctx);
void infer_center_crop_pad_18(onnx::InferenceContext& ctx);
void infer_col2im_18(onnx::InferenceContext& ctx);
void infer_affine_grid_20(onnx::InferenceContext& ctx);
void infer_grid_sample_20(onnx::InferenceContext& ctx);
void infer_dft_20(onnx::InferenceContext& ctx);

// Neural-network ops (newer_nn_rules.cpp).
void infer_pool_18(onnx::InferenceContext& ctx); // LpPool-18, AveragePool-19: dilations, ceil_mode
void infer_deform_conv_19(onnx::InferenceContext& ctx);

// Elementwise, optional and string ops (newer_shape_rules.cpp).
void infer_same_shape(onnx::InferenceContext& ctx); // Y's type and shape are X's
void infer_broadcast(onnx::InferenceContext& ctx);  // two inputs broadcast, the first's type
void infer_cast_19(onnx::InferenceContext& ctx);    // Cast-19 and 21: saturate, newer types
void infer_optional_get_element_18(onnx::InferenceContext& ctx);
void infer_optional_has_element_18(onnx::InferenceContext& ctx);
void infer_regex_full_match_20(onnx::InferenceContext& ctx);
void infer_string_split_20(onnx::InferenceContext& ctx);
void infer_image_decoder_20(onnx::InferenceContext& ctx);

// Quantization (newer_quantization_rules.cpp).
void infer_quantize_linear_19(onnx::InferenceContext& ctx);
void infer_quantize_linear_21(onnx::InferenceContext& ctx);
void infer_dequantize_linear_19(onnx::InferenceContext& ctx);
void infer_dequantize_linear_21(onnx::InferenceContext& ctx);

} // namespace cleave::graph::shape_rules
