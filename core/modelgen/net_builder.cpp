#include "net_builder.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace cleave::modelgen {

namespace {

void describe(onnx::ValueInfoProto* value, const Tensor& t) {
    value->set_name(t.name);
    auto* type = value->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (const auto d : t.shape)
        type->mutable_shape()->add_dim()->set_dim_value(d);
}

void set_int(onnx::NodeProto& n, const char* name, std::int64_t value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
}

void set_float(onnx::NodeProto& n, const char* name, float value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
}

void set_ints(onnx::NodeProto& n, const char* name, const std::vector<std::int64_t>& values) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (const auto v : values)
        a->add_ints(v);
}

std::int64_t pooled(std::int64_t size, std::int64_t kernel, std::int64_t stride, std::int64_t pad) {
    return (size + 2 * pad - kernel) / stride + 1;
}

std::string joined(const std::vector<std::string>& scopes, char separator) {
    std::string out;
    for (const auto& s : scopes)
        out += (out.empty() ? "" : std::string(1, separator)) + s;
    return out;
}

} // namespace

NetBuilder::NetBuilder(std::string model_name, std::vector<std::int64_t> input_shape,
                       std::uint64_t seed)
    : random_(seed) {
    model_.set_ir_version(8);
    model_.set_producer_name("cleave");
    auto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(17);
    model_.mutable_graph()->set_name(std::move(model_name));
    input_ = {"input", std::move(input_shape)};
    describe(model_.mutable_graph()->add_input(), input_);
}

std::string NetBuilder::unique(const std::string& name) {
    std::string candidate = name;
    for (int i = 1; used_names_.contains(candidate); ++i)
        candidate = name + "_" + std::to_string(i);
    used_names_.insert(candidate);
    return candidate;
}

std::string NetBuilder::scoped(const std::string& name) const {
    auto scopes = scopes_;
    scopes.push_back(name);
    return joined(scopes, '/');
}

onnx::NodeProto& NetBuilder::node(const std::string& op, const std::string& name,
                                  const std::vector<std::string>& inputs, std::string& output) {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(unique("/" + scoped(name) + "/" + op));
    for (const auto& i : inputs)
        n->add_input(i);
    output = n->name() + "_output_0";
    n->add_output(output);
    return *n;
}

std::string NetBuilder::weight(const std::string& name, const std::vector<std::int64_t>& dims,
                               double scale, double sparsity) {
    auto* t = model_.mutable_graph()->add_initializer();
    auto scopes = scopes_;
    scopes.push_back(name);
    t->set_name(unique(joined(scopes, '.')));
    t->set_data_type(onnx::TensorProto::FLOAT);
    std::size_t count = 1;
    for (const auto d : dims) {
        t->add_dims(d);
        count *= static_cast<std::size_t>(d);
    }
    std::vector<float> values(count);
    std::uniform_real_distribution<float> uniform(static_cast<float>(-scale),
                                                  static_cast<float>(scale));
    std::uniform_real_distribution<double> keep(0.0, 1.0);
    for (auto& v : values)
        v = sparsity > 0 && keep(random_) < sparsity ? 0.0f : uniform(random_);
    std::string raw(count * sizeof(float), '\0');
    std::memcpy(raw.data(), values.data(), raw.size()); // little-endian hosts only
    t->set_raw_data(std::move(raw));
    return t->name();
}

std::string NetBuilder::constant(const std::string& name, const std::vector<float>& values) {
    auto* t = model_.mutable_graph()->add_initializer();
    auto scopes = scopes_;
    scopes.push_back(name);
    t->set_name(unique(joined(scopes, '.')));
    t->set_data_type(onnx::TensorProto::FLOAT);
    if (values.size() != 1)
        t->add_dims(static_cast<std::int64_t>(values.size()));
    for (const float v : values)
        t->add_float_data(v);
    return t->name();
}

