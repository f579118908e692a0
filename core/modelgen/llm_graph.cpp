#include "llm_graph.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

namespace cleave::modelgen {

namespace {

constexpr std::uint64_t kAlignment = 4096; // each weight starts on a page

void describe(onnx::ValueInfoProto* value, const std::string& name, int elem_type,
              const std::vector<std::string>& dims) {
    value->set_name(name);
    auto* type = value->mutable_type()->mutable_tensor_type();
    type->set_elem_type(elem_type);
    auto* shape = type->mutable_shape();
    for (const auto& d : dims) {
        auto* dim = shape->add_dim();
        if (!d.empty() && d.find_first_not_of("0123456789") == std::string::npos)
            dim->set_dim_value(std::stoll(d));
        else
            dim->set_dim_param(d);
    }
}

std::uint64_t element_bytes(int elem_type) {
    switch (elem_type) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::INT32:
        return 4;
    case onnx::TensorProto::FLOAT16:
        return 2;
    case onnx::TensorProto::INT64:
        return 8;
    default:
        return 1; // uint8, int8, bool
    }
}

} // namespace

void set_attribute(onnx::NodeProto& node, const std::string& name, std::int64_t value) {
    auto* a = node.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
}

void set_attribute(onnx::NodeProto& node, const std::string& name, float value) {
    auto* a = node.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
}

void set_attribute(onnx::NodeProto& node, const std::string& name,
                   const std::vector<std::int64_t>& values) {
    auto* a = node.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (const auto v : values)
        a->add_ints(v);
}

std::uint16_t to_half(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const auto exponent = static_cast<int>((bits >> 23) & 0xffu);
    std::uint32_t mantissa = bits & 0x7fffffu;
    if (exponent == 0xff) // infinity, NaN
        return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    const int e = exponent - 127 + 15;
    if (e >= 0x1f)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (e <= 0) { // subnormal or zero
        if (e < -10)
            return sign;
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
        const std::uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u)))
            ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t half = (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
        ++half; // may carry into the exponent, as rounding should
    return static_cast<std::uint16_t>(sign | half);
}

LlmGraph::LlmGraph(const std::string& name, int float_type, bool contrib)
    : float_type_(float_type), output_suffix_(contrib ? "/output_" : "_output_") {
    model_.set_ir_version(8);
    model_.set_producer_name("cleave");
    auto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(17);
    if (contrib) {
        auto* ms = model_.add_opset_import();
        ms->set_domain("com.microsoft");
        ms->set_version(1);
    }
    model_.mutable_graph()->set_name(name);
}

std::string LlmGraph::unique(const std::string& name) {
    std::string candidate = name;
    for (int i = 1; used_.contains(candidate); ++i)
        candidate = name + "_" + std::to_string(i);
    used_.insert(candidate);
    return candidate;
}

void LlmGraph::input(const std::string& name, int elem_type, const std::vector<std::string>& dims) {
    describe(model_.mutable_graph()->add_input(), name, elem_type, dims);
}

void LlmGraph::output(const std::string& name, int elem_type,
                      const std::vector<std::string>& dims) {
    describe(model_.mutable_graph()->add_output(), name, elem_type, dims);
}

onnx::NodeProto& LlmGraph::named(const std::string& op, const std::string& name,
                                 const std::vector<std::string>& inputs, int outputs,
                                 const std::string& domain) {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    if (!domain.empty())
        n->set_domain(domain);
    n->set_name(unique(name));
    for (const auto& i : inputs)
        n->add_input(i);
    for (int i = 0; i < outputs; ++i)
        n->add_output(n->name() + output_suffix_ + std::to_string(i));
    return *n;
}

void LlmGraph::rename(const std::string& from, const std::string& to) {
    for (auto& n : *model_.mutable_graph()->mutable_node()) {
        for (auto& i : *n.mutable_input())
            if (i == from)
                i = to;
        for (auto& o : *n.mutable_output())
            if (o == from)
                o = to;
    }
}

