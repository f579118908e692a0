#include "net_builder.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
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
        if (!s.empty())
            out += (out.empty() ? "" : std::string(1, separator)) + s;
    return out;
}

std::int64_t product(const std::vector<std::int64_t>& dims) {
    std::int64_t p = 1;
    for (const auto d : dims)
        p *= d;
    return p;
}

// numpy broadcasting of two shapes, aligned at their last dims.
std::vector<std::int64_t> broadcast(const std::vector<std::int64_t>& a,
                                    const std::vector<std::int64_t>& b) {
    std::vector<std::int64_t> y(std::max(a.size(), b.size()), 1);
    for (std::size_t i = 0; i < y.size(); ++i) {
        const auto da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const auto db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1)
            throw std::invalid_argument("shapes do not broadcast");
        y[y.size() - 1 - i] = std::max(da, db);
    }
    return y;
}

std::int64_t axis_of(std::int64_t axis, std::size_t rank) {
    return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
}

} // namespace

NetBuilder::NetBuilder(std::string model_name, std::vector<std::int64_t> input_shape,
                       std::uint64_t seed, bool with_weights)
    : random_(seed), with_weights_(with_weights) {
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
    const auto path = scoped(name);
    n->set_name(unique("/" + (path.empty() ? "" : path + "/") + op));
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
    parameters_ += static_cast<std::int64_t>(count);
    if (!with_weights_)
        return t->name();
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
    parameters_ += static_cast<std::int64_t>(values.size());
    return t->name();
}

std::string NetBuilder::int64s(const std::string& name, const std::vector<std::int64_t>& values,
                               bool scalar) {
    auto* t = model_.mutable_graph()->add_initializer();
    auto scopes = scopes_;
    scopes.push_back(name);
    t->set_name(unique(joined(scopes, '.')));
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar)
        t->add_dims(static_cast<std::int64_t>(values.size()));
    for (const auto v : values)
        t->add_int64_data(v);
    return t->name();
}

