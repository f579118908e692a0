#include "newer_shape_rules.hpp"

#include <cstring>

namespace cleave::graph::shape_rules {

bool has_input(onnx::InferenceContext& ctx, std::size_t index) {
    return index < ctx.getNumInputs() && ctx.getInputType(index) != nullptr;
}

std::optional<std::vector<std::int64_t>> input_ints(onnx::InferenceContext& ctx,
                                                    std::size_t index) {
    const auto* t = has_input(ctx, index) ? ctx.getInputData(index) : nullptr;
    if (!t)
        return std::nullopt;
    std::vector<std::int64_t> values;
    if (t->data_type() == onnx::TensorProto::INT64) {
        if (t->has_raw_data()) {
            values.resize(t->raw_data().size() / sizeof(std::int64_t));
            std::memcpy(values.data(), t->raw_data().data(), values.size() * sizeof(std::int64_t));
        } else {
            values.assign(t->int64_data().begin(), t->int64_data().end());
        }
    } else if (t->data_type() == onnx::TensorProto::INT32) {
        if (t->has_raw_data()) {
            std::vector<std::int32_t> narrow(t->raw_data().size() / sizeof(std::int32_t));
            std::memcpy(narrow.data(), t->raw_data().data(), narrow.size() * sizeof(std::int32_t));
            values.assign(narrow.begin(), narrow.end());
        } else {
            values.assign(t->int32_data().begin(), t->int32_data().end());
        }
    } else {
        return std::nullopt;
    }
    return values;
}

int normalized_axis(std::int64_t axis, int rank, const char* op) {
    if (axis < -rank || axis >= rank)
        fail_shape_inference(op, ": axis ", axis, " is outside [-", rank, ", ", rank, ")");
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

std::vector<std::int64_t> ints_attribute(onnx::InferenceContext& ctx, const char* name,
                                         std::vector<std::int64_t> fallback) {
    const auto* a = ctx.getAttribute(name);
    if (!a)
        return fallback;
    return {a->ints().begin(), a->ints().end()};
}

onnx::TensorShapeProto& fresh_output_shape(onnx::InferenceContext& ctx, std::size_t index) {
    auto* shape = ctx.getOutputType(index)->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    return *shape;
}

void add_dim(onnx::TensorShapeProto& shape, std::int64_t value) {
    auto* dim = shape.add_dim();
    if (value >= 0)
        dim->set_dim_value(value);
}

std::int64_t dim_value(const onnx::TensorShapeProto& shape, int index) {
    const auto& dim = shape.dim(index);
    return dim.has_dim_value() ? dim.dim_value() : -1;
}

void infer_same_shape(onnx::InferenceContext& ctx) {
    onnx::propagateShapeAndTypeFromFirstInput(ctx);
}

// libonnx 1.12's Cast rule refuses a `to` its enum lacks (float8, int4).
void infer_cast_19(onnx::InferenceContext& ctx) {
    const auto* to = ctx.getAttribute("to");
    if (!to || !to->has_i())
        fail_type_inference("Cast: no 'to' type");
    onnx::updateOutputElemType(ctx, 0, static_cast<std::int32_t>(to->i()));
    if (onnx::hasInputShape(ctx, 0))
        onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}

void infer_broadcast(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (onnx::hasNInputShapes(ctx, 2))
        onnx::bidirectionalBroadcastShapeInference(ctx.getInputType(0)->tensor_type().shape(),
                                                   ctx.getInputType(1)->tensor_type().shape(),
                                                   *onnx::getOutputShape(ctx, 0));
}

// OptionalGetElement-18 also takes a plain tensor, which it passes on.
void infer_optional_get_element_18(onnx::InferenceContext& ctx) {
    const auto* input = ctx.getInputType(0);
    if (!input)
        fail_shape_inference("OptionalGetElement: the input has no type");
    *ctx.getOutputType(0) =
        input->has_optional_type() ? input->optional_type().elem_type() : *input;
}

// OptionalHasElement-18's input may be omitted (an empty optional): a bool scalar either way.
void infer_optional_has_element_18(onnx::InferenceContext& ctx) {
    onnx::updateOutputElemType(ctx, 0, onnx::TensorProto::BOOL);
    fresh_output_shape(ctx, 0);
}

void infer_regex_full_match_20(onnx::InferenceContext& ctx) {
    onnx::updateOutputElemType(ctx, 0, onnx::TensorProto::BOOL);
    if (onnx::hasInputShape(ctx, 0))
        onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}

// The substrings gain a last dim as long as the most pieces, which depends on the text.
void infer_string_split_20(onnx::InferenceContext& ctx) {
    onnx::updateOutputElemType(ctx, 0, onnx::TensorProto::STRING);
    onnx::updateOutputElemType(ctx, 1, onnx::TensorProto::INT64);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    onnx::propagateShapeFromInputToOutput(ctx, 0, 1);
    onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
    onnx::getOutputShape(ctx, 0)->add_dim();
}

// An image's height, width and channels follow from the encoded bytes only.
void infer_image_decoder_20(onnx::InferenceContext& ctx) {
    onnx::updateOutputElemType(ctx, 0, onnx::TensorProto::UINT8);
    auto& shape = fresh_output_shape(ctx, 0);
    for (int i = 0; i < 3; ++i)
        shape.add_dim();
}

} // namespace cleave::graph::shape_rules
