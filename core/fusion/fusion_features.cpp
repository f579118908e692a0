#include "fusion_features.hpp"

#include "rule_engine.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cleave::fusion {

namespace {

// Sizes span orders of magnitude; a log keeps them in the range the weights start in.
double log_scaled(std::int64_t value, double scale) {
    return value > 0 ? std::log1p(static_cast<double>(value)) / scale : 0.0;
}

double capped(std::size_t count, double cap) {
    return std::min(static_cast<double>(count), cap) / cap;
}

// Op categories let the classifier treat an op it never saw like its kin (Clip like Relu).
const std::unordered_map<std::string, int>& op_categories() {
    static const std::unordered_map<std::string, int> categories = [] {
        const std::vector<std::vector<const char*>> groups = {
            {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv"},
            {"MatMul", "Gemm", "Einsum", "MatMulInteger", "QLinearMatMul"},
            {"BatchNormalization", "LayerNormalization", "InstanceNormalization",
             "GroupNormalization", "LpNormalization", "SkipLayerNormalization"},
            {"Relu", "Clip", "LeakyRelu", "PRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
             "Elu", "Selu", "Celu", "Gelu", "Softplus", "Softsign", "Mish", "ThresholdedRelu"},
            {"Erf", "Sqrt", "Exp", "Log", "Abs", "Neg", "Reciprocal", "Floor", "Ceil", "Round",
             "Sin", "Cos", "Not", "IsNaN", "IsInf", "Cast", "Identity", "Dropout"},
            {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mod", "Sum", "Mean", "Equal", "Less",
             "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where"},
            {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool"},
            {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2",
             "Softmax", "LogSoftmax", "ArgMax", "ArgMin", "TopK"},
            {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Expand", "Tile",
             "DepthToSpace", "SpaceToDepth"},
            {"Concat", "Split", "Slice", "Gather", "GatherElements", "GatherND", "Pad", "Resize",
             "Upsample", "ScatterND"},
            {"Constant", "ConstantOfShape", "Shape", "Size", "Range"},
        };
        std::unordered_map<std::string, int> map;
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (const char* op : groups[g])
                map.emplace(op, static_cast<int>(g));
        return map;
    }();
    return categories;
}

} // namespace

int op_category(const std::string& op) {
    const auto category = op_categories().find(op);
    return category == op_categories().end() ? kOpCategories - 1 : category->second;
}

namespace {

SparseMatrix mean_adjacency(std::size_t n, const std::vector<std::vector<int>>& neighbours) {
    std::vector<Eigen::Triplet<double>> entries;
    for (std::size_t i = 0; i < n; ++i)
        for (const int j : neighbours[i])
            entries.emplace_back(static_cast<int>(i), j, 1.0 / neighbours[i].size());
    SparseMatrix m(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    m.setFromTriplets(entries.begin(), entries.end());
    return m;
}

// Each node's producers and consumers along the edges.
struct Neighbours {
    std::vector<std::vector<int>> producers, consumers;
};

Neighbours neighbours_of(std::size_t n, const std::vector<Edge>& edges) {
    Neighbours nb{std::vector<std::vector<int>>(n), std::vector<std::vector<int>>(n)};
    for (const auto& e : edges) {
        nb.producers[static_cast<std::size_t>(e.to)].push_back(e.from);
        nb.consumers[static_cast<std::size_t>(e.from)].push_back(e.to);
    }
    return nb;
}

// Node i's row from column `first` on: sizes, neighbour counts, constness, graph output.
void set_node_numbers(Matrix& nodes, Eigen::Index first, const graph::Model& model, std::size_t i,
                      const Neighbours& nb, const std::vector<bool>& constant) {
    const auto& node = model.nodes[i];
    std::int64_t out_elements = 0, weights = 0;
    int outputs = 0, rank = 0, initializer_inputs = 0;
    bool graph_output = false;
    for (const int t : node.outputs) {
        if (t < 0)
            continue;
        const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        ++outputs;
        graph_output |= tensor.is_graph_output;
        if (outputs == 1) {
            out_elements = std::max<std::int64_t>(tensor.elements(), 0);
            rank = tensor.shape ? static_cast<int>(tensor.shape->size()) : 0;
        }
    }
    for (const int t : node.inputs)
        if (t >= 0 &&
            model.tensors[static_cast<std::size_t>(t)].kind == graph::Tensor::Kind::Initializer) {
            ++initializer_inputs;
            weights +=
                std::max<std::int64_t>(model.tensors[static_cast<std::size_t>(t)].elements(), 0);
        }
    const double numeric[kNodeNumericFeatures] = {
        log_scaled(out_elements, 16.0),
        log_scaled(node.cost.macs, 24.0),
        log_scaled(weights, 20.0),
        capped(nb.producers[i].size(), 4.0),
        capped(nb.consumers[i].size(), 4.0),
        capped(static_cast<std::size_t>(outputs), 3.0),
        capped(static_cast<std::size_t>(initializer_inputs), 3.0),
        capped(static_cast<std::size_t>(rank), 6.0),
        constant[i] ? 1.0 : 0.0,
        graph_output ? 1.0 : 0.0,
    };
    const auto r = static_cast<Eigen::Index>(i);
    for (int k = 0; k < kNodeNumericFeatures; ++k)
        nodes(r, first + k) = numeric[k];
}

// Edge e's row: which input of its consumer it feeds, its tensor's fan-out and size, and how
// its two ends sit (constants, single outputs, the consumer's other input).
void set_edge_features(Matrix& features, std::size_t e, const graph::Model& model, const Edge& edge,
                       const Neighbours& nb, const std::vector<bool>& constant) {
    const auto& u = model.nodes[static_cast<std::size_t>(edge.from)];
    const auto& v = model.nodes[static_cast<std::size_t>(edge.to)];
    const auto& tensor = model.tensors[static_cast<std::size_t>(edge.tensor)];
    const auto input = static_cast<std::size_t>(
        std::find(v.inputs.begin(), v.inputs.end(), edge.tensor) - v.inputs.begin());
    int other = -1;
    if (v.inputs.size() == 2)
        other = v.inputs[0] == edge.tensor ? v.inputs[1] : v.inputs[0];
    const int first_consumer =
        *std::min_element(nb.consumers[static_cast<std::size_t>(edge.from)].begin(),
                          nb.consumers[static_cast<std::size_t>(edge.from)].end());
    const auto v_out = v.outputs.empty() || v.outputs[0] < 0
                           ? -1
                           : model.tensors[static_cast<std::size_t>(v.outputs[0])].elements();
    const double values[kEdgeFeatures] = {
        input == 0 ? 1.0 : 0.0,
        input == 1 ? 1.0 : 0.0,
        input >= 2 ? 1.0 : 0.0,
        tensor.consumers.size() == 1 && !tensor.is_graph_output ? 1.0 : 0.0,
        tensor.is_graph_output ? 1.0 : 0.0,
        std::count_if(u.outputs.begin(), u.outputs.end(), [](int t) { return t >= 0; }) == 1 ? 1.0
                                                                                             : 0.0,
        !u.inputs.empty() && other >= 0 && other == u.inputs[0] ? 1.0 : 0.0,
        constant[static_cast<std::size_t>(edge.from)] ? 1.0 : 0.0,
        constant[static_cast<std::size_t>(edge.to)] ? 1.0 : 0.0,
        first_consumer == edge.to ? 1.0 : 0.0,
        v_out >= 0 && v_out == tensor.elements() ? 1.0 : 0.0,
        log_scaled(std::max<std::int64_t>(tensor.elements(), 0), 16.0),
        capped(tensor.consumers.size(), 4.0),
    };
    for (int k = 0; k < kEdgeFeatures; ++k)
        features(static_cast<Eigen::Index>(e), k) = values[k];
}

} // namespace

int node_feature_count(const std::vector<std::string>& ops) {
    return static_cast<int>(ops.size()) + 1 + kOpCategories + kNodeNumericFeatures;
}

FusionFeatures fusion_features(const graph::Model& model, const std::vector<Edge>& edges,
                               const std::vector<std::string>& ops) {
    const auto n = model.nodes.size();
    const int vocabulary = static_cast<int>(ops.size());
    std::unordered_map<std::string, int> op_index;
    for (int i = 0; i < vocabulary; ++i)
        op_index.emplace(ops[static_cast<std::size_t>(i)], i);
    const auto constant = load_time_constants(model);
    const Neighbours nb = neighbours_of(n, edges);

    FusionFeatures f;
    f.edge_list = edges;
    f.nodes = Matrix::Zero(static_cast<Eigen::Index>(n), node_feature_count(ops));
    for (std::size_t i = 0; i < n; ++i) {
        const auto& node = model.nodes[i];
        const auto r = static_cast<Eigen::Index>(i);
        const auto it = op_index.find(node.op);
        f.nodes(r, it == op_index.end() ? vocabulary : it->second) = 1.0;
        f.nodes(r, vocabulary + 1 + op_category(node.op)) = 1.0;
        set_node_numbers(f.nodes, vocabulary + 1 + kOpCategories, model, i, nb, constant);
    }
    f.predecessors = mean_adjacency(n, nb.producers);
    f.successors = mean_adjacency(n, nb.consumers);

    f.edges = Matrix::Zero(static_cast<Eigen::Index>(edges.size()), kEdgeFeatures);
    for (std::size_t e = 0; e < edges.size(); ++e)
        set_edge_features(f.edges, e, model, edges[e], nb, constant);
    return f;
}

} // namespace cleave::fusion
