#include "node_cost.hpp"

#include "contrib_op_cost.hpp"
#include "einsum_equation.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

namespace cleave::graph {

namespace {

bool one_of(std::string_view op, std::initializer_list<std::string_view> ops) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

// One FLOP per output element.
bool is_pointwise(std::string_view op) {
    return one_of(op, {"Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh",
                       "BitShift", "Ceil", "Celu", "Clip", "Cos", "Cosh", "Div", "Elu", "Equal",
                       "Erf", "Exp", "Floor", "Gelu", "Greater", "GreaterOrEqual", "HardSigmoid",
                       "HardSwish", "IsInf", "IsNaN", "LeakyRelu", "Less", "LessOrEqual", "Log",
                       "Max", "Mean", "Min", "Mish", "Mod", "Mul", "Neg", "Not", "Or", "Pow",
                       "PRelu", "Reciprocal", "Relu", "Resize", "Round", "Selu", "Shrink",
                       "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt", "Sub",
                       "Sum", "Tan", "Tanh", "ThresholdedRelu", "Upsample", "Where", "Xor",
                       // normalisation and softmax
                       "BatchNormalization", "GroupNormalization", "InstanceNormalization",
                       "LayerNormalization", "LpNormalization", "LRN", "MeanVarianceNormalization",
                       "Softmax", "LogSoftmax", "Hardmax"});
}

// One FLOP per input element.
bool is_reduction(std::string_view op) {
    return one_of(op, {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                       "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
                       "ArgMax", "ArgMin", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"});
}

class Counter {
public:
    Counter(const Model& model, const Node& node) : model_(model), node_(node) {}

    const Tensor* input(std::size_t i) const {
        return i < node_.inputs.size() && node_.inputs[i] >= 0 ? &model_.tensors[node_.inputs[i]]
                                                               : nullptr;
    }
    const Tensor* output(std::size_t i) const {
        return i < node_.outputs.size() && node_.outputs[i] >= 0 ? &model_.tensors[node_.outputs[i]]
                                                                 : nullptr;
    }
    // Elements of a tensor, or 0 (marking the cost incomplete) when unknown.
    std::int64_t elements(const Tensor* t) {
        const auto n = t ? t->elements() : -1;
        if (n < 0)
            complete_ = false;
        return std::max<std::int64_t>(n, 0);
    }
    // One dim of a tensor, negative indices from the back; 0 and incomplete when unknown.
    std::int64_t dim(const Tensor* t, int index) {
        if (!t || !t->shape) {
            complete_ = false;
            return 0;
        }
        const int rank = static_cast<int>(t->shape->size());
        const int at = index < 0 ? rank + index : index;
        if (at < 0 || at >= rank || (*t->shape)[at] < 0) {
            complete_ = false;
            return 0;
        }
        return (*t->shape)[at];
    }
    // Product of dims [from, rank) of a tensor.
    std::int64_t trailing_product(const Tensor* t, int from) {
        if (!t || !t->shape) {
            complete_ = false;
            return 0;
        }
        std::int64_t product = 1;
        for (int i = from; i < static_cast<int>(t->shape->size()); ++i)
            product = mul(product, dim(t, i));
        return product;
    }
    static std::int64_t mul(std::int64_t a, std::int64_t b) {
        std::int64_t r = 0;
        return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
    }
    bool complete() const { return complete_; }

private:
    const Model& model_;
    const Node& node_;
    bool complete_ = true;
};

// An Einsum's multiply-accumulates: one per point of its iteration space (einsum_equation.hpp);
// 0, and the cost incomplete, where the equation or an operand's shape is not known.
std::int64_t einsum_node_macs(const Node& node, Counter& c) {
    const auto* attribute = node.attribute("equation");
    const auto equation = attribute && !attribute->strings.empty()
                              ? parse_einsum(attribute->strings.front())
                              : std::nullopt;
    std::vector<std::vector<std::int64_t>> operands;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const auto* t = c.input(i);
        if (!t || !t->shape) {
            c.elements(nullptr); // marks the cost incomplete
            return 0;
        }
        operands.push_back(*t->shape);
    }
    const auto macs = equation ? einsum_macs(*equation, operands) : std::nullopt;
    if (!macs) {
        c.elements(nullptr);
        return 0;
    }
    return *macs;
}

} // namespace

std::int64_t input_bytes_read(const Model& model, const Node& node, std::size_t input) {
    if (input >= node.inputs.size() || node.inputs[input] < 0)
        return 0;
    if (const auto part = contrib_input_bytes_read(model, node, input))
        return *part;
    const auto whole = model.tensors[static_cast<std::size_t>(node.inputs[input])].bytes();
    // A Gather reads the rows it gives (an embedding table's rows of the tokens), not its table.
    if ((node.domain.empty() || node.domain == "ai.onnx") && node.op == "Gather" && input == 0 &&
        !node.outputs.empty() && node.outputs[0] >= 0) {
        const auto given = model.tensors[static_cast<std::size_t>(node.outputs[0])].bytes();
        if (given > 0 && whole > 0)
            return std::min(whole, given);
    }
    return whole;
}

NodeCost node_cost(const Model& model, const Node& node) {
    Counter c(model, node);
    NodeCost cost;
    const std::string_view op = node.op;
    const bool onnx_domain = node.domain.empty() || node.domain == "ai.onnx";

    if (onnx_domain && one_of(op, {"Conv", "ConvInteger", "QLinearConv", "DeformConv"})) {
        // out elements x (C_in / group) x prod(kernel): the weight holds [M, C/group, k...].
        const auto* weight = c.input(op == "QLinearConv" ? 3 : 1);
        cost.macs = Counter::mul(c.elements(c.output(0)), c.trailing_product(weight, 1));
    } else if (onnx_domain && op == "ConvTranspose") {
        // every input element is scattered into (M / group) x prod(kernel) outputs.
        cost.macs = Counter::mul(c.elements(c.input(0)), c.trailing_product(c.input(1), 1));
    } else if (onnx_domain && op == "Gemm") {
        const auto* a = c.input(0);
        const auto k = node.int_attribute("transA", 0) ? c.dim(a, 0) : c.dim(a, 1);
        cost.macs = Counter::mul(c.elements(c.output(0)), k);
    } else if (onnx_domain && one_of(op, {"MatMul", "MatMulInteger", "QLinearMatMul"})) {
        // batched: every output element is a dot product over A's last dim.
        cost.macs = Counter::mul(c.elements(c.output(0)), c.dim(c.input(0), -1));
    } else if (onnx_domain && op == "Einsum") {
        cost.macs = einsum_node_macs(node, c);
    }
    cost.flops = Counter::mul(cost.macs, 2);

    if (const auto contrib = contrib_op_work(model, node)) {
        cost.macs = contrib->macs;
        cost.flops = contrib->flops;
        if (!contrib->complete)
            c.elements(nullptr); // marks the cost incomplete
    } else if (onnx_domain && is_pointwise(op)) {
        cost.flops = c.elements(c.output(0));
    } else if (onnx_domain && one_of(op, {"MaxPool", "AveragePool", "LpPool"})) {
        std::int64_t window = 1;
        for (const auto k : node.ints_attribute("kernel_shape"))
            window = Counter::mul(window, k);
        cost.flops = Counter::mul(c.elements(c.output(0)), window);
    } else if (onnx_domain && is_reduction(op)) {
        cost.flops = c.elements(c.input(0));
    }

    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const auto* t = c.input(i);
        if (!t)
            continue;
        const auto bytes = input_bytes_read(model, node, i);
        if (bytes < 0 && element_bits(t->dtype) > 0)
            c.elements(nullptr); // marks the cost incomplete
        cost.bytes_in += std::max<std::int64_t>(bytes, 0);
        const bool bn_statistic = op == "BatchNormalization" && (i == 3 || i == 4);
        const auto quantized = t->kind == Tensor::Kind::Initializer
                                   ? logical_weight_parameters(model, node, i)
                                   : std::nullopt;
        if (quantized)
            cost.weight_parameters += *quantized;
        else if (t->kind == Tensor::Kind::Initializer && is_floating(t->dtype) && !bn_statistic)
            cost.weight_parameters += std::max<std::int64_t>(t->elements(), 0);
    }
    for (std::size_t i = 0; i < node.outputs.size(); ++i) {
        const auto* t = c.output(i);
        if (!t)
            continue;
        const auto bytes = t->bytes();
        if (bytes < 0 && element_bits(t->dtype) > 0)
            c.elements(nullptr);
        cost.bytes_out += std::max<std::int64_t>(bytes, 0);
    }
    cost.complete = c.complete();
    return cost;
}

void compute_costs(Model& model) {
    model.macs = model.flops = 0;
    for (auto& node : model.nodes) {
        node.cost = node_cost(model, node);
        model.macs += node.cost.macs;
        model.flops += node.cost.flops;
    }
    model.weight_parameters = model.initializer_elements = 0;
    for (const auto& t : model.tensors) {
        if (t.kind != Tensor::Kind::Initializer)
            continue;
        const auto n = std::max<std::int64_t>(t.elements(), 0);
        model.initializer_elements += n;
        const bool bn_statistic_only =
            !t.consumers.empty() &&
            std::all_of(t.consumers.begin(), t.consumers.end(), [&](int consumer) {
                const auto& node = model.nodes[consumer];
                if (node.op != "BatchNormalization")
                    return false;
                const int self = static_cast<int>(&t - model.tensors.data());
                for (std::size_t i = 0; i < node.inputs.size(); ++i)
                    if (node.inputs[i] == self && i != 3 && i != 4)
                        return false;
                return true;
            });
        if (const auto quantized =
                logical_initializer_parameters(model, static_cast<int>(&t - model.tensors.data())))
            model.weight_parameters += *quantized;
        else if (is_floating(t.dtype) && !bn_statistic_only)
            model.weight_parameters += n;
    }
}

} // namespace cleave::graph
