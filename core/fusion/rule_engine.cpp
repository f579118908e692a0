#include "rule_engine.hpp"

#include "kernel_type_selection.hpp"

#include <algorithm>
#include <unordered_map>

namespace cleave::fusion {

namespace {

bool matches(const std::set<std::string>& ops, const std::string& op) {
    return ops.empty() || ops.count(op);
}

// An initializer, or the output of a node computed at load time.
bool known_at_load(const graph::Model& model, int t, const std::vector<bool>& constant) {
    if (t < 0)
        return false;
    const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
    return tensor.kind == graph::Tensor::Kind::Initializer ||
           (tensor.producer >= 0 && constant[static_cast<std::size_t>(tensor.producer)]);
}

// The input `node` scales by a one-element load-time constant, as ONNX Runtime's
// MatMulScaleFusion takes it: Mul by such a constant (either side), or Div by it; -1 otherwise.
int scalar_scaled_input(const graph::Model& model, const graph::Node& node,
                        const std::vector<bool>& constant) {
    if (node.inputs.size() != 2 || (node.op != "Mul" && node.op != "Div"))
        return -1;
    auto scalar_constant = [&](int t) {
        return known_at_load(model, t, constant) &&
               model.tensors[static_cast<std::size_t>(t)].elements() == 1;
    };
    if (scalar_constant(node.inputs[1]) && !scalar_constant(node.inputs[0]))
        return node.inputs[0];
    if (node.op == "Mul" && scalar_constant(node.inputs[0]) && !scalar_constant(node.inputs[1]))
        return node.inputs[1];
    return -1;
}

// v's input other than `data` is a load-time constant of one value per channel (dim 1) of `data`.
bool channel_constant(const graph::Model& model, const graph::Node& v, int data,
                      const std::vector<bool>& constant) {
    if (v.inputs.size() != 2 || (v.inputs[0] != data && v.inputs[1] != data))
        return false;
    const int other = v.inputs[0] == data ? v.inputs[1] : v.inputs[0];
    const auto& shape = model.tensors[static_cast<std::size_t>(data)].shape;
    return known_at_load(model, other, constant) && shape && shape->size() >= 2 &&
           (*shape)[1] > 1 &&
           model.tensors[static_cast<std::size_t>(other)].elements() == (*shape)[1];
}

// The bias v adds to `product`, the output of u: a vector of the product's last dim (bias
// vector), or what MatMulAddFusion gives Gemm as C: such a vector, or when u's first input is a
// matrix (1, N), (M, 1) or (M, N); a first input of more dims must have a shape the runtime knows
// when it loads the file (`run_time_shape` false), as the Reshapes around the Gemm are constant.
bool adds_bias(const graph::Model& model, const graph::Node& u, const graph::Node& v, int product,
               bool gemm, const std::vector<bool>& run_time_shape) {
    if (v.inputs.size() != 2 || (v.inputs[0] != product && v.inputs[1] != product) ||
        u.inputs.empty() || u.inputs[0] < 0)
        return false;
    const int bias = v.inputs[0] == product ? v.inputs[1] : v.inputs[0];
    const auto& c = model.tensors[static_cast<std::size_t>(bias)].shape;
    const auto& out = model.tensors[static_cast<std::size_t>(product)].shape;
    const auto& a = model.tensors[static_cast<std::size_t>(u.inputs[0])].shape;
    if (!c || !out || out->empty() || !a)
        return false;
    const std::int64_t n = out->back();
    if (gemm && a->size() != 2 && run_time_shape[static_cast<std::size_t>(u.inputs[0])])
        return false;
    if (c->size() == 1)
        return (*c)[0] == n && n > 0;
    if (!gemm || c->size() != 2 || a->size() != 2)
        return false;
    const std::int64_t m = (*a)[0];
    return ((*c)[0] == 1 && (*c)[1] == n) || ((*c)[0] == m && ((*c)[1] == 1 || (*c)[1] == n));
}

// A Transpose's permutation (its dims reversed when it has none); empty when unknown.
std::vector<std::int64_t> transpose_perm(const graph::Model& model, const graph::Node& node) {
    auto perm = node.ints_attribute("perm");
    if (perm.empty() && !node.inputs.empty() && node.inputs[0] >= 0) {
        const auto& shape = model.tensors[static_cast<std::size_t>(node.inputs[0])].shape;
        if (shape)
            for (std::size_t d = shape->size(); d-- > 0;)
                perm.push_back(static_cast<std::int64_t>(d));
    }
    return perm;
}

// A permutation MatmulTransposeFusion folds into the MatMul it feeds: the input's last axis
// stays in the last two dims, and the batch dims keep their order, contiguous, from dim 0 or 1.
bool matmul_foldable_perm(const std::vector<std::int64_t>& perm) {
    const auto rank = static_cast<std::int64_t>(perm.size());
    if (rank < 2 || (perm[rank - 1] != rank - 1 && perm[rank - 2] != rank - 1))
        return false;
    if (rank >= 3) {
        if (perm[0] != 0 && perm[0] != 1)
            return false;
        for (std::int64_t i = 0; i + 3 < rank; ++i)
            if (perm[i] + 1 != perm[i + 1])
                return false;
    }
    return true;
}

bool matmul_foldable_transpose(const graph::Model& model, const graph::Node& node) {
    return node.op == "Transpose" && matmul_foldable_perm(transpose_perm(model, node));
}

// FusionRule::to_split_reshape_into_transpose for v.
bool split_reshape_into_transpose(const graph::Model& model, const graph::Node& v,
                                  const std::vector<bool>& constant) {
    if (v.op != "Reshape" || v.inputs.empty() || v.inputs[0] < 0 || v.outputs.empty() ||
        v.outputs[0] < 0)
        return false;
    const auto& in = model.tensors[static_cast<std::size_t>(v.inputs[0])].shape;
    const auto& output = model.tensors[static_cast<std::size_t>(v.outputs[0])];
    if (!in || !output.shape || output.is_graph_output)
        return false;
    // Each input dim the product of the next output dims.
    std::size_t o = 0;
    for (const std::int64_t d : *in) {
        std::int64_t product = 1;
        const std::size_t start = o;
        while (o < output.shape->size() && (product < d || o == start)) {
            if ((*output.shape)[o] <= 0)
                return false;
            product *= (*output.shape)[o++];
        }
        if (product != d)
            return false;
    }
    if (o != output.shape->size())
        return false;
    int readers = 0;
    for (const int c : output.consumers) {
        if (constant[static_cast<std::size_t>(c)])
            continue;
        if (model.nodes[static_cast<std::size_t>(c)].op != "Transpose")
            return false;
        ++readers;
    }
    return readers == 1;
}

// FusionRule::to_unit_reshape for the edge u -> v; `kernel_of` gives a node's kernel.
template <typename KernelOf>
bool unit_reshape(const graph::Model& model, const graph::Node& u, int v,
                  const std::vector<bool>& constant, KernelOf kernel_of) {
    if (u.outputs.empty() || u.outputs[0] < 0)
        return false;
    const auto& in = model.tensors[static_cast<std::size_t>(u.outputs[0])].shape;
    if (!in)
        return false;
    // The kernel's last reshape: from v along the one run-time reader in the same kernel.
    const int kernel = kernel_of(v);
    int last = v;
    for (bool more = true; more;) {
        more = false;
        const auto& node = model.nodes[static_cast<std::size_t>(last)];
        if (node.outputs.empty() || node.outputs[0] < 0)
            return false;
        for (const int c : model.tensors[static_cast<std::size_t>(node.outputs[0])].consumers)
            if (!constant[static_cast<std::size_t>(c)] && kernel_of(c) == kernel) {
                last = c;
                more = true;
                break;
            }
    }
    const auto& out = model
                          .tensors[static_cast<std::size_t>(
                              model.nodes[static_cast<std::size_t>(last)].outputs[0])]
                          .shape;
    if (!out || out->size() != in->size())
        return false;
    const auto dims_over_one = [](const std::vector<std::int64_t>& shape) {
        std::vector<std::int64_t> dims;
        for (const auto d : shape)
            if (d != 1)
                dims.push_back(d);
        return dims;
    };
    const auto kept = dims_over_one(*in);
    return kept == dims_over_one(*out) &&
           std::none_of(kept.begin(), kept.end(), [](std::int64_t d) { return d <= 0; });
}

// Per tensor: a Transpose reads it, or a node of `through` whose output is such a tensor does
// (nodes are in topological order, so one pass from the last).
std::vector<bool> reaching_transpose(const graph::Model& model,
                                     const std::set<std::string>& through) {
    std::vector<bool> reaches(model.tensors.size(), false);
    for (std::size_t n = model.nodes.size(); n-- > 0;) {
        const auto& node = model.nodes[n];
        if (node.op == "Transpose") {
            if (!node.inputs.empty() && node.inputs[0] >= 0)
                reaches[static_cast<std::size_t>(node.inputs[0])] = true;
            continue;
        }
        if (through.count(node.op) &&
            std::any_of(node.outputs.begin(), node.outputs.end(),
                        [&](int t) { return t >= 0 && reaches[static_cast<std::size_t>(t)]; }))
            for (const int t : node.inputs)
                if (t >= 0)
                    reaches[static_cast<std::size_t>(t)] = true;
    }
    return reaches;
}

// RuleSet::share_equal_constants: the Constant nodes ONNX Runtime keeps of each set of equal
// ones of more than one element (the same serialized value) and that readers in more than one
// kernel then read. Which one it keeps is the first of the set in the order its initializer
// table, an std::unordered_map of names, iterates: the graph's initializers, then the Constant
// nodes' outputs, inserted in file order. This build's std::unordered_map is replayed for that
// order, which is ONNX Runtime's own on Linux (libstdc++): it names the one kept in each of the
// 6 sets of ShuffleNetV2 in the Xeon data and in 24 of maxvit_t's run here. Single values are
// left alone: ConstantSharing (constant_sharing.cc) gives most of them a new shared initializer
// and removes the originals, each then going with its first reader as without sharing.
std::vector<bool> shared_constants_in_no_kernel(const graph::Model& model,
                                                const std::vector<bool>& constant,
                                                const std::vector<int>& kernel_of_node) {
    std::unordered_map<std::string, int> table;
    for (const auto& t : model.tensors)
        if (t.kind == graph::Tensor::Kind::Initializer)
            table.emplace(t.name, -1);
    std::map<std::string, std::vector<int>> sets; // value -> Constant nodes
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto& node = model.nodes[n];
        if (node.op != "Constant" || node.outputs.empty() || node.outputs[0] < 0)
            continue;
        table.emplace(model.tensors[static_cast<std::size_t>(node.outputs[0])].name,
                      static_cast<int>(n));
        const auto value = std::find_if(node.attributes.begin(), node.attributes.end(),
                                        [](const graph::Attribute& a) { return !a.data.empty(); });
        const auto& out = model.tensors[static_cast<std::size_t>(node.outputs[0])];
        if (constant[n] && value != node.attributes.end() && out.elements() > 1)
            sets[value->name + '\n' + value->data].push_back(static_cast<int>(n));
    }
    std::vector<int> order(model.nodes.size(), -1); // per Constant node: its place in the table
    int place = 0;
    for (const auto& [name, node] : table) {
        if (node >= 0)
            order[static_cast<std::size_t>(node)] = place;
        ++place;
    }
    std::vector<bool> in_no_kernel(model.nodes.size(), false);
    for (const auto& [value, members] : sets) {
        if (members.size() < 2)
            continue;
        std::set<int> kernels;
        for (const int m : members)
            for (const int c : model
                                   .tensors[static_cast<std::size_t>(
                                       model.nodes[static_cast<std::size_t>(m)].outputs[0])]
                                   .consumers)
                if (!constant[static_cast<std::size_t>(c)])
                    kernels.insert(kernel_of_node[static_cast<std::size_t>(c)]);
        if (kernels.size() > 1)
            in_no_kernel[static_cast<std::size_t>(
                *std::min_element(members.begin(), members.end(), [&](int a, int b) {
                    return order[static_cast<std::size_t>(a)] < order[static_cast<std::size_t>(b)];
                }))] = true;
    }
    return in_no_kernel;
}

// A Transpose whose output only Gathers of one load-time index each, along one axis, read.
bool transpose_of_scalar_gathers(const graph::Model& model, const graph::Node& node,
                                 const std::vector<bool>& constant) {
    if (node.op != "Transpose" || node.outputs.empty() || node.outputs[0] < 0)
        return false;
    const auto& output = model.tensors[static_cast<std::size_t>(node.outputs[0])];
    if (output.is_graph_output)
        return false;
    std::optional<std::int64_t> axis;
    int gathers = 0;
    for (const int c : output.consumers) {
        if (constant[static_cast<std::size_t>(c)])
            continue;
        const auto& g = model.nodes[static_cast<std::size_t>(c)];
        if (g.op != "Gather" || g.inputs.size() != 2 || g.inputs[0] != node.outputs[0] ||
            !known_at_load(model, g.inputs[1], constant) ||
            model.tensors[static_cast<std::size_t>(g.inputs[1])].elements() != 1)
            return false;
        const auto a = g.int_attribute("axis", 0);
        if (axis && *axis != a)
            return false;
        axis = a;
        ++gathers;
    }
    return gathers >= 2;
}

// The Split axis of a Transpose read only by one Split whose outputs only Squeezes of that axis
// read (torch's unbind, as timm's attention takes q, k and v apart); -1 otherwise. ONNX Runtime's
// layout transformer moves such a Transpose past the Split and the Squeezes, onto each output.
std::int64_t unbind_axis(const graph::Model& model, const graph::Node& node,
                         const std::vector<bool>& constant) {
    if (node.op != "Transpose" || node.outputs.empty() || node.outputs[0] < 0)
        return -1;
    const auto& output = model.tensors[static_cast<std::size_t>(node.outputs[0])];
    if (output.is_graph_output || !output.shape)
        return -1;
    const graph::Node* split = nullptr;
    for (const int c : output.consumers) {
        if (constant[static_cast<std::size_t>(c)])
            continue;
        const auto& n = model.nodes[static_cast<std::size_t>(c)];
        if (split || n.op != "Split" || n.inputs.empty() || n.inputs[0] != node.outputs[0])
            return -1;
        split = &n;
    }
    if (!split || split->outputs.size() < 2)
        return -1;
    const auto rank = static_cast<std::int64_t>(output.shape->size());
    auto axis = split->int_attribute("axis", 0);
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return -1;
    for (const int t : split->outputs) {
        if (t < 0)
            return -1;
        const auto& part = model.tensors[static_cast<std::size_t>(t)];
        if (part.is_graph_output || !part.shape ||
            static_cast<std::int64_t>(part.shape->size()) != rank || (*part.shape)[axis] != 1)
            return -1;
        auto squeezed = *part.shape;
        squeezed.erase(squeezed.begin() + axis);
        for (const int c : part.consumers) {
            if (constant[static_cast<std::size_t>(c)])
                continue;
            const auto& q = model.nodes[static_cast<std::size_t>(c)];
            if (q.op != "Squeeze" || q.outputs.empty() || q.outputs[0] < 0 ||
                model.tensors[static_cast<std::size_t>(q.outputs[0])].shape != squeezed)
                return -1;
        }
    }
    return axis;
}

// For a Transpose u whose input a Squeeze of an unbind's output makes: the permutation of u
// merged with the Transpose the layout transformer moves past the unbind onto that output (the
// moved one's permutation less the squeezed axis, then u's); empty for any other u.
std::vector<std::int64_t> unbound_transpose_perm(const graph::Model& model, const graph::Node& u,
                                                 const std::vector<bool>& constant) {
    if (u.op != "Transpose" || u.inputs.empty() || u.inputs[0] < 0)
        return {};
    const int q = model.tensors[static_cast<std::size_t>(u.inputs[0])].producer;
    if (q < 0 || model.nodes[static_cast<std::size_t>(q)].op != "Squeeze")
        return {};
    const auto& squeeze = model.nodes[static_cast<std::size_t>(q)];
    if (squeeze.inputs.empty() || squeeze.inputs[0] < 0)
        return {};
    const int s = model.tensors[static_cast<std::size_t>(squeeze.inputs[0])].producer;
    if (s < 0 || model.nodes[static_cast<std::size_t>(s)].op != "Split")
        return {};
    const auto& split = model.nodes[static_cast<std::size_t>(s)];
    const int t = split.inputs.empty() || split.inputs[0] < 0
                      ? -1
                      : model.tensors[static_cast<std::size_t>(split.inputs[0])].producer;
    if (t < 0)
        return {};
    const auto& moved = model.nodes[static_cast<std::size_t>(t)];
    const auto axis = unbind_axis(model, moved, constant);
    const auto perm = transpose_perm(model, moved);
    const auto outer = transpose_perm(model, u);
    if (axis < 0 || perm.size() < 2 || outer.size() + 1 != perm.size())
        return {};
    std::vector<std::int64_t> squeezed; // the moved permutation on the squeezed input
    for (std::size_t i = 0; i < perm.size(); ++i)
        if (static_cast<std::int64_t>(i) != axis)
            squeezed.push_back(perm[i] > perm[static_cast<std::size_t>(axis)] ? perm[i] - 1
                                                                              : perm[i]);
    std::vector<std::int64_t> merged;
    for (const std::int64_t i : outer) {
        if (i < 0 || i >= static_cast<std::int64_t>(squeezed.size()))
            return {};
        merged.push_back(squeezed[static_cast<std::size_t>(i)]);
    }
    return merged;
}

// FusionRule::from_matmul_operand for u.
bool matmul_operand_layout(const graph::Model& model, const graph::Node& u,
                           const std::vector<bool>& constant) {
    if (u.op == "Transpose") {
        // After a Transpose moved past an unbind (above) merged into u, the merged one is what
        // MatmulTransposeFusion sees.
        const auto merged = unbound_transpose_perm(model, u, constant);
        return merged.empty() ? matmul_foldable_transpose(model, u) : matmul_foldable_perm(merged);
    }
    if (u.op != "Reshape" || u.inputs.empty() || u.inputs[0] < 0 || u.outputs.empty() ||
        u.outputs[0] < 0)
        return false;
    const auto& in = model.tensors[static_cast<std::size_t>(u.inputs[0])];
    const auto& out = model.tensors[static_cast<std::size_t>(u.outputs[0])].shape;
    if (!in.shape || !out || in.shape->size() < 2 || out->size() < 2 ||
        !std::equal(in.shape->end() - 2, in.shape->end(), out->end() - 2) || in.producer < 0)
        return false;
    return matmul_foldable_transpose(model, model.nodes[static_cast<std::size_t>(in.producer)]);
}

// FusionRule::transpose_through_split for the edge u -> v.
bool transpose_through_split(const graph::Model& model, const graph::Node& u, int v,
                             const std::vector<bool>& constant) {
    if (u.op == "Transpose") {
        if (!transpose_of_scalar_gathers(model, u, constant) && unbind_axis(model, u, constant) < 0)
            return false;
        for (const int c : model.tensors[static_cast<std::size_t>(u.outputs[0])].consumers)
            if (!constant[static_cast<std::size_t>(c)])
                return c == v; // the first reader
        return false;
    }
    if (u.op != "Gather" || model.nodes[static_cast<std::size_t>(v)].op != "Transpose" ||
        u.inputs.empty() || u.inputs[0] < 0)
        return false;
    const int p = model.tensors[static_cast<std::size_t>(u.inputs[0])].producer;
    return p >= 0 &&
           transpose_of_scalar_gathers(model, model.nodes[static_cast<std::size_t>(p)], constant);
}

// True when an input is stretched along a dim of size 1 to the output (or a shape is unknown).
bool broadcasts(const graph::Model& model, int output, const std::vector<int>& inputs) {
    const auto& out = model.tensors[static_cast<std::size_t>(output)];
    if (!out.shape)
        return true;
    for (const int t : inputs) {
        const auto& in = model.tensors[static_cast<std::size_t>(t)].shape;
        if (!in || in->size() > out.shape->size())
            return true;
        const auto offset = out.shape->size() - in->size();
        for (std::size_t d = 0; d < out.shape->size(); ++d) {
            const std::int64_t o = (*out.shape)[d];
            const std::int64_t i = d < offset ? 1 : (*in)[d - offset];
            if (o < 0 || i < 0 || (i == 1 && o != 1))
                return true;
        }
    }
    return false;
}

// v's inputs as the runtime sees them: constants become attributes, not inputs, and for ops in
// `latest_first` the input computed last (by the highest node) moves to the front, as the TFLite
// GPU delegate does for Add and Mul so that the newest tensor can link.
std::vector<int> runtime_inputs(const graph::Model& model, const graph::Node& v,
                                const std::vector<bool>& constant,
                                const std::set<std::string>& latest_first) {
    std::vector<int> inputs;
    for (const int t : v.inputs) {
        if (t < 0)
            continue;
        const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        if (tensor.kind == graph::Tensor::Kind::Initializer ||
            (tensor.producer >= 0 && constant[static_cast<std::size_t>(tensor.producer)]))
            continue;
        inputs.push_back(t);
    }
    if (inputs.size() < 2 || !latest_first.count(v.op) || v.outputs.empty() || v.outputs[0] < 0 ||
        broadcasts(model, v.outputs[0], inputs))
        return inputs;
    std::size_t latest = 0;
    for (std::size_t i = 1; i < inputs.size(); ++i)
        if (model.tensors[static_cast<std::size_t>(inputs[i])].producer >
            model.tensors[static_cast<std::size_t>(inputs[latest])].producer)
            latest = i;
    std::swap(inputs[0], inputs[latest]);
    return inputs;
}

// Merges every group of unfused `to` nodes that read one tensor at the same input.
void merge_siblings(const graph::Model& model, const FusionRule& rule,
                    const std::vector<bool>& constant, NodeGroups& groups, std::vector<int>& anchor,
                    std::vector<std::string>& type) {
    const auto input = static_cast<std::size_t>(std::max(rule.to_input, 0));
    for (std::size_t t = 0; t < model.tensors.size(); ++t) {
        int first = -1;
        for (const int c : model.tensors[t].consumers) {
            const auto& node = model.nodes[static_cast<std::size_t>(c)];
            const int root = groups.find(c);
            if (constant[static_cast<std::size_t>(c)] || !matches(rule.to, node.op) ||
                node.inputs.size() <= input || node.inputs[input] != static_cast<int>(t) ||
                anchor[static_cast<std::size_t>(root)] != c)
                continue;
            if (first < 0) {
                first = c;
                continue;
            }
            const int kept_anchor = anchor[static_cast<std::size_t>(groups.find(first))];
            if (groups.merge(first, c)) {
                const auto merged = static_cast<std::size_t>(groups.find(first));
                anchor[merged] = kept_anchor;
                if (!rule.kernel_type.empty())
                    type[merged] = rule.kernel_type;
            }
        }
    }
}

// The grouping while a rule set applies: the node groups, and per group root the node that gives
// the kernel its identity and the type a rule gave it.
class RuleFusion {
public:
    RuleFusion(const graph::Model& model, const RuleSet& rules, std::span<const int> parts)
        : model_(model), groups_(model, parts), anchor_(model.nodes.size()),
          type_(model.nodes.size()),
          constant_(rules.fold_constants ? load_time_constants(model)
                                         : std::vector<bool>(model.nodes.size(), false)),
          run_time_shape_(run_time_shapes(model)) {
        for (std::size_t n = 0; n < anchor_.size(); ++n)
            anchor_[n] = static_cast<int>(n);
    }

