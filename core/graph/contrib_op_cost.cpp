#include "contrib_op_cost.hpp"

#include <algorithm>
#include <limits>
#include <string_view>

namespace cleave::graph {

namespace {

constexpr std::string_view kMicrosoftDomain = "com.microsoft";

std::int64_t mul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
}

// Reads shapes for one node's rule; a dim it cannot read counts 0 and marks the work incomplete.
class Shapes {
public:
    Shapes(const Model& model, const Node& node) : model_(model), node_(node) {}

    const Tensor* input(std::size_t i) const { return tensor(node_.inputs, i); }
    const Tensor* output(std::size_t i) const { return tensor(node_.outputs, i); }

    std::int64_t dim(const Tensor* t, int index) {
        const int rank = t && t->shape ? static_cast<int>(t->shape->size()) : 0;
        const int at = index < 0 ? rank + index : index;
        if (at < 0 || at >= rank || (*t->shape)[static_cast<std::size_t>(at)] < 0) {
            work.complete = false;
            return 0;
        }
        return (*t->shape)[static_cast<std::size_t>(at)];
    }
    std::int64_t rank(const Tensor* t) const {
        return t && t->shape ? static_cast<std::int64_t>(t->shape->size()) : -1;
    }
    std::int64_t elements(const Tensor* t) {
        const auto n = t ? t->elements() : -1;
        work.complete &= n >= 0;
        return std::max<std::int64_t>(n, 0);
    }

    ContribWork work;

private:
    const Tensor* tensor(const std::vector<int>& list, std::size_t i) const {
        return i < list.size() && list[i] >= 0 ? &model_.tensors[static_cast<std::size_t>(list[i])]
                                               : nullptr;
    }

    const Model& model_;
    const Node& node_;
};

// Attention over T tokens: Q K^T and P V, each B x S x T x the query's (value's) hidden size,
// and a softmax of one FLOP per score (B x heads x S x T).
void attention_work(Shapes& s, std::int64_t heads, std::int64_t tokens, std::int64_t qk_hidden,
                    std::int64_t v_hidden) {
    const auto* query = s.input(0);
    const auto scores = mul(mul(s.dim(query, 0), s.dim(query, 1)), tokens);
    s.work.macs = mul(scores, qk_hidden + v_hidden);
    s.work.flops = mul(s.work.macs, 2) + mul(scores, heads);
}

// T is the present key's length (max(past, total) by ONNX Runtime's rules), or with no cache
// the new keys'.
void group_query_attention_work(Shapes& s, const Node& node) {
    const auto heads = node.int_attribute("num_heads", 0);
    const auto kv_heads = node.int_attribute("kv_num_heads", 0);
    const bool packed = !s.input(2);
    const auto hidden = s.dim(s.input(0), -1);
    const auto divisor = packed ? heads + 2 * kv_heads : heads;
    const auto head_size = divisor > 0 ? hidden / divisor : 0;
    const auto tokens =
        s.output(1) ? s.dim(s.output(1), 2) : s.dim(packed ? s.input(0) : s.input(1), 1);
    attention_work(s, heads, tokens, heads * head_size, heads * head_size);
}

void multi_head_attention_work(Shapes& s, const Node& node) {
    const auto* key = s.input(1);
    const auto tokens = s.output(1)        ? s.dim(s.output(1), 2)
                        : s.rank(key) == 4 ? s.dim(key, 2)
                                           : s.dim(key ? key : s.input(0), 1);
    const auto* query = s.input(0);
    const auto qk_hidden =
        s.rank(query) == 5 ? mul(s.dim(query, 2), s.dim(query, 4)) : s.dim(query, -1);
    attention_work(s, node.int_attribute("num_heads", 0), tokens, qk_hidden,
                   s.dim(s.output(0), -1));
}

bool one_of(std::string_view op, std::initializer_list<std::string_view> ops) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

} // namespace

