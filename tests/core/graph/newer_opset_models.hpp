// Small models at the default-domain opsets 18 to 21, for the tests of Cleave's schemas and
// shape rules of those opsets (core/graph/newer_op_schemas.hpp).
#pragma once

#include "core/graph/onnx_import.hpp"
#include "onnx_builder.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::test {

// A builder at `opset`, with the IR version exporters write at it (10 from opset 21, 9 below).
inline OnnxBuilder newer_opset_builder(std::int64_t opset) {
    OnnxBuilder b(opset);
    b.model.set_ir_version(opset >= 21 ? 10 : 9);
    return b;
}

inline graph::Model load_built(const OnnxBuilder& b) {
    return graph::load_model_from_bytes(b.bytes(), "model.onnx");
}

// The shape inference gave a tensor; nullopt when it has none or does not exist.
inline std::optional<graph::Shape> shape_of(const graph::Model& model, const std::string& name) {
    const int t = model.find_tensor(name);
    return t < 0 ? std::nullopt : model.tensors[static_cast<std::size_t>(t)].shape;
}

inline graph::DataType dtype_of(const graph::Model& model, const std::string& name) {
    const int t = model.find_tensor(name);
    return t < 0 ? graph::DataType::Undefined : model.tensors[static_cast<std::size_t>(t)].dtype;
}

inline void set_string(onnx::NodeProto& n, const std::string& name, const std::string& value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
}

inline void set_float(onnx::NodeProto& n, const std::string& name, float value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
}

inline onnx::TensorProto& float_initializer(OnnxBuilder& b, const std::string& name,
                                            const std::vector<std::int64_t>& dims,
                                            const std::vector<float>& values) {
    auto* t = b.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (const auto d : dims)
        t->add_dims(d);
    for (const auto v : values)
        t->add_float_data(v);
    return *t;
}

// TensorProto's 4-bit types (opset 21), which libonnx 1.12's enum lacks.
constexpr int kUint4 = 21;
constexpr int kInt4 = 22;

// A 4-bit initializer, two elements packed in each byte of its raw data, every element `nibble`.
inline onnx::TensorProto& int4_initializer(OnnxBuilder& b, const std::string& name,
                                           const std::vector<std::int64_t>& dims, int type,
                                           char nibble = 1) {
    auto& t = b.initializer(name, dims, type, 0);
    std::int64_t count = 1;
    for (const auto d : dims)
        count *= d;
    t.set_raw_data(std::string(static_cast<std::size_t>((count + 1) / 2),
                               static_cast<char>(nibble | (nibble << 4))));
    return t;
}

// A scalar int64 initializer (DFT's axis and length).
inline onnx::TensorProto& int64_scalar(OnnxBuilder& b, const std::string& name,
                                       std::int64_t value) {
    auto& t = b.int64_initializer(name, {value});
    t.clear_dims();
    return t;
}

} // namespace cleave::test