    const std::vector<bool>& constant() const { return constant_; }

    // Each load-time constant joins the kernel of its first reader.
    void join_constants_to_readers() {
        for (std::size_t i = model_.nodes.size(); i-- > 0;) {
            if (!constant_[i])
                continue;
            std::vector<int> consumers;
            for (const int t : model_.nodes[i].outputs)
                if (t >= 0)
                    consumers.insert(consumers.end(), model_.tensors[t].consumers.begin(),
                                     model_.tensors[t].consumers.end());
            if (consumers.empty())
                continue;
            const int consumer = *std::min_element(consumers.begin(), consumers.end());
            const int kept_anchor = anchor_[static_cast<std::size_t>(groups_.find(consumer))];
            const std::string kept_type = type_[static_cast<std::size_t>(groups_.find(consumer))];
            if (groups_.merge(static_cast<int>(i), consumer)) {
                anchor_[static_cast<std::size_t>(groups_.find(consumer))] = kept_anchor;
                type_[static_cast<std::size_t>(groups_.find(consumer))] = kept_type;
            }
        }
    }

    void apply(const FusionRule& rule, const std::vector<Edge>& edges) {
        const auto reaches =
            rule.to_output_reaches_transpose_through.empty()
                ? std::vector<bool>()
                : reaching_transpose(model_, rule.to_output_reaches_transpose_through);
        if (rule.siblings) {
            merge_siblings(model_, rule, constant_, groups_, anchor_, type_);
            return;
        }
        // Nodes joining their consumer's kernel go from the last producer back: a load-time
        // constant two scales share sits with the first, and once the second has joined, its
        // read of that constant no longer looks like a path around the kernel.
        for (std::size_t i = 0; i < edges.size(); ++i) {
            const auto& e = edges[rule.join_consumer ? edges.size() - 1 - i : i];
            if (constant_[static_cast<std::size_t>(e.from)] ||
                constant_[static_cast<std::size_t>(e.to)])
                continue;
            const int ru = groups_.find(e.from), rv = groups_.find(e.to);
            if (ru == rv)
                continue; // already one kernel
            if (!kernels_fit(rule, e, ru, rv) || !tensor_fits(rule, e, rv) ||
                !shapes_fit(rule, e) || !neighbours_fit(rule, e, ru, reaches))
                continue;
            const auto kept = static_cast<std::size_t>(rule.join_consumer ? rv : ru);
            const int kept_anchor = anchor_[kept];
            const std::string kept_type = rule.kernel_type.empty() ? type_[kept] : rule.kernel_type;
            if (!groups_.merge(e.from, e.to))
                continue;
            const auto root = static_cast<std::size_t>(groups_.find(e.from));
            anchor_[root] = kept_anchor;
            type_[root] = kept_type;
        }
    }