Tensor NetBuilder::conv(const Tensor& x, std::int64_t out_channels, std::int64_t kernel,
                        std::int64_t stride, std::int64_t groups, bool bias, double sparsity,
                        const std::string& name) {
    const std::int64_t in = x.channels();
    if (groups < 1 || in % groups != 0 || out_channels % groups != 0)
        throw std::invalid_argument("conv " + name + ": channels not divisible by groups");
    const double fan_in = static_cast<double>(in / groups * kernel * kernel);
    push(name);
    std::vector<std::string> inputs{x.name,
                                    weight("weight", {out_channels, in / groups, kernel, kernel},
                                           std::sqrt(6.0 / fan_in), sparsity)};
    if (bias)
        inputs.push_back(weight("bias", {out_channels}, 1.0 / std::sqrt(fan_in)));
    pop();
    Tensor y;
    auto& n = node("Conv", name, inputs, y.name);
    const std::int64_t pad = kernel / 2;
    set_ints(n, "dilations", {1, 1});
    set_int(n, "group", groups);
    set_ints(n, "kernel_shape", {kernel, kernel});
    set_ints(n, "pads", {pad, pad, pad, pad});
    set_ints(n, "strides", {stride, stride});
    y.shape = {x.shape[0], out_channels, pooled(x.shape[2], kernel, stride, pad),
               pooled(x.shape[3], kernel, stride, pad)};
    return y;
}

Tensor NetBuilder::batch_norm(const Tensor& x, const std::string& name) {
    const std::int64_t c = x.channels();
    push(name);
    auto* g = model_.mutable_graph();
    std::vector<std::string> inputs{x.name};
    for (const auto& [field, value] : std::vector<std::pair<std::string, float>>{
             {"weight", 1.0f}, {"bias", 0.0f}, {"running_mean", 0.0f}, {"running_var", 1.0f}}) {
        auto* t = g->add_initializer();
        auto scopes = scopes_;
        scopes.push_back(field);
        t->set_name(unique(joined(scopes, '.')));
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->add_dims(c);
        std::vector<float> values(static_cast<std::size_t>(c), value);
        std::string raw(values.size() * sizeof(float), '\0');
        std::memcpy(raw.data(), values.data(), raw.size());
        t->set_raw_data(std::move(raw));
        inputs.push_back(t->name());
    }
    pop();
    Tensor y{"", x.shape};
    auto& n = node("BatchNormalization", name, inputs, y.name);
    set_float(n, "epsilon", 1e-5f);
    set_float(n, "momentum", 0.9f);
    return y;
}

Tensor NetBuilder::activation(const Tensor& x, const std::string& kind, const std::string& name) {
    Tensor y{"", x.shape};
    if (kind == "Relu" || kind == "Sigmoid" || kind == "Tanh" || kind == "HardSwish") {
        node(kind, name, {x.name}, y.name);
    } else if (kind == "HardSigmoid" || kind == "LeakyRelu" || kind == "Elu") {
        auto& n = node(kind, name, {x.name}, y.name);
        if (kind == "LeakyRelu")
            set_float(n, "alpha", 0.01f);
    } else if (kind == "Relu6") {
        push(name);
        const auto lo = constant("min", {0.0f});
        const auto hi = constant("max", {6.0f});
        pop();
        node("Clip", name, {x.name, lo, hi}, y.name);
    } else if (kind == "Silu") {
        Tensor s{"", x.shape};
        node("Sigmoid", name, {x.name}, s.name);
        node("Mul", name, {x.name, s.name}, y.name);
    } else if (kind == "Gelu") {
        push(name);
        const auto root2 = constant("sqrt2", {static_cast<float>(std::sqrt(2.0))});
        const auto one = constant("one", {1.0f});
        const auto half = constant("half", {0.5f});
        pop();
        Tensor d{"", x.shape}, e{"", x.shape}, a{"", x.shape}, m{"", x.shape};
        node("Div", name, {x.name, root2}, d.name);
        node("Erf", name, {d.name}, e.name);
        node("Add", name, {e.name, one}, a.name);
        node("Mul", name, {x.name, a.name}, m.name);
        node("Mul", name, {m.name, half}, y.name);
    } else {
        throw std::invalid_argument("unknown activation " + kind);
    }
    return y;
}

Tensor NetBuilder::add(const Tensor& a, const Tensor& b, const std::string& name) {
    Tensor y{"", a.shape};
    node("Add", name, {a.name, b.name}, y.name);
    return y;
}

Tensor NetBuilder::mul(const Tensor& a, const Tensor& b, const std::string& name) {
    Tensor y{"", a.shape.size() >= b.shape.size() ? a.shape : b.shape};
    for (std::size_t i = 0; i < a.shape.size() && i < b.shape.size(); ++i)
        y.shape[i] = std::max(a.shape[i], b.shape[i]);
    node("Mul", name, {a.name, b.name}, y.name);
    return y;
}