Tensor NetBuilder::conv(const Tensor& x, std::int64_t out_channels, std::int64_t kernel,
                        std::int64_t stride, std::int64_t groups, bool bias, double sparsity,
                        const std::string& name, std::int64_t pad) {
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
    if (pad < 0)
        pad = kernel / 2;
    set_ints(n, "dilations", {1, 1});
    set_int(n, "group", groups);
    set_ints(n, "kernel_shape", {kernel, kernel});
    set_ints(n, "pads", {pad, pad, pad, pad});
    set_ints(n, "strides", {stride, stride});
    y.shape = {x.shape[0], out_channels, pooled(x.shape[2], kernel, stride, pad),
               pooled(x.shape[3], kernel, stride, pad)};
    macs_ += product(y.shape) * (in / groups) * kernel * kernel;
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
        parameters_ += c;
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
    if (kind == "Relu" || kind == "Sigmoid" || kind == "Tanh" || kind == "HardSwish" ||
        kind == "Sqrt") {
        node(kind, name, {x.name}, y.name);
    } else if (kind == "HardSigmoid" || kind == "LeakyRelu" || kind == "Elu") {
        auto& n = node(kind, name, {x.name}, y.name);
        if (kind == "LeakyRelu")
            set_float(n, "alpha", 0.01f);
        if (kind == "HardSigmoid") // PyTorch's Hardsigmoid: relu6(x + 3) / 6
            set_float(n, "alpha", 1.0f / 6);
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

Tensor NetBuilder::binary(const std::string& op, const Tensor& a, const Tensor& b,
                          const std::string& name) {
    Tensor y{"", broadcast(a.shape, b.shape)};
    node(op, name, {a.name, b.name}, y.name);
    return y;
}

Tensor NetBuilder::add(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary("Add", a, b, name);
}

Tensor NetBuilder::mul(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary("Mul", a, b, name);
}

Tensor NetBuilder::sub(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary("Sub", a, b, name);
}

Tensor NetBuilder::div(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary("Div", a, b, name);
}

Tensor NetBuilder::scale(const Tensor& x, float value, const std::string& op,
                         const std::string& name) {
    static const std::map<std::string, std::string> operands{
        {"Mul", "scale"}, {"Div", "divisor"}, {"Add", "addend"}, {"Pow", "exponent"}};
    const auto operand = operands.find(op);
    if (operand == operands.end())
        throw std::invalid_argument("scale by " + op);
    push(name);
    const auto c = constant(operand->second, {value});
    pop();
    Tensor y{"", x.shape};
    node(op, name, {x.name, c}, y.name);
    return y;
}

Tensor NetBuilder::concat(const std::vector<Tensor>& parts, const std::string& name,
                          std::int64_t axis) {
    Tensor y{"", parts.at(0).shape};
    const auto a = static_cast<std::size_t>(axis_of(axis, y.shape.size()));
    y.shape.at(a) = 0;
    std::vector<std::string> inputs;
    for (const auto& p : parts) {
        y.shape[a] += p.shape.at(a);
        inputs.push_back(p.name);
    }
    set_int(node("Concat", name, inputs, y.name), "axis", axis);
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
                            std::int64_t pad, const std::string& name) {
    Tensor y{"",
             {x.shape[0], x.shape[1], pooled(x.shape[2], kernel, stride, pad),
              pooled(x.shape[3], kernel, stride, pad)}};
    auto& n = node("AveragePool", name, {x.name}, y.name);
    if (pad > 0) {
        set_int(n, "ceil_mode", 0);
        set_int(n, "count_include_pad", 1);
    }
    set_ints(n, "kernel_shape", {kernel, kernel});
    if (pad > 0)
        set_ints(n, "pads", {pad, pad, pad, pad});
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
    macs_ += x.shape[0] * out * k;
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
    macs_ += product(y.shape) * k;
    node("MatMul", name, {x.name, w}, y.name);
    if (!bias)
        return y;
    Tensor z{"", y.shape};
    node("Add", name, {b, y.name}, z.name);
    return z;
}

Tensor NetBuilder::matmul(const Tensor& a, const Tensor& b, const std::string& name) {
    if (a.shape.size() < 2 || b.shape.size() < 2 || a.shape.back() != b.shape[b.shape.size() - 2])
        throw std::invalid_argument("matmul " + name + ": shapes do not match");
    auto y_shape =
        broadcast({a.shape.begin(), a.shape.end() - 2}, {b.shape.begin(), b.shape.end() - 2});
    y_shape.push_back(a.shape[a.shape.size() - 2]);
    y_shape.push_back(b.shape.back());
    Tensor y{"", y_shape};
    macs_ += product(y.shape) * a.shape.back();
    node("MatMul", name, {a.name, b.name}, y.name);
    return y;
}

Tensor NetBuilder::einsum_product(const Tensor& a, const Tensor& b, bool b_transposed,
                                  const std::string& name) {
    const std::size_t rank = a.shape.size();
    const std::size_t batch = rank - 2;
    const std::int64_t k = a.shape.back();
    const std::int64_t n = b_transposed ? b.shape[rank - 2] : b.shape.back();
    static const std::string batch_letters = "BGHCEFKLMNOPQRSTUVWXYZ"; // not I, J or D
    if (rank < 2 || batch > batch_letters.size() || b.shape.size() != rank ||
        !std::equal(a.shape.begin(), a.shape.begin() + static_cast<std::ptrdiff_t>(batch),
                    b.shape.begin()) ||
        (b_transposed ? b.shape.back() : b.shape[rank - 2]) != k)
        throw std::invalid_argument("einsum " + name + ": shapes do not match");
    // Batch dims B, C, ...; I and J the rows and columns of the product, D what it sums over.
    std::string letters;
    for (std::size_t i = 0; i < batch; ++i)
        letters += std::string(1, batch_letters[i]) + " ";
    const std::string equation = letters + "I D, " + letters + (b_transposed ? "J D" : "D J") +
                                 " -> " + letters + "I J";
    std::vector<std::int64_t> y_shape(a.shape.begin(), a.shape.end() - 1);
    y_shape.push_back(n);
    Tensor y{"", y_shape};
    macs_ += product(y.shape) * k;
    auto& e = node("Einsum", name, {a.name, b.name}, y.name);
    auto* attribute = e.add_attribute();
    attribute->set_name("equation");
    attribute->set_type(onnx::AttributeProto::STRING);
    attribute->set_s(equation);
    return y;
}

Tensor NetBuilder::softmax(const Tensor& x, const std::string& name) {
    Tensor y{"", x.shape};
    set_int(node("Softmax", name, {x.name}, y.name), "axis", -1);
    return y;
}

Tensor NetBuilder::layer_norm(const Tensor& x, float epsilon, const std::string& name) {
    const std::int64_t c = x.shape.back();
    push(name);
    std::vector<std::string> inputs{x.name};
    for (const auto& [field, value] :
         std::vector<std::pair<std::string, float>>{{"weight", 1.0f}, {"bias", 0.0f}})
        inputs.push_back(constant(field, std::vector<float>(static_cast<std::size_t>(c), value)));
    pop();
    Tensor y{"", x.shape};
    auto& n = node("LayerNormalization", name, inputs, y.name);
    set_int(n, "axis", -1);
    set_float(n, "epsilon", epsilon);
    return y;
}

Tensor NetBuilder::layer_norm_decomposed(const Tensor& x, float epsilon, const std::string& name) {
    const std::int64_t c = x.shape.back();
    push(name);
    const Tensor weight{constant("weight", std::vector<float>(static_cast<std::size_t>(c), 1.0f)),
                        {c}};
    const Tensor bias{constant("bias", std::vector<float>(static_cast<std::size_t>(c), 0.0f)), {c}};
    const auto centred = sub(x, reduce_mean(x, {-1}, true), "");
    const auto variance = reduce_mean(scale(centred, 2.0f, "Pow"), {-1}, true);
    const auto deviation = activation(scale(variance, epsilon, "Add"), "Sqrt", "");
    const auto y = add(mul(div(centred, deviation, ""), weight, ""), bias, "");
    pop();
    return y;
}

Tensor NetBuilder::reshape(const Tensor& x, std::vector<std::int64_t> shape,
                           const std::string& name) {
    const auto total = product(x.shape);
    std::int64_t known = 1;
    for (const auto d : shape)
        known *= d < 0 ? 1 : d;
    Tensor y{"", shape};
    for (auto& d : y.shape)
        if (d < 0)
            d = total / known;
    if (product(y.shape) != total)
        throw std::invalid_argument("reshape " + name + ": element counts differ");
    push(name);
    const auto target = int64s("shape", shape);
    pop();
    set_int(node("Reshape", name, {x.name, target}, y.name), "allowzero", 0);
    return y;
}

Tensor NetBuilder::transpose(const Tensor& x, const std::vector<std::int64_t>& perm,
                             const std::string& name) {
    if (perm.size() != x.shape.size())
        throw std::invalid_argument("transpose " + name + ": perm and rank differ");
    Tensor y;
    for (const auto p : perm)
        y.shape.push_back(x.shape.at(static_cast<std::size_t>(p)));
    set_ints(node("Transpose", name, {x.name}, y.name), "perm", perm);
    return y;
}

Tensor NetBuilder::slice(const Tensor& x, std::int64_t axis, std::int64_t start, std::int64_t end,
                         const std::string& name) {
    const auto a = static_cast<std::size_t>(axis_of(axis, x.shape.size()));
    Tensor y{"", x.shape};
    y.shape.at(a) = std::min(end, x.shape[a]) - start;
    push(name);
    const auto starts = int64s("starts", {start});
    const auto ends = int64s("ends", {end});
    const auto axes = int64s("axes", {axis});
    pop();
    node("Slice", name, {x.name, starts, ends, axes}, y.name);
    return y;
}

std::vector<Tensor> NetBuilder::split(const Tensor& x, std::int64_t axis,
                                      const std::vector<std::int64_t>& sizes,
                                      const std::string& name) {
    const auto a = static_cast<std::size_t>(axis_of(axis, x.shape.size()));
    std::int64_t total = 0;
    for (const auto s : sizes)
        total += s;
    if (total != x.shape.at(a))
        throw std::invalid_argument("split " + name + ": sizes do not add up");
    push(name);
    const auto split_sizes = int64s("split", sizes);
    pop();
    std::vector<Tensor> parts(sizes.size(), Tensor{"", x.shape});
    auto& n = node("Split", name, {x.name, split_sizes}, parts[0].name);
    set_int(n, "axis", axis);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        parts[i].shape[a] = sizes[i];
        if (i > 0) {
            parts[i].name = n.name() + "_output_" + std::to_string(i);
            n.add_output(parts[i].name);
        }
    }
    return parts;
}

Tensor NetBuilder::squeeze(const Tensor& x, std::int64_t axis, const std::string& name) {
    const auto a = static_cast<std::size_t>(axis_of(axis, x.shape.size()));
    if (x.shape.at(a) != 1)
        throw std::invalid_argument("squeeze " + name + ": dim is not 1");
    push(name);
    const auto axes = int64s("axes", {axis});
    pop();
    Tensor y{"", x.shape};
    y.shape.erase(y.shape.begin() + static_cast<std::ptrdiff_t>(a));
    node("Squeeze", name, {x.name, axes}, y.name);
    return y;
}

Tensor NetBuilder::unsqueeze(const Tensor& x, std::int64_t axis, const std::string& name) {
    const auto a = static_cast<std::size_t>(axis_of(axis, x.shape.size() + 1));
    push(name);
    const auto axes = int64s("axes", {axis});
    pop();
    Tensor y{"", x.shape};
    y.shape.insert(y.shape.begin() + static_cast<std::ptrdiff_t>(a), 1);
    node("Unsqueeze", name, {x.name, axes}, y.name);
    return y;
}

Tensor NetBuilder::gather(const Tensor& x, std::int64_t axis, std::int64_t index,
                          const std::string& name) {
    const auto a = static_cast<std::size_t>(axis_of(axis, x.shape.size()));
    push(name);
    const auto i = int64s("index", {index}, true);
    pop();
    Tensor y{"", x.shape};
    y.shape.erase(y.shape.begin() + static_cast<std::ptrdiff_t>(a));
    set_int(node("Gather", name, {x.name, i}, y.name), "axis", axis);
    return y;
}

Tensor NetBuilder::reduce_mean(const Tensor& x, const std::vector<std::int64_t>& axes,
                               bool keep_dims, const std::string& name) {
    Tensor y{"", x.shape};
    std::vector<std::size_t> reduced;
    for (const auto axis : axes)
        reduced.push_back(static_cast<std::size_t>(axis_of(axis, x.shape.size())));
    std::sort(reduced.rbegin(), reduced.rend());
    for (const auto a : reduced) {
        if (keep_dims)
            y.shape.at(a) = 1;
        else
            y.shape.erase(y.shape.begin() + static_cast<std::ptrdiff_t>(a));
    }
    auto& n = node("ReduceMean", name, {x.name}, y.name);
    set_ints(n, "axes", axes); // an attribute up to opset 17
    set_int(n, "keepdims", keep_dims ? 1 : 0);
    return y;
}

Tensor NetBuilder::parameter(const std::string& name, const std::vector<std::int64_t>& dims,
                             double scale) {
    return {weight(name, dims, scale), dims};
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