    KernelGraph kernel_graph(const RuleSet& rules, const std::vector<Edge>& edges) {
        return make_kernel_graph(model_, edges, groups_, [&](int root) {
            const auto r = static_cast<std::size_t>(root);
            return type_[r].empty() ? anchor_kernel_type(model_, anchor_[r], rules, constant_)
                                    : type_[r];
        });
    }

private:
    // The kernels on either side take the join: the joining node is a kernel of itself alone
    // (of the type the rule joins into), and the ops and kernel types are the rule's.
    bool kernels_fit(const FusionRule& rule, const Edge& e, int ru, int rv) const {
        const auto& u = model_.nodes[static_cast<std::size_t>(e.from)];
        const auto& v = model_.nodes[static_cast<std::size_t>(e.to)];
        const auto su = static_cast<std::size_t>(ru), sv = static_cast<std::size_t>(rv);
        if (rule.join_consumer
                ? anchor_[su] != e.from || !type_[su].empty() ||
                      (!rule.into_kernel_type.empty() &&
                       !rule.into_kernel_type.count(
                           type_[sv].empty()
                               ? model_.nodes[static_cast<std::size_t>(anchor_[sv])].op
                               : type_[sv]))
                : anchor_[sv] != e.to)
            return false; // the joining node already belongs to a kernel of more than itself
        const auto& anchor_op = model_.nodes[static_cast<std::size_t>(anchor_[su])].op;
        return matches(rule.from, u.op) && matches(rule.from_kernel, anchor_op) &&
               matches(rule.to, v.op) && matches(rule.from_kernel_type, type_[su]);
    }

