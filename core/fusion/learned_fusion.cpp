#include "learned_fusion.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "rule_engine.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>

namespace cleave::fusion {

namespace {

constexpr const char* kFormat = "cleave-fusion-model";
constexpr int kVersion = 1;

// Glorot-uniform weights from the raw generator, so a seed gives the same model everywhere.
Matrix glorot(Eigen::Index rows, Eigen::Index cols, std::mt19937& random) {
    const double limit = std::sqrt(6.0 / static_cast<double>(rows + cols));
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = limit * (2.0 * (random() / 4294967295.0) - 1.0);
    return m;
}

int edge_input_width(int node_features, int node_hidden) {
    return 2 * node_features + 2 * node_hidden + kEdgeFeatures;
}

nlohmann::json matrix_json(const Matrix& m) {
    return {{"rows", m.rows()},
            {"cols", m.cols()},
            {"values", std::vector<double>(m.data(), m.data() + m.size())}};
}

// The weight matrix `key`: {rows, cols, values} of this vocabulary's and size's shape.
Matrix read_matrix(const JsonReader& reader, const nlohmann::json& doc, const std::string& key,
                   Eigen::Index rows, Eigen::Index cols) {
    const std::string shape = "a " + std::to_string(rows) + " x " + std::to_string(cols) +
                              " matrix (rows, cols, values) for this vocabulary and size";
    const auto* weights = reader.object(doc, "", "weights", true, "the weight matrices");
    const auto* m = reader.object(*weights, "/weights", key, true, shape);
    const std::string pointer = child_pointer("/weights", key);
    if (m->value("rows", nlohmann::json()) != rows || m->value("cols", nlohmann::json()) != cols)
        reader.fail(pointer, "expected " + shape);
    const auto values = reader.finite_numbers(*m, pointer, "values",
                                              static_cast<std::size_t>(rows * cols), "row by row");
    Matrix out(rows, cols);
    std::copy(values.begin(), values.end(), out.data());
    return out;
}

} // namespace

std::string learned_kernel_type(const graph::Model& model, const std::vector<int>& members,
                                const std::vector<bool>& constant) {
    int best = -1;
    for (const int m : members) {
        const auto& node = model.nodes[static_cast<std::size_t>(m)];
        if (best < 0 || node.cost.macs > model.nodes[static_cast<std::size_t>(best)].cost.macs ||
            (constant[static_cast<std::size_t>(best)] && !constant[static_cast<std::size_t>(m)] &&
             node.cost.macs == model.nodes[static_cast<std::size_t>(best)].cost.macs))
            best = m;
    }
    return model.nodes[static_cast<std::size_t>(best)].op;
}

std::vector<Matrix*> LearnedFusion::parameters() {
    return {&w_self, &w_producers, &w_consumers, &b_node, &w_edge, &b_edge, &w_out, &b_out};
}

LearnedFusion initial_learned_fusion(std::vector<std::string> ops, int node_hidden, int edge_hidden,
                                     unsigned seed) {
    std::mt19937 random(seed);
    LearnedFusion l;
    l.ops = std::move(ops);
    const int features = node_feature_count(l.ops);
    l.w_self = glorot(features, node_hidden, random);
    l.w_producers = glorot(features, node_hidden, random);
    l.w_consumers = glorot(features, node_hidden, random);
    l.b_node = Matrix::Zero(1, node_hidden);
    l.w_edge = glorot(edge_input_width(features, node_hidden), edge_hidden, random);
    l.b_edge = Matrix::Zero(1, edge_hidden);
    l.w_out = glorot(edge_hidden, 1, random);
    l.b_out = Matrix::Zero(1, 1);
    return l;
}

FusionPass run_learned_fusion(const LearnedFusion& l, const FusionFeatures& f) {
    FusionPass pass;
    const Matrix& x = f.nodes;
    Matrix pre = x * l.w_self;
    pre.noalias() += (f.predecessors * x) * l.w_producers;
    pre.noalias() += (f.successors * x) * l.w_consumers;
    pre.rowwise() += l.b_node.row(0);
    pass.node_hidden = pre.array().tanh().matrix();

    const auto features = x.cols();
    const auto hidden = pass.node_hidden.cols();
    const auto edges = static_cast<Eigen::Index>(f.edge_list.size());
    pass.edge_input.resize(edges,
                           edge_input_width(static_cast<int>(features), static_cast<int>(hidden)));
    for (Eigen::Index e = 0; e < edges; ++e) {
        const auto u = f.edge_list[static_cast<std::size_t>(e)].from;
        const auto v = f.edge_list[static_cast<std::size_t>(e)].to;
        auto row = pass.edge_input.row(e);
        row.segment(0, features) = x.row(u);
        row.segment(features, features) = x.row(v);
        row.segment(2 * features, hidden) = pass.node_hidden.row(u);
        row.segment(2 * features + hidden, hidden) = pass.node_hidden.row(v);
        row.segment(2 * (features + hidden), kEdgeFeatures) = f.edges.row(e);
    }
    pass.edge_hidden = pass.edge_input * l.w_edge;
    pass.edge_hidden.rowwise() += l.b_edge.row(0);
    pass.edge_hidden = pass.edge_hidden.cwiseMax(0.0);
    pass.logit = (pass.edge_hidden * l.w_out).col(0).array() + l.b_out(0, 0);
    return pass;
}

std::vector<double> fused_probabilities(const graph::Model& model, const std::vector<Edge>& edges,
                                        const LearnedFusion& learned) {
    if (edges.empty())
        return {};
    const auto pass = run_learned_fusion(learned, fusion_features(model, edges, learned.ops));
    std::vector<double> p(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e)
        p[e] = 1.0 / (1.0 + std::exp(-pass.logit(static_cast<Eigen::Index>(e))));
    return p;
}

KernelGraph fuse_learned(const graph::Model& model, const LearnedFusion& learned,
                         std::span<const int> parts) {
    auto edges = node_edges(model);
    const auto p = fused_probabilities(model, edges, learned);
    std::vector<std::size_t> order(edges.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p[a] > p[b]; });
    NodeGroups groups(model, parts);
    for (const auto e : order)
        if (p[e] > 0.5)
            groups.merge(edges[e].from, edges[e].to);
    const auto constant = load_time_constants(model);
    auto graph = make_kernel_graph(model, std::move(edges), groups, [&](int root) {
        return learned_kernel_type(model, groups.members(root), constant);
    });
    for (auto& kernel : graph.kernels) {
        const auto it = learned.launches.find(kernel.type);
        kernel.launches = it == learned.launches.end() ? 1 : it->second;
    }
    return graph;
}