std::optional<ContribWork> contrib_op_work(const Model& model, const Node& node) {
    const bool microsoft = node.domain == kMicrosoftDomain;
    const bool onnx = node.domain.empty() || node.domain == "ai.onnx";
    if (!microsoft && !(onnx && node.op == "SimplifiedLayerNormalization"))
        return std::nullopt;
    Shapes s(model, node);
    if (node.op == "MatMulNBits") {
        s.work.macs = mul(s.elements(s.output(0)), node.int_attribute("K", 0));
        s.work.flops = mul(s.work.macs, 2);
    } else if (node.op == "GroupQueryAttention") {
        group_query_attention_work(s, node);
    } else if (node.op == "MultiHeadAttention") {
        multi_head_attention_work(s, node);
    } else if (one_of(node.op,
                      {"RotaryEmbedding", "QuickGelu", "FastGelu", "SimplifiedLayerNormalization",
                       "SkipSimplifiedLayerNormalization", "SkipLayerNormalization"})) {
        s.work.flops = s.elements(s.output(0)); // element-wise and normalisation: one an element
    }
    return s.work;
}

std::optional<std::int64_t> contrib_input_bytes_read(const Model& model, const Node& node,
                                                     std::size_t input) {
    if (node.domain != kMicrosoftDomain)
        return std::nullopt;
    const bool rotary = node.op == "RotaryEmbedding" && (input == 2 || input == 3);
    const bool attention = node.op == "GroupQueryAttention" && (input == 7 || input == 8);
    if (!rotary && !attention)
        return std::nullopt;
    Shapes s(model, node);
    const Tensor* table = s.input(input);
    const Tensor* x = s.input(0);
    // The rows rotated: RotaryEmbedding's input is B x S x hidden or B x heads x S x head size,
    // GroupQueryAttention's query B x S x hidden.
    const int sequence_axis = rotary && s.rank(x) == 4 ? 2 : 1;
    const auto rows = mul(s.dim(x, 0), s.dim(x, sequence_axis));
    const auto positions = s.dim(table, 0);
    const auto bytes = table ? table->bytes() : -1;
    if (!s.work.complete || positions <= 0 || bytes < 0)
        return std::nullopt;
    return bytes / positions * std::min(rows, positions);
}

std::optional<std::int64_t> logical_weight_parameters(const Model& model, const Node& node,
                                                      std::size_t input) {
    const Tensor* t = input < node.inputs.size() && node.inputs[input] >= 0
                          ? &model.tensors[static_cast<std::size_t>(node.inputs[input])]
                          : nullptr;
    if (!t)
        return std::nullopt;
    const auto elements = std::max<std::int64_t>(t->elements(), 0);
    const auto weight_or_none = [&](std::initializer_list<std::size_t> weights) {
        return std::find(weights.begin(), weights.end(), input) != weights.end() ? elements : 0;
    };
    if (node.domain == kMicrosoftDomain && node.op == "MatMulNBits") {
        if (input == 1)
            return mul(node.int_attribute("K", 0), node.int_attribute("N", 0));
        return input == 5 ? std::nullopt : std::optional<std::int64_t>(0); // the bias is a float
    }
    if (node.domain == kMicrosoftDomain && node.op == "RotaryEmbedding")
        return input == 2 || input == 3 ? std::optional<std::int64_t>(0) : std::nullopt;
    if (node.domain == kMicrosoftDomain && node.op == "GroupQueryAttention")
        return input == 7 || input == 8 ? std::optional<std::int64_t>(0) : std::nullopt;
    if (node.domain == kMicrosoftDomain && node.op == "GatherBlockQuantized") {
        const auto bits = std::clamp<std::int64_t>(node.int_attribute("bits", 4), 1, 8);
        if (input != 0)
            return 0;
        return t->dtype == DataType::Uint8 ? mul(elements, 8 / bits) : elements;
    }
    if (!node.domain.empty() && node.domain != "ai.onnx")
        return std::nullopt;
    if (node.op == "DequantizeLinear") // the quantized weight, not its scale and zero point
        return weight_or_none({0});
    if (node.op == "MatMulInteger" || node.op == "ConvInteger")
        return weight_or_none({0, 1});
    if (node.op == "QLinearMatMul")
        return weight_or_none({0, 3});
    if (node.op == "QLinearConv")
        return weight_or_none({0, 3, 8});
    return std::nullopt;
}

std::optional<std::int64_t> logical_initializer_parameters(const Model& model, int tensor) {
    for (const int consumer : model.tensors[static_cast<std::size_t>(tensor)].consumers) {
        const Node& node = model.nodes[static_cast<std::size_t>(consumer)];
        for (std::size_t i = 0; i < node.inputs.size(); ++i)
            if (node.inputs[i] == tensor)
                if (auto count = logical_weight_parameters(model, node, i))
                    return count;
    }
    return std::nullopt;
}

} // namespace cleave::graph