    // The edge's tensor: at the rule's input of v, read by v's kernel alone where asked, and u's
    // input of the rank asked.
    bool tensor_fits(const FusionRule& rule, const Edge& e, int rv) {
        const auto& u = model_.nodes[static_cast<std::size_t>(e.from)];
        const auto& v = model_.nodes[static_cast<std::size_t>(e.to)];
        const auto& tensor = model_.tensors[static_cast<std::size_t>(e.tensor)];
        if (rule.to_input >= 0 && (static_cast<std::size_t>(rule.to_input) >= v.inputs.size() ||
                                   v.inputs[rule.to_input] != e.tensor))
            return false;
        // Readers computed at load time (a Shape of the tensor) are gone by then; readers
        // already one kernel with v (a decomposed LayerNorm's mean and difference) are one.
        if (rule.single_consumer &&
            (tensor.is_graph_output ||
             std::any_of(tensor.consumers.begin(), tensor.consumers.end(), [&](int c) {
                 return !constant_[static_cast<std::size_t>(c)] && groups_.find(c) != rv;
             })))
            return false;
        if (const auto [input, rank] = rule.from_input_rank; input >= 0) {
            const int t = static_cast<std::size_t>(input) < u.inputs.size() ? u.inputs[input] : -1;
            const auto& shape =
                t < 0 ? std::nullopt : model_.tensors[static_cast<std::size_t>(t)].shape;
            if (!shape || static_cast<int>(shape->size()) != rank)
                return false;
        }
        return true;
    }

