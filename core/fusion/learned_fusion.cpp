#include "learned_fusion.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "rule_engine.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
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

class ModelReader {
public:
    explicit ModelReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
        throw InputError(file_, pointer.empty() ? "/" : pointer, problem);
    }

    const nlohmann::json& member(const nlohmann::json& object, const std::string& key) const {
        const auto it = object.find(key);
        if (it == object.end())
            fail("", "missing \"" + key + "\"");
        return *it;
    }

    Matrix matrix(const nlohmann::json& doc, const std::string& key, Eigen::Index rows,
                  Eigen::Index cols) const {
        const std::string pointer = "/weights/" + key;
        const auto& weights = member(doc, "weights");
        const auto it = weights.find(key);
        if (it == weights.end() || !it->is_object())
            fail(pointer, "expected an object with rows, cols and values");
        const auto& m = *it;
        if (!m.contains("rows") || !m.contains("cols") || !m.contains("values") ||
            !m["values"].is_array() || m["rows"] != rows || m["cols"] != cols)
            fail(pointer, "expected a " + std::to_string(rows) + " x " + std::to_string(cols) +
                              " matrix (rows, cols, values) for this vocabulary and size");
        const auto& values = m["values"];
        if (static_cast<Eigen::Index>(values.size()) != rows * cols)
            fail(pointer + "/values", "expected " + std::to_string(rows * cols) + " numbers");
        Matrix out(rows, cols);
        for (Eigen::Index i = 0; i < out.size(); ++i) {
            const auto& v = values[static_cast<std::size_t>(i)];
            if (!v.is_number() || !std::isfinite(v.get<double>()))
                fail(pointer + "/values/" + std::to_string(i), "expected a finite number");
            out.data()[i] = v.get<double>();
        }
        return out;
    }

private:
    std::string file_;
};

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
    const ModelReader r(path);
    if (!doc.is_object() || doc.value("format", "") != kFormat)
        r.fail("/format",
               std::string("expected \"") + kFormat + "\" (a file written by cleave fuse-train)");
    if (doc.value("version", 0) != kVersion)
        r.fail("/version", "expected " + std::to_string(kVersion));
    if (r.member(doc, "op_categories") != kOpCategories ||
        r.member(doc, "node_numeric_features") != kNodeNumericFeatures ||
        r.member(doc, "edge_features") != kEdgeFeatures)
        r.fail("/node_numeric_features",
               "expected " + std::to_string(kOpCategories) + " op categories, " +
                   std::to_string(kNodeNumericFeatures) + " node and " +
                   std::to_string(kEdgeFeatures) + " edge features, as this version computes");
    const auto& ops = r.member(doc, "ops");
    if (!ops.is_array() || ops.empty())
        r.fail("/ops", "expected a non-empty list of op types");
    LearnedFusion l;
    l.file = path;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (!ops[i].is_string())
            r.fail("/ops/" + std::to_string(i), "expected an op type (string)");
        l.ops.push_back(ops[i].get<std::string>());
    }
    const auto& nh = r.member(doc, "node_hidden");
    const auto& eh = r.member(doc, "edge_hidden");
    if (!nh.is_number_integer() || nh.get<int>() < 0 || nh.get<int>() > 4096)
        r.fail("/node_hidden", "expected a width from 0 (no message passing) to 4096");
    if (!eh.is_number_integer() || eh.get<int>() < 1 || eh.get<int>() > 4096)
        r.fail("/edge_hidden", "expected a width from 1 to 4096");
    const int features = node_feature_count(l.ops);
    const int node_hidden = nh.get<int>(), edge_hidden = eh.get<int>();
    l.w_self = r.matrix(doc, "w_self", features, node_hidden);
    l.w_producers = r.matrix(doc, "w_producers", features, node_hidden);
    l.w_consumers = r.matrix(doc, "w_consumers", features, node_hidden);
    l.b_node = r.matrix(doc, "b_node", 1, node_hidden);
    l.w_edge = r.matrix(doc, "w_edge", edge_input_width(features, node_hidden), edge_hidden);
    l.b_edge = r.matrix(doc, "b_edge", 1, edge_hidden);
    l.w_out = r.matrix(doc, "w_out", edge_hidden, 1);
    l.b_out = r.matrix(doc, "b_out", 1, 1);
    if (const auto it = doc.find("launches"); it != doc.end()) {
        if (!it->is_object())
            r.fail("/launches", "expected an object of op -> kernel count");
        for (const auto& [op, count] : it->items()) {
            if (!count.is_number_integer() || count.get<int>() < 1)
                r.fail("/launches/" + op, "expected a whole number of kernels, at least 1");
            l.launches[op] = count.get<int>();
        }
    }
    if (const auto it = doc.find("trained_on"); it != doc.end() && it->is_array())
        for (const auto& m : *it)
            if (m.is_string())
                l.trained_on.push_back(m.get<std::string>());
    return l;
}

} // namespace cleave::fusion