std::string LlmGraph::weight(const std::string& name, const std::vector<std::int64_t>& dims,
                             int elem_type) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(unique(name));
    t->set_data_type(elem_type ? elem_type : float_type_);
    std::uint64_t bytes = element_bytes(t->data_type());
    for (const auto d : dims) {
        t->add_dims(d);
        bytes *= static_cast<std::uint64_t>(d);
    }
    data_bytes_ = (data_bytes_ + kAlignment - 1) / kAlignment * kAlignment;
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    const auto entry = [t](const char* key, const std::string& value) {
        auto* e = t->add_external_data();
        e->set_key(key);
        e->set_value(value);
    };
    entry("location", ""); // the file's name, once saved
    entry("offset", std::to_string(data_bytes_));
    entry("length", std::to_string(bytes));
    data_bytes_ += bytes;
    external_.push_back(t);
    return t->name();
}

std::string LlmGraph::ints(const std::string& name, const std::vector<std::int64_t>& values,
                           bool scalar) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(unique(name));
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar)
        t->add_dims(static_cast<std::int64_t>(values.size()));
    for (const auto v : values)
        t->add_int64_data(v);
    return t->name();
}

std::string LlmGraph::scalar(const std::string& name, float value) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(unique(name));
    t->set_data_type(float_type_);
    if (float_type_ == onnx::TensorProto::FLOAT16)
        t->add_int32_data(to_half(value)); // float16 values travel in int32_data
    else
        t->add_float_data(value);
    return t->name();
}

void LlmGraph::metadata(const std::string& key, const std::string& value) {
    auto* p = model_.add_metadata_props();
    p->set_key(key);
    p->set_value(value);
}

std::string random_weight_values(const onnx::TensorProto& t, std::uint64_t seed) {
    std::uint64_t count = 1;
    for (const auto d : t.dims())
        count *= static_cast<std::uint64_t>(d);
    std::mt19937_64 random(seed);
    std::string bytes(count * element_bytes(t.data_type()), '\0');
    if (t.data_type() == onnx::TensorProto::UINT8) {
        std::uniform_int_distribution<int> byte(0, 255);
        for (auto& b : bytes)
            b = static_cast<char>(byte(random));
        return bytes;
    }
    const std::string& name = t.name();
    float centre = 0, half_width = 0.1f;
    if (name.ends_with(".scales")) {
        // (q - 8) of a 4-bit q has variance 21.25; a layer 1024 wide wants 1/1024.
        centre = 1.0f / std::sqrt(21.25f * 1024.0f);
        half_width = centre / 4;
    } else if (t.dims_size() >= 2) {
        half_width = std::sqrt(3.0f / static_cast<float>(t.dims(0))); // variance 1/fan-in
    } else if (name.find("norm") != std::string::npos) {
        centre = 1;
    }
    std::uniform_real_distribution<float> value(centre - half_width, centre + half_width);
    std::bernoulli_distribution negative(0.5);
    for (std::uint64_t i = 0; i < count; ++i) {
        // A scale's sign is random too: 4-bit codes average 7.5, not their zero point 8, and
        // scales of one sign would give every output column the same bias.
        const float v =
            name.ends_with(".scales") && negative(random) ? -value(random) : value(random);
        if (t.data_type() == onnx::TensorProto::FLOAT16) {
            const std::uint16_t h = to_half(v);
            std::memcpy(bytes.data() + 2 * i, &h, 2);
        } else {
            std::memcpy(bytes.data() + 4 * i, &v, 4);
        }
    }
    return bytes;
}

void LlmGraph::save(const std::filesystem::path& folder, const std::string& file,
                    std::optional<std::uint64_t> random_seed) {
    const std::string data = file + ".data";
    for (auto* t : external_)
        t->mutable_external_data(0)->set_value(data);
    const auto data_path = folder / data;
    {
        std::ofstream out(data_path, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(data_path.string(), "", "cannot write the weights file");
        for (std::size_t i = 0; random_seed && i < external_.size(); ++i) {
            const auto& t = *external_[i];
            out.seekp(std::stoll(t.external_data(1).value()));
            const auto values = random_weight_values(t, *random_seed * 1000003 + i);
            out.write(values.data(), static_cast<std::streamsize>(values.size()));
        }
        if (!out)
            throw InputError(data_path.string(), "", "cannot write the weights file");
    }
    std::error_code ec;
    std::filesystem::resize_file(data_path, data_bytes_, ec); // a hole: no block written
    if (ec)
        throw InputError(data_path.string(), "", "cannot size the weights file: " + ec.message());
    write_file_atomically(folder / file, model_.SerializeAsString());
}

} // namespace cleave::modelgen