    // The patterns the rule asks of u and v's values: scalar scales, one dtype through u,
    // per-channel constants, matmul operand layouts, transposes through splits.
    bool shapes_fit(const FusionRule& rule, const Edge& e) const {
        const auto& u = model_.nodes[static_cast<std::size_t>(e.from)];
        const auto& v = model_.nodes[static_cast<std::size_t>(e.to)];
        if (rule.from_scalar_scale && scalar_scaled_input(model_, u, constant_) < 0)
            return false;
        if (rule.to_scalar_scale && scalar_scaled_input(model_, v, constant_) != e.tensor)
            return false;
        if (rule.from_same_type &&
            (u.inputs.empty() || u.inputs[0] < 0 || u.outputs.empty() || u.outputs[0] < 0 ||
             model_.tensors[static_cast<std::size_t>(u.outputs[0])].dtype ==
                 graph::DataType::Undefined ||
             model_.tensors[static_cast<std::size_t>(u.inputs[0])].dtype !=
                 model_.tensors[static_cast<std::size_t>(u.outputs[0])].dtype))
            return false;
        if (rule.to_channel_constant && !channel_constant(model_, v, e.tensor, constant_))
            return false;
        if ((rule.to_gemm_bias || rule.to_bias_vector) &&
            !adds_bias(model_, u, v, e.tensor, rule.to_gemm_bias, run_time_shape_))
            return false;
        if (rule.from_matmul_operand && !matmul_operand_layout(model_, u, constant_))
            return false;
        if (rule.transpose_through_split && !transpose_through_split(model_, u, e.to, constant_))
            return false;
        return !rule.to_split_reshape_into_transpose ||
               split_reshape_into_transpose(model_, v, constant_);
    }