void save_learned_fusion(const LearnedFusion& l, const std::filesystem::path& path) {
    nlohmann::json weights;
    const char* names[] = {"w_self", "w_producers", "w_consumers", "b_node",
                           "w_edge", "b_edge",      "w_out",       "b_out"};
    const Matrix* values[] = {&l.w_self, &l.w_producers, &l.w_consumers, &l.b_node,
                              &l.w_edge, &l.b_edge,      &l.w_out,       &l.b_out};
    for (std::size_t i = 0; i < std::size(names); ++i)
        weights[names[i]] = matrix_json(*values[i]);
    const nlohmann::json doc{{"format", kFormat},
                             {"version", kVersion},
                             {"op_categories", kOpCategories},
                             {"node_numeric_features", kNodeNumericFeatures},
                             {"edge_features", kEdgeFeatures},
                             {"node_hidden", l.node_hidden()},
                             {"edge_hidden", l.edge_hidden()},
                             {"ops", l.ops},
                             {"launches", l.launches},
                             {"trained_on", l.trained_on},
                             {"weights", weights}};
    write_file_atomically(path, doc.dump() + "\n");
}

LearnedFusion load_learned_fusion(const std::string& path) {
    const nlohmann::json doc =
        read_json_file(path, "a fusion model written by cleave fuse-train");
    const JsonReader r(path);
    r.expect_object(doc, "", "a fusion model written by cleave fuse-train");
    if (r.string(doc, "", "format", false) != kFormat)
        r.fail("/format",
               std::string("expected \"") + kFormat + "\" (a file written by cleave fuse-train)");
    if (r.whole_number(doc, "", "version", false, 0, std::numeric_limits<int>::max()) != kVersion)
        r.fail("/version", "expected " + std::to_string(kVersion));
    const auto declared = [&](const char* key) {
        return r.whole_number(doc, "", key, false, 0, std::numeric_limits<int>::max());
    };
    if (declared("op_categories") != kOpCategories ||
        declared("node_numeric_features") != kNodeNumericFeatures ||
        declared("edge_features") != kEdgeFeatures)
        r.fail("/node_numeric_features",
               "expected " + std::to_string(kOpCategories) + " op categories, " +
                   std::to_string(kNodeNumericFeatures) + " node and " +
                   std::to_string(kEdgeFeatures) + " edge features, as this version computes");
    const auto* ops = r.array(doc, "", "ops", true, "a non-empty list of op types");
    if (ops->empty())
        r.fail("/ops", "expected a non-empty list of op types");
    LearnedFusion l;
    l.file = path;
    for (std::size_t i = 0; i < ops->size(); ++i)
        l.ops.push_back(r.string_at((*ops)[i], child_pointer("/ops", i), "an op type"));
    const int node_hidden = r.whole_number(doc, "", "node_hidden", true, 0, 4096).value();
    const int edge_hidden = r.whole_number(doc, "", "edge_hidden", true, 1, 4096).value();
    const int features = node_feature_count(l.ops);
    l.w_self = read_matrix(r, doc, "w_self", features, node_hidden);
    l.w_producers = read_matrix(r, doc, "w_producers", features, node_hidden);
    l.w_consumers = read_matrix(r, doc, "w_consumers", features, node_hidden);
    l.b_node = read_matrix(r, doc, "b_node", 1, node_hidden);
    l.w_edge = read_matrix(r, doc, "w_edge", edge_input_width(features, node_hidden), edge_hidden);
    l.b_edge = read_matrix(r, doc, "b_edge", 1, edge_hidden);
    l.w_out = read_matrix(r, doc, "w_out", edge_hidden, 1);
    l.b_out = read_matrix(r, doc, "b_out", 1, 1);
    if (const auto* launches = r.object(doc, "", "launches", false, "an object of op -> kernel count"))
        for (const auto& [op, count] : launches->items())
            l.launches[op] = r.whole_number(*launches, "/launches", op, true, 1, 1'000'000).value();
    if (const auto it = doc.find("trained_on"); it != doc.end() && it->is_array())
        for (const auto& m : *it)
            if (m.is_string())
                l.trained_on.push_back(m.get<std::string>());
    return l;
}

} // namespace cleave::fusion
