#include "fusion_training.hpp"

#include "core/adam.hpp"
#include "fusion_score.hpp"
#include "rule_engine.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace cleave::fusion {

namespace {

// All examples as one graph with many components, so one pass covers the whole training set.
struct Batch {
    FusionFeatures features;
    Eigen::VectorXd fused;
};

Batch make_batch(const std::vector<FusionExample>& examples, const std::vector<std::string>& ops) {
    std::vector<FusionFeatures> parts;
    std::vector<bool> labels;
    Eigen::Index nodes = 0, edges = 0;
    for (const auto& ex : examples) {
        const auto list = node_edges(*ex.model);
        const auto truth = measured_fused_edges(list, measured_kernel_of_node(*ex.model, *ex.run));
        labels.insert(labels.end(), truth.begin(), truth.end());
        parts.push_back(fusion_features(*ex.model, list, ops));
        nodes += parts.back().nodes.rows();
        edges += parts.back().edges.rows();
    }
    Batch b;
    auto& f = b.features;
    f.nodes.resize(nodes, node_feature_count(ops));
    f.edges.resize(edges, kEdgeFeatures);
    std::vector<Eigen::Triplet<double>> pred, succ;
    Eigen::Index node_offset = 0, edge_offset = 0;
    for (const auto& p : parts) {
        f.nodes.middleRows(node_offset, p.nodes.rows()) = p.nodes;
        f.edges.middleRows(edge_offset, p.edges.rows()) = p.edges;
        for (const auto& e : p.edge_list)
            f.edge_list.push_back({e.from + static_cast<int>(node_offset),
                                   e.to + static_cast<int>(node_offset), e.tensor});
        for (const auto* m : {&p.predecessors, &p.successors})
            for (Eigen::Index r = 0; r < m->outerSize(); ++r)
                for (SparseMatrix::InnerIterator it(*m, r); it; ++it)
                    (m == &p.predecessors ? pred : succ)
                        .emplace_back(static_cast<int>(it.row() + node_offset),
                                      static_cast<int>(it.col() + node_offset), it.value());
        node_offset += p.nodes.rows();
        edge_offset += p.edges.rows();
    }
    f.predecessors.resize(nodes, nodes);
    f.predecessors.setFromTriplets(pred.begin(), pred.end());
    f.successors.resize(nodes, nodes);
    f.successors.setFromTriplets(succ.begin(), succ.end());
    b.fused.resize(edges);
    for (Eigen::Index e = 0; e < edges; ++e)
        b.fused(e) = labels[static_cast<std::size_t>(e)] ? 1.0 : 0.0;
    return b;
}

} // namespace

double fusion_loss(const LearnedFusion& l, const FusionFeatures& f, const Eigen::VectorXd& fused,
                   std::vector<Matrix>* gradients) {
    const auto pass = run_learned_fusion(l, f);
    const auto edges = static_cast<double>(std::max<Eigen::Index>(fused.size(), 1));
    const Eigen::ArrayXd z = pass.logit.array();
    const Eigen::ArrayXd y = fused.array();
    // log(1 + e^z) - y z, computed without overflow.
    const double loss = ((z.max(0.0) + (-z.abs()).exp().log1p()) - y * z).sum() / edges;
    if (!gradients)
        return loss;
    const Eigen::VectorXd dz = ((1.0 / (1.0 + (-z).exp())) - y).matrix() / edges;

    auto& g = *gradients;
    g.assign(8, Matrix());
    g[6] = pass.edge_hidden.transpose() * dz;
    g[7] = Matrix::Constant(1, 1, dz.sum());
    Matrix da = dz * l.w_out.transpose();
    da = da.cwiseProduct((pass.edge_hidden.array() > 0.0).cast<double>().matrix());
    g[4] = pass.edge_input.transpose() * da;
    g[5] = da.colwise().sum();
    const Matrix dinput = da * l.w_edge.transpose();

    const auto features = f.nodes.cols();
    const auto hidden = pass.node_hidden.cols();
    Matrix dh = Matrix::Zero(pass.node_hidden.rows(), hidden);
    for (std::size_t e = 0; e < f.edge_list.size(); ++e) {
        const auto r = static_cast<Eigen::Index>(e);
        dh.row(f.edge_list[e].from) += dinput.row(r).segment(2 * features, hidden);
        dh.row(f.edge_list[e].to) += dinput.row(r).segment(2 * features + hidden, hidden);
    }
    const Matrix dpre = dh.cwiseProduct((1.0 - pass.node_hidden.array().square()).matrix());
    g[0] = f.nodes.transpose() * dpre;
    g[1] = (f.predecessors * f.nodes).transpose() * dpre;
    g[2] = (f.successors * f.nodes).transpose() * dpre;
    g[3] = dpre.colwise().sum();
    return loss;
}