    // What the rule asks of the nodes around u and v: v's output reaching a transpose, a unit
    // reshape, u's single output, the input of v as the runtime orders them, v's other inputs
    // ready, v's other input u's input.
    bool neighbours_fit(const FusionRule& rule, const Edge& e, int ru,
                        const std::vector<bool>& reaches) {
        const auto& u = model_.nodes[static_cast<std::size_t>(e.from)];
        const auto& v = model_.nodes[static_cast<std::size_t>(e.to)];
        if (!reaches.empty() && std::none_of(v.outputs.begin(), v.outputs.end(), [&](int t) {
                return t >= 0 && reaches[static_cast<std::size_t>(t)];
            }))
            return false;
        if (rule.to_unit_reshape &&
            !unit_reshape(model_, u, e.to, constant_, [&](int n) { return groups_.find(n); }))
            return false;
        if (rule.single_output &&
            std::count_if(u.outputs.begin(), u.outputs.end(), [](int t) { return t >= 0; }) != 1)
            return false;
        if (rule.to_runtime_input >= 0) {
            const auto inputs = runtime_inputs(model_, v, constant_, rule.latest_input_first);
            const auto at = static_cast<std::size_t>(rule.to_runtime_input);
            if (std::count(v.inputs.begin(), v.inputs.end(), e.tensor) != 1 ||
                at >= inputs.size() || inputs[at] != e.tensor)
                return false;
        }
        if (rule.other_inputs_ready) {
            // Ready: a constant, a graph input, or made by a kernel that starts no later than
            // u's (kernels run in the order of their first node).
            const int start = anchor_[static_cast<std::size_t>(ru)];
            const bool ready = std::all_of(v.inputs.begin(), v.inputs.end(), [&](int t) {
                if (t < 0 || t == e.tensor)
                    return true;
                const int p = model_.tensors[static_cast<std::size_t>(t)].producer;
                return p < 0 || constant_[static_cast<std::size_t>(p)] ||
                       anchor_[static_cast<std::size_t>(groups_.find(p))] <= start;
            });
            if (!ready)
                return false;
        }
        if (rule.other_input_is_from_input) {
            if (v.inputs.size() != 2 || u.inputs.empty())
                return false;
            const int other = v.inputs[0] == e.tensor ? v.inputs[1] : v.inputs[0];
            if (other != u.inputs[0])
                return false;
        }
        if (rule.other_inputs_from_kernel_input && !other_inputs_from_kernel_input(e, ru))
            return false;
        return true;
    }

