// Shape rules for QuantizeLinear and DequantizeLinear 19 and 21 (newer_shape_rules.hpp): the
// full-precision side takes the scale's type (float16 and bfloat16 too), and opset 21's blocked
// quantization gives the scale the input's rank with one dim in ceil(dim / block_size).
#include "newer_op_schemas.hpp"
#include "newer_shape_rules.hpp"

#include <string>

namespace cleave::graph::shape_rules {

namespace {

std::string shape_text(const onnx::TensorShapeProto& shape) {
    if (shape.dim_size() == 0)
        return "a scalar";
    std::string text;
    for (int i = 0; i < shape.dim_size(); ++i) {
        const auto d = dim_value(shape, i);
        text += (i ? "x" : "") + (d < 0 ? std::string("?") : std::to_string(d));
    }
    return text;
}

struct QuantizationNames {
    const char* op;
    const char* scale;
    const char* zero_point;
};

// Whether the scale's shape is one a runtime takes for the node's granularity: with block_size 0
// a scalar (per tensor) or a 1-D of 1 or x's length along axis (per axis); with block_size B
// x's rank, x's dims, and ceil(D / B) along axis. A zero point must have the scale's shape.
void check_scale_shape(onnx::InferenceContext& ctx, const QuantizationNames& names) {
    if (!onnx::hasNInputShapes(ctx, 2))
        return;
    const auto& x = onnx::getInputShape(ctx, 0);
    const auto& scale = onnx::getInputShape(ctx, 1);
    const std::int64_t block = onnx::getAttribute(ctx, "block_size", 0);
    const auto refuse = [&](const std::string& expected) {
        throw NodeRuleError(std::string(names.op) + ": " + names.scale + "'s shape " +
                            shape_text(scale) + " does not fit block_size " +
                            std::to_string(block) + " along axis " +
                            std::to_string(onnx::getAttribute(ctx, "axis", 1)) + " of x's shape " +
                            shape_text(x) + "; expected " + expected);
    };
    if (block < 0)
        refuse("a block_size of 0 or more");
    const int rank = x.dim_size();
    if (block == 0 && scale.dim_size() == 0)
        return;
    if (rank == 0)
        refuse("a scalar");
    const auto axis = normalized_axis(onnx::getAttribute(ctx, "axis", 1), rank, names.op);
    if (block == 0) {
        const auto length = dim_value(x, axis);
        const auto given = scale.dim_size() == 1 ? dim_value(scale, 0) : -2;
        if (given == -2 || (given >= 0 && length >= 0 && given != 1 && given != length))
            refuse("a scalar or a 1-D of " +
                   (length < 0 ? std::string("the axis' length") : std::to_string(length)));
    } else {
        onnx::TensorShapeProto expected;
        bool fits = scale.dim_size() == rank;
        for (int i = 0; i < rank; ++i) {
            const auto d = dim_value(x, i);
            const auto want = d < 0 ? -1 : i == axis ? (d + block - 1) / block : d;
            add_dim(expected, want);
            if (fits && want >= 0 && dim_value(scale, i) >= 0)
                fits = dim_value(scale, i) == want;
        }
        if (!fits)
            refuse(shape_text(expected));
    }
    if (onnx::hasInputShape(ctx, 2)) {
        const auto& zero = onnx::getInputShape(ctx, 2);
        bool same = zero.dim_size() == scale.dim_size();
        for (int i = 0; same && i < zero.dim_size(); ++i)
            same = dim_value(zero, i) < 0 || dim_value(scale, i) < 0 ||
                   dim_value(zero, i) == dim_value(scale, i);
        if (!same)
            throw NodeRuleError(std::string(names.op) + ": " + names.zero_point + "'s shape " +
                                shape_text(zero) + " differs from " + names.scale + "'s " +
                                shape_text(scale));
    }
}

// QuantizeLinear's output type: the zero point's, else output_dtype's (opset 21), else uint8.
void infer_quantize(onnx::InferenceContext& ctx) {
    const auto* zero = has_input(ctx, 2) ? ctx.getInputType(2) : nullptr;
    const std::int64_t output_dtype = onnx::getAttribute(ctx, "output_dtype", 0);
    if (zero && zero->has_tensor_type())
        onnx::updateOutputElemType(ctx, 0, zero->tensor_type().elem_type());
    else
        onnx::updateOutputElemType(ctx, 0,
                                   output_dtype != 0 ? static_cast<std::int32_t>(output_dtype)
                                                     : onnx::TensorProto::UINT8);
    if (onnx::hasInputShape(ctx, 0))
        onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}

void infer_dequantize(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 1, 0);
    if (onnx::hasInputShape(ctx, 0))
        onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}

} // namespace

void infer_quantize_linear_19(onnx::InferenceContext& ctx) {
    infer_quantize(ctx);
}

void infer_quantize_linear_21(onnx::InferenceContext& ctx) {
    check_scale_shape(ctx, {"QuantizeLinear", "y_scale", "y_zero_point"});
    infer_quantize(ctx);
}

void infer_dequantize_linear_19(onnx::InferenceContext& ctx) {
    infer_dequantize(ctx);
}

void infer_dequantize_linear_21(onnx::InferenceContext& ctx) {
    check_scale_shape(ctx, {"DequantizeLinear", "x_scale", "x_zero_point"});
    infer_dequantize(ctx);
}

} // namespace cleave::graph::shape_rules