Tensor NetBuilder::concat(const std::vector<Tensor>& parts, const std::string& name) {
    Tensor y{"", parts.at(0).shape};
    y.shape[1] = 0;
    std::vector<std::string> inputs;
    for (const auto& p : parts) {
        y.shape[1] += p.shape[1];
        inputs.push_back(p.name);
    }
    set_int(node("Concat", name, inputs, y.name), "axis", 1);
    return y;
}

Tensor NetBuilder::max_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride,
                            std::int64_t pad, const std::string& name) {
    Tensor y{"",
             {x.shape[0], x.shape[1], pooled(x.shape[2], kernel, stride, pad),
              pooled(x.shape[3], kernel, stride, pad)}};
    auto& n = node("MaxPool", name, {x.name}, y.name);
    set_int(n, "ceil_mode", 0);
    set_ints(n, "kernel_shape", {kernel, kernel});
    set_ints(n, "pads", {pad, pad, pad, pad});
    set_ints(n, "strides", {stride, stride});
    return y;
}

Tensor NetBuilder::avg_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride,
                            const std::string& name) {
    Tensor y{"",
             {x.shape[0], x.shape[1], pooled(x.shape[2], kernel, stride, 0),
              pooled(x.shape[3], kernel, stride, 0)}};
    auto& n = node("AveragePool", name, {x.name}, y.name);
    set_ints(n, "kernel_shape", {kernel, kernel});
    set_ints(n, "strides", {stride, stride});
    return y;
}

Tensor NetBuilder::global_avg_pool(const Tensor& x, const std::string& name) {
    Tensor y{"", {x.shape[0], x.shape[1], 1, 1}};
    node("GlobalAveragePool", name, {x.name}, y.name);
    return y;
}

Tensor NetBuilder::flatten(const Tensor& x, const std::string& name) {
    std::int64_t features = 1;
    for (std::size_t i = 1; i < x.shape.size(); ++i)
        features *= x.shape[i];
    Tensor y{"", {x.shape[0], features}};
    set_int(node("Flatten", name, {x.name}, y.name), "axis", 1);
    return y;
}

Tensor NetBuilder::gemm(const Tensor& x, std::int64_t out, const std::string& name) {
    const std::int64_t k = x.shape.at(1);
    push(name);
    const auto w = weight("weight", {out, k}, std::sqrt(6.0 / static_cast<double>(k)));
    const auto b = weight("bias", {out}, 1.0 / std::sqrt(static_cast<double>(k)));
    pop();
    Tensor y{"", {x.shape[0], out}};
    auto& n = node("Gemm", name, {x.name, w, b}, y.name);
    set_float(n, "alpha", 1.0f);
    set_float(n, "beta", 1.0f);
    set_int(n, "transB", 1);
    return y;
}

Tensor NetBuilder::matmul(const Tensor& x, std::int64_t out, bool bias, const std::string& name) {
    const std::int64_t k = x.shape.back();
    push(name);
    const auto w = weight("weight", {k, out}, std::sqrt(6.0 / static_cast<double>(k)));
    const auto b = bias ? weight("bias", {out}, 1.0 / std::sqrt(static_cast<double>(k))) : "";
    pop();
    Tensor y{"", x.shape};
    y.shape.back() = out;
    node("MatMul", name, {x.name, w}, y.name);
    if (!bias)
        return y;
    Tensor z{"", y.shape};
    node("Add", name, {b, y.name}, z.name);
    return z;
}

Tensor NetBuilder::softmax(const Tensor& x, const std::string& name) {
    Tensor y{"", x.shape};
    set_int(node("Softmax", name, {x.name}, y.name), "axis", -1);
    return y;
}

void NetBuilder::output(const Tensor& x) {
    auto* g = model_.mutable_graph();
    // The last node's output is renamed "output", as exporters name the graph output.
    for (auto& n : *g->mutable_node())
        for (auto& i : *n.mutable_input())
            if (i == x.name)
                i = "output";
    for (auto& n : *g->mutable_node())
        for (auto& o : *n.mutable_output())
            if (o == x.name)
                o = "output";
    describe(g->add_output(), {"output", x.shape});
}

void NetBuilder::save(const std::filesystem::path& path) const {
    write_file_atomically(path, model_.SerializeAsString());
}

} // namespace cleave::modelgen
