#include "contrib_ops.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>
#include <optional>
#include <vector>

namespace cleave::graph {

namespace {

using onnx::InferenceContext;
using onnx::TensorShapeProto;
using Dim = TensorShapeProto::Dimension;
using Dims = std::vector<Dim>;

constexpr const char* kMicrosoftDomain = "com.microsoft";

const TensorShapeProto* input_shape(InferenceContext& ctx, std::size_t i) {
    if (i >= ctx.getNumInputs())
        return nullptr;
    const auto* type = ctx.getInputType(i);
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
        return nullptr;
    return &type->tensor_type().shape();
}

// The element type of input i, 0 where it is absent or untyped.
int input_elem_type(InferenceContext& ctx, std::size_t i) {
    const auto* type = i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr;
    return type && type->has_tensor_type() ? type->tensor_type().elem_type() : 0;
}

std::int64_t int_attribute(InferenceContext& ctx, const char* name, std::int64_t fallback) {
    const auto* a = ctx.getAttribute(name);
    return a && a->has_i() ? a->i() : fallback;
}

Dim value_dim(std::int64_t value) {
    Dim d;
    d.set_dim_value(value);
    return d;
}

Dims dims_of(const TensorShapeProto& shape) {
    return {shape.dim().begin(), shape.dim().end()};
}

// Output `out` gets element type `elem_type` (where known) and `dims` (where given).
void write_output(InferenceContext& ctx, std::size_t out, int elem_type, const Dims* dims) {
    if (out >= ctx.getNumOutputs())
        return;
    auto* tensor = ctx.getOutputType(out)->mutable_tensor_type();
    if (elem_type != 0)
        tensor->set_elem_type(elem_type);
    if (!dims)
        return;
    auto* shape = tensor->mutable_shape();
    shape->clear_dim();
    for (const auto& d : *dims)
        *shape->add_dim() = d;
}

// Output `out` is input `in`, type and shape.
void same_as_input(InferenceContext& ctx, std::size_t in, std::size_t out) {
    const auto* shape = input_shape(ctx, in);
    const Dims dims = shape ? dims_of(*shape) : Dims{};
    write_output(ctx, out, input_elem_type(ctx, in), shape ? &dims : nullptr);
}

// A one-element integer tensor's value (total_sequence_length, folded from the attention mask's
// shape where the exporter computes it).
std::optional<std::int64_t> scalar_value(const onnx::TensorProto* t) {
    if (!t)
        return std::nullopt;
    if (t->int64_data_size() == 1)
        return t->int64_data(0);
    if (t->int32_data_size() == 1)
        return t->int32_data(0);
    const std::string& raw = t->raw_data();
    if (t->data_type() == onnx::TensorProto::INT32 && raw.size() == 4) {
        std::int32_t v = 0;
        std::memcpy(&v, raw.data(), 4);
        return v;
    }
    if (t->data_type() == onnx::TensorProto::INT64 && raw.size() == 8) {
        std::int64_t v = 0;
        std::memcpy(&v, raw.data(), 8);
        return v;
    }
    return std::nullopt;
}

// Y = A x dequantized B: A's dims with the last one N.
void infer_matmul_nbits(InferenceContext& ctx) {
    const auto k = int_attribute(ctx, "K", 0);
    const auto n = int_attribute(ctx, "N", 0);
    if (k < 1 || n < 1)
        fail_shape_inference("MatMulNBits: attributes K and N must be >= 1");
    const auto* a = input_shape(ctx, 0);
    if (!a) {
        write_output(ctx, 0, input_elem_type(ctx, 0), nullptr);
        return;
    }
    if (a->dim_size() < 1)
        fail_shape_inference("MatMulNBits: A must have a rank >= 1");
    const auto& last = a->dim(a->dim_size() - 1);
    if (last.has_dim_value() && last.dim_value() != k)
        fail_shape_inference("MatMulNBits: A's last dim is not K");
    Dims dims = dims_of(*a);
    dims.back() = value_dim(n);
    write_output(ctx, 0, input_elem_type(ctx, 0), &dims);
}

// The present key and value of GroupQueryAttention, by ONNX Runtime's rules: with a past, its
// batch, heads and head size, and max(past, total_sequence_length) tokens where the total is
// known (the past buffer's own length with sliding_window_cache); with none, the query's batch,
// kv_num_heads, the total (or the new tokens) and the head size.
void infer_gqa_present(InferenceContext& ctx, std::int64_t head_size, std::int64_t kv_sequence) {
    const int type = input_elem_type(ctx, 3) ? input_elem_type(ctx, 3) : input_elem_type(ctx, 0);
    const auto total = ctx.getNumInputs() > 6 ? scalar_value(ctx.getInputData(6)) : std::nullopt;
    const auto* past = input_shape(ctx, 3);
    Dims present;
    if (past) {
        if (past->dim_size() != 4)
            fail_shape_inference("GroupQueryAttention: past_key must have rank 4");
        present = dims_of(*past);
        const auto& past_length = past->dim(2);
        const bool fixed_buffer = int_attribute(ctx, "sliding_window_cache", 0) == 1;
        if (!fixed_buffer && total && *total > 0 && past_length.has_dim_value())
            present[2] = value_dim(std::max(*total, past_length.dim_value()));
        else if (!fixed_buffer && ctx.getNumInputs() > 6 && past_length.has_dim_value() &&
                 past_length.dim_value() == 0)
            present[2] = Dim(); // grows by an amount not known here
    } else if (const auto* query = input_shape(ctx, 0); query && head_size > 0) {
        present = {query->dim(0), value_dim(int_attribute(ctx, "kv_num_heads", 0)),
                   total && *total > 0 ? value_dim(*total)
                   : kv_sequence > 0   ? value_dim(kv_sequence)
                                       : query->dim(1),
                   value_dim(head_size)};
    }
    write_output(ctx, 1, type, present.empty() ? nullptr : &present);
    write_output(ctx, 2, type, present.empty() ? nullptr : &present);
}

// query [B, S, num_heads x H] with key and value [B, L, kv_num_heads x H], or packed
// [B, S, (num_heads + 2 kv_num_heads) x H] alone; output [B, S, num_heads x H].
void infer_group_query_attention(InferenceContext& ctx) {
    const auto heads = int_attribute(ctx, "num_heads", 0);
    const auto kv_heads = int_attribute(ctx, "kv_num_heads", 0);
    if (heads < 1 || kv_heads < 1 || heads % kv_heads != 0)
        fail_shape_inference("GroupQueryAttention: num_heads must be a multiple of kv_num_heads");
    const bool packed = ctx.getNumInputs() < 3 || !ctx.getInputType(2);
    const auto* query = input_shape(ctx, 0);
    std::int64_t head_size = 0;
    std::int64_t kv_sequence = -1;
    if (query) {
        if (query->dim_size() != 3)
            fail_shape_inference("GroupQueryAttention: query must have rank 3");
        Dims out = dims_of(*query);
        if (out[2].has_dim_value()) {
            head_size = out[2].dim_value() / (packed ? heads + 2 * kv_heads : heads);
            out[2] = value_dim(head_size * heads);
        }
        const auto* kv = packed ? query : input_shape(ctx, 2);
        if (kv && kv->dim_size() == 3 && kv->dim(1).has_dim_value())
            kv_sequence = kv->dim(1).dim_value();
        write_output(ctx, 0, input_elem_type(ctx, 0), &out);
    } else {
        write_output(ctx, 0, input_elem_type(ctx, 0), nullptr);
    }
    if (ctx.getNumOutputs() >= 3)
        infer_gqa_present(ctx, head_size, kv_sequence);
}

// MultiHeadAttention: query [B, S, D] (or packed [B, S, N, 3, H]); key and value [B, L, D] or
// [B, N, L, H]; output [B, S, Dv]; present [B, N, past + L, H].
void infer_multi_head_attention(InferenceContext& ctx) {
    const auto heads = int_attribute(ctx, "num_heads", 0);
    if (heads < 1)
        fail_shape_inference("MultiHeadAttention: num_heads must be >= 1");
    const auto* query = input_shape(ctx, 0);
    const auto* key = input_shape(ctx, 1);
    const auto* value = input_shape(ctx, 2);
    if (!query || (query->dim_size() != 3 && query->dim_size() != 5)) {
        write_output(ctx, 0, input_elem_type(ctx, 0), nullptr);
        return;
    }
    const auto product = [](const Dim& a, const Dim& b) {
        return a.has_dim_value() && b.has_dim_value() ? value_dim(a.dim_value() * b.dim_value())
                                                      : Dim();
    };
    Dims out{query->dim(0), query->dim(1), query->dim(2)};
    if (query->dim_size() == 5)
        out[2] = product(query->dim(2), query->dim(4));
    else if (value && value->dim_size() == 3)
        out[2] = value->dim(2);
    else if (value && value->dim_size() == 4)
        out[2] = product(value->dim(1), value->dim(3));
    write_output(ctx, 0, input_elem_type(ctx, 0), &out);

    const auto* past = input_shape(ctx, 6);
    if (!key || key->dim_size() != 3 || !key->dim(1).has_dim_value())
        return;
    const auto length = key->dim(1).dim_value();
    for (std::size_t i = 0; i < 2; ++i) {
        const auto* source = i == 0 ? key : value;
        const auto* past_i = input_shape(ctx, 6 + i);
        Dims present;
        if (past && past_i && past_i->dim_size() == 4 && past_i->dim(2).has_dim_value()) {
            present = dims_of(*past_i);
            present[2] = value_dim(past_i->dim(2).dim_value() + length);
        } else if (!past && source && source->dim_size() == 3 && source->dim(2).has_dim_value()) {
            present = {source->dim(0), value_dim(heads), value_dim(length),
                       value_dim(source->dim(2).dim_value() / heads)};
        }
        write_output(ctx, 1 + i, input_elem_type(ctx, 0), present.empty() ? nullptr : &present);
    }
}

// The normalisations' statistics (mean, inverse standard deviation): the input's dims with those
// from `axis` on set to 1, in float.
void write_statistic(InferenceContext& ctx, std::size_t out, std::int64_t axis) {
    const auto* x = input_shape(ctx, 0);
    if (!x) {
        write_output(ctx, out, onnx::TensorProto::FLOAT, nullptr);
        return;
    }
    Dims dims = dims_of(*x);
    const auto rank = static_cast<std::int64_t>(dims.size());
    const auto from = axis < 0 ? axis + rank : axis;
    for (auto i = std::max<std::int64_t>(from, 0); i < rank; ++i)
        dims[static_cast<std::size_t>(i)] = value_dim(1);
    write_output(ctx, out, onnx::TensorProto::FLOAT, &dims);
}

void infer_simplified_layer_normalization(InferenceContext& ctx) {
    same_as_input(ctx, 0, 0);
    write_statistic(ctx, 1, int_attribute(ctx, "axis", -1));
}

// Skip(Simplified)LayerNormalization: output and input_skip_bias_sum are the input's shape,
// mean and inv_std_var [..., 1].
void infer_skip_layer_normalization(InferenceContext& ctx) {
    same_as_input(ctx, 0, 0);
    write_statistic(ctx, 1, -1);
    write_statistic(ctx, 2, -1);
    same_as_input(ctx, 0, 3);
}

// data[:gather_axis] + indices + data[gather_axis + 1:], the last dim unpacked (8 / bits values a
// byte) where data is uint8; the scales' element type.
void infer_gather_block_quantized(InferenceContext& ctx) {
    const auto* data = input_shape(ctx, 0);
    const auto* indices = input_shape(ctx, 1);
    const int type = input_elem_type(ctx, 2);
    if (!data || !indices || data->dim_size() < 1) {
        write_output(ctx, 0, type, nullptr);
        return;
    }
    const auto rank = data->dim_size();
    auto axis = int_attribute(ctx, "gather_axis", 0);
    axis = axis < 0 ? axis + rank : axis;
    const auto bits = int_attribute(ctx, "bits", 4);
    if (axis < 0 || axis >= rank || bits < 1 || bits > 8)
        fail_shape_inference("GatherBlockQuantized: gather_axis or bits out of range");
    Dims last_dims = dims_of(*data);
    auto& last = last_dims.back();
    if (input_elem_type(ctx, 0) == onnx::TensorProto::UINT8 && last.has_dim_value())
        last = value_dim(last.dim_value() * (8 / bits));
    Dims out(last_dims.begin(), last_dims.begin() + axis);
    out.insert(out.end(), indices->dim().begin(), indices->dim().end());
    out.insert(out.end(), last_dims.begin() + axis + 1, last_dims.end());
    write_output(ctx, 0, type, &out);
}

void infer_like_input(InferenceContext& ctx) {
    same_as_input(ctx, 0, 0);
}

struct ContribOp {
    const char* name;
    const char* domain;
    std::vector<const char*> inputs;  // a leading '?' marks an optional one
    std::vector<const char*> outputs; // likewise
    std::vector<const char*> required_ints;
    void (*infer)(InferenceContext&);
};

// ONNX Runtime's input and output lists (onnxruntime/core/graph/contrib_ops); attributes beyond
// the required ones are not checked, as newer exports add some.
std::vector<ContribOp> contrib_ops() {
    return {
        {"MatMulNBits",
         kMicrosoftDomain,
         {"A", "B", "scales", "?zero_points", "?g_idx", "?bias"},
         {"Y"},
         {"K", "N", "block_size"},
         infer_matmul_nbits},
        {"GroupQueryAttention",
         kMicrosoftDomain,
         {"query", "?key", "?value", "?past_key", "?past_value", "seqlens_k",
          "total_sequence_length", "?cos_cache", "?sin_cache", "?position_ids", "?attention_bias",
          "?head_sink"},
         {"output", "?present_key", "?present_value", "?output_qk"},
         {"num_heads", "kv_num_heads"},
         infer_group_query_attention},
        {"MultiHeadAttention",
         kMicrosoftDomain,
         {"query", "?key", "?value", "?bias", "?key_padding_mask", "?attention_bias", "?past_key",
          "?past_value", "?past_sequence_length", "?cache_indirection"},
         {"output", "?present_key", "?present_value", "?qk"},
         {"num_heads"},
         infer_multi_head_attention},
        {"RotaryEmbedding",
         kMicrosoftDomain,
         {"input", "?position_ids", "cos_cache", "sin_cache"},
         {"output"},
         {},
         infer_like_input},
        {"SkipSimplifiedLayerNormalization",
         kMicrosoftDomain,
         {"input", "skip", "gamma", "?bias"},
         {"output", "?mean", "?inv_std_var", "?input_skip_bias_sum"},
         {},
         infer_skip_layer_normalization},
        {"SkipLayerNormalization",
         kMicrosoftDomain,
         {"input", "skip", "gamma", "?beta", "?bias"},
         {"output", "?mean", "?inv_std_var", "?input_skip_bias_sum"},
         {},
         infer_skip_layer_normalization},
        {"GatherBlockQuantized",
         kMicrosoftDomain,
         {"data", "indices", "scales", "?zero_points"},
         {"output"},
         {},
         infer_gather_block_quantized},
        {"QuickGelu", kMicrosoftDomain, {"X"}, {"Y"}, {}, infer_like_input},
        {"FastGelu", kMicrosoftDomain, {"X", "?bias"}, {"Y"}, {}, infer_like_input},
        {"SimplifiedLayerNormalization",
         "",
         {"X", "scale"},
         {"Y", "?inv_std_var"},
         {},
         infer_simplified_layer_normalization},
    };
}

void register_op(const ContribOp& op) {
    if (onnx::OpSchemaRegistry::Schema(op.name, op.domain))
        return; // a libonnx that knows it already
    onnx::OpSchema schema(op.name, "core/graph/contrib_ops.cpp", __LINE__); // not the build path
    schema.SetDomain(op.domain).SinceVersion(1).AllowUncheckedAttributes().TypeConstraint(
        "T", onnx::OpSchema::all_tensor_types(), "any tensor");
    const auto parameter = [](const char* name) {
        const bool optional = name[0] == '?';
        return std::pair{std::string(name + (optional ? 1 : 0)),
                         optional ? onnx::OpSchema::Optional : onnx::OpSchema::Single};
    };
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        const auto [name, option] = parameter(op.inputs[i]);
        schema.Input(static_cast<int>(i), name, "", "T", option);
    }
    for (std::size_t i = 0; i < op.outputs.size(); ++i) {
        const auto [name, option] = parameter(op.outputs[i]);
        schema.Output(static_cast<int>(i), name, "", "T", option);
    }
    for (const char* attribute : op.required_ints)
        schema.Attr(attribute, "", onnx::AttributeProto::INT, true);
    schema.TypeAndShapeInferenceFunction(op.infer);
    onnx::OpSchemaRegistry::OpSchemaRegisterOnce registered(schema);
}

} // namespace

void register_contrib_op_schemas() {
    static std::once_flag once;
    std::call_once(once, [] {
        onnx::OpSchemaRegistry::Schema("Add"); // libonnx registers its own schemas first
        auto& domains = onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
        if (!domains.Map().count(kMicrosoftDomain))
            domains.AddDomainToVersion(kMicrosoftDomain, 1, 1);
        for (const auto& op : contrib_ops())
            register_op(op);
    });
}

} // namespace cleave::graph
