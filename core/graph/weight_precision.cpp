#include "weight_precision.hpp"

#include "core/input_error.hpp"

#include <array>
#include <map>

namespace cleave::graph {

namespace {

DataType data_type(WeightPrecision p) {
    switch (p) {
    case WeightPrecision::fp32:
        return DataType::Float32;
    case WeightPrecision::fp16:
        return DataType::Float16;
    case WeightPrecision::int8:
        return DataType::Int8;
    case WeightPrecision::int4:
        return DataType::Int4;
    }
    return DataType::Float32;
}

bool floating(DataType t) {
    return t == DataType::Float32 || t == DataType::Float16 || t == DataType::BFloat16 ||
           t == DataType::Float64;
}

// Calls `weight(tensor index)` for each matrix weight: an initializer of two dims or more read
// by a default-domain MatMul or Gemm.
template <typename Weight> void for_each_matrix_weight(const Model& model, Weight&& weight) {
    for (const auto& node : model.nodes) {
        if (!node.domain.empty() || (node.op != "MatMul" && node.op != "Gemm"))
            continue;
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            const int t = node.inputs[i];
            if (t < 0)
                continue;
            const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
            if (tensor.kind == Tensor::Kind::Initializer && tensor.shape &&
                tensor.shape->size() >= 2)
                weight(t);
        }
    }
}

} // namespace

WeightPrecision parse_weight_precision(const std::string& text) {
    for (const auto p : {WeightPrecision::fp32, WeightPrecision::fp16, WeightPrecision::int8,
                         WeightPrecision::int4})
        if (text == to_string(p))
            return p;
    throw InputError("", "--precision",
                     "a weight precision the cost model expresses: fp32, fp16, int8 or int4, "
                     "found '" +
                         text + "'");
}

const char* to_string(WeightPrecision p) {
    switch (p) {
    case WeightPrecision::fp32:
        return "fp32";
    case WeightPrecision::fp16:
        return "fp16";
    case WeightPrecision::int8:
        return "int8";
    case WeightPrecision::int4:
        return "int4";
    }
    return "fp32";
}

std::optional<WeightPrecision> stored_weight_precision(const Model& model) {
    std::map<WeightPrecision, std::int64_t> bytes; // weights (elements) in each precision
    for (const auto& node : model.nodes)
        if (node.op == "MatMulNBits" && node.inputs.size() > 1 && node.inputs[1] >= 0)
            bytes[WeightPrecision::int4] +=
                2 * model.tensors[static_cast<std::size_t>(node.inputs[1])].bytes(); // packed
    for_each_matrix_weight(model, [&](int t) {
        const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        for (const auto p : {WeightPrecision::fp32, WeightPrecision::fp16, WeightPrecision::int8,
                             WeightPrecision::int4})
            if (tensor.dtype == data_type(p) ||
                (p == WeightPrecision::fp16 && tensor.dtype == DataType::BFloat16))
                bytes[p] += tensor.elements();
    });
    std::optional<WeightPrecision> most;
    for (const auto& [p, b] : bytes)
        if (b > 0 && (!most || b > bytes[*most]))
            most = p;
    return most;
}

int requantize_weights(Model& model, WeightPrecision precision) {
    const auto stored = stored_weight_precision(model);
    if (stored && (*stored == WeightPrecision::int8 || *stored == WeightPrecision::int4) &&
        *stored != precision)
        throw InputError(model.file, "--precision",
                         std::string("a model with floating-point weights for a what-if; this "
                                     "one stores them as ") +
                             to_string(*stored) + ", which the what-if cannot widen");
    int changed = 0;
    for_each_matrix_weight(model, [&](int t) {
        auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        if (floating(tensor.dtype) && tensor.dtype != data_type(precision)) {
            tensor.dtype = data_type(precision);
            ++changed;
        }
    });
    return changed;
}

} // namespace cleave::graph