    // v's inputs other than u's output are load-time constants, the first input of the node that
    // anchors u's kernel, or made from that input by one node (a pattern's 0.5 x branch).
    bool other_inputs_from_kernel_input(const Edge& e, int ru) const {
        const auto& anchor =
            model_.nodes[static_cast<std::size_t>(anchor_[static_cast<std::size_t>(ru)])];
        if (anchor.inputs.empty() || anchor.inputs[0] < 0)
            return false;
        const int x = anchor.inputs[0];
        for (const int t : model_.nodes[static_cast<std::size_t>(e.to)].inputs) {
            if (t < 0 || t == e.tensor || t == x || known_at_load(model_, t, constant_))
                continue;
            const int p = model_.tensors[static_cast<std::size_t>(t)].producer;
            const auto& made_by =
                p < 0 ? std::vector<int>{} : model_.nodes[static_cast<std::size_t>(p)].inputs;
            if (std::find(made_by.begin(), made_by.end(), x) == made_by.end())
                return false;
        }
        return true;
    }

    const graph::Model& model_;
    NodeGroups groups_;
    std::vector<int> anchor_;
    std::vector<std::string> type_;
    std::vector<bool> constant_;
    std::vector<bool> run_time_shape_; // by tensor: computed from an input symbolic in the file
};

} // namespace

KernelGraph fuse_with_rules(const graph::Model& model, const RuleSet& rules,
                            std::span<const int> parts) {
    RuleFusion fusion(model, rules, parts);
    fusion.join_constants_to_readers();
    const auto edges = node_edges(model);
    for (const auto& rule : rules.rules)
        fusion.apply(rule, edges);
    auto graph = fusion.kernel_graph(rules, edges);
    for (auto& kernel : graph.kernels) {
        const auto it = rules.launches.find(kernel.type);
        kernel.launches = it == rules.launches.end() ? 1 : it->second;
    }
    // A shared constant stays with its first reader for costs and drawing, but runs in no kernel.
    if (rules.fold_constants && rules.share_equal_constants) {
        const auto shared =
            shared_constants_in_no_kernel(model, fusion.constant(), graph.kernel_of_node);
        for (std::size_t e = 0; e < graph.edges.size(); ++e)
            if (shared[static_cast<std::size_t>(graph.edges[e].from)])
                graph.fused[e] = false;
    }
    return graph;
}

} // namespace cleave::fusion