std::map<std::string, int> measured_launches(const std::vector<FusionExample>& examples) {
    // Kernels that cover no node run for the next kernel that does (ONNX Runtime's HardSigmoid
    // before the Mul of a HardSwish, the reshapes around a Gemm): count them per kernel type.
    std::map<std::string, std::pair<int, int>> kernels_and_extra;
    for (const auto& ex : examples) {
        const auto kernel_of_node = measured_kernel_of_node(*ex.model, *ex.run);
        const auto constant = load_time_constants(*ex.model);
        std::vector<std::vector<int>> members(ex.run->kernels.size());
        for (std::size_t n = 0; n < kernel_of_node.size(); ++n)
            if (kernel_of_node[n] >= 0)
                members[static_cast<std::size_t>(kernel_of_node[n])].push_back(static_cast<int>(n));
        int extra = 0;
        for (std::size_t k = 0; k < members.size(); ++k) {
            if (ex.run->kernels[k].covers.empty()) {
                ++extra;
                continue;
            }
            if (members[k].empty())
                continue; // covers only nodes an earlier kernel already claimed
            auto& [kernels, extras] =
                kernels_and_extra[learned_kernel_type(*ex.model, members[k], constant)];
            ++kernels;
            extras += extra;
            extra = 0;
        }
    }
    std::map<std::string, int> launches;
    for (const auto& [type, counts] : kernels_and_extra) {
        const auto per_kernel =
            std::lround(1.0 + static_cast<double>(counts.second) / counts.first);
        if (per_kernel > 1)
            launches[type] = static_cast<int>(per_kernel);
    }
    return launches;
}

LearnedFusion train_learned_fusion(const std::vector<FusionExample>& examples,
                                   const FusionTrainingOptions& options) {
    if (examples.empty())
        throw std::invalid_argument("train_learned_fusion: no training examples");
    std::set<std::string> vocabulary;
    for (const auto& ex : examples)
        for (const auto& node : ex.model->nodes)
            vocabulary.insert(node.op);
    LearnedFusion l =
        initial_learned_fusion({vocabulary.begin(), vocabulary.end()}, options.node_hidden,
                               options.edge_hidden, options.seed);
    for (const auto& ex : examples)
        l.trained_on.push_back(ex.name);
    l.launches = measured_launches(examples);

    const auto batch = make_batch(examples, l.ops);
    if (batch.fused.size() == 0)
        return l;
    auto parameters = l.parameters();
    std::vector<Adam<Matrix>> moments;
    for (const auto* p : parameters)
        moments.emplace_back(*p);
    for (int epoch = 1; epoch <= options.epochs; ++epoch) {
        std::vector<Matrix> g;
        const double loss = fusion_loss(l, batch.features, batch.fused, &g);
        const double rate =
            options.learning_rate * (1.0 - 0.9 * (epoch - 1) / std::max(1, options.epochs - 1));
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            Matrix& p = *parameters[i];
            const bool bias = p.rows() == 1;
            if (!bias)
                g[i] += options.weight_decay * p;
            moments[i].step(p, g[i], rate, epoch);
        }
        l.losses.push_back(loss);
        char stage[64];
        std::snprintf(stage, sizeof stage, "epoch %d/%d  loss %.5f", epoch, options.epochs, loss);
        report_progress(options.control,
                        {.fraction = static_cast<double>(epoch) / options.epochs, .stage = stage});
    }
    return l;
}

} // namespace cleave::fusion
