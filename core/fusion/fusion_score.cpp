#include "fusion_score.hpp"

#include <algorithm>
#include <unordered_map>

namespace cleave::fusion {

double FusionScore::accuracy() const {
    return edges() == 0 ? 1.0 : static_cast<double>(true_fused + true_apart) / edges();
}

double FusionScore::precision() const {
    return true_fused + false_fused == 0
               ? 1.0
               : static_cast<double>(true_fused) / (true_fused + false_fused);
}

double FusionScore::recall() const {
    return true_fused + missed == 0 ? 1.0 : static_cast<double>(true_fused) / (true_fused + missed);
}

double FusionScore::kernel_count_error() const {
    return kernels_measured == 0
               ? 0.0
               : static_cast<double>(kernels_predicted - kernels_measured) / kernels_measured;
}

FusionScore& FusionScore::operator+=(const FusionScore& o) {
    true_fused += o.true_fused;
    false_fused += o.false_fused;
    missed += o.missed;
    true_apart += o.true_apart;
    kernels_predicted += o.kernels_predicted;
    kernels_measured += o.kernels_measured;
    uncovered_nodes += o.uncovered_nodes;
    return *this;
}

std::vector<int> measured_kernel_of_node(const graph::Model& model,
                                         const profile::MeasuredRun& run) {
    std::unordered_map<std::string, int> measured_kernel;
    for (std::size_t k = 0; k < run.kernels.size(); ++k)
        for (const auto& node : run.kernels[k].covers)
            measured_kernel.emplace(node, static_cast<int>(k));
    std::vector<int> kernel(model.nodes.size(), -1);
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        if (const auto it = measured_kernel.find(model.nodes[n].name); it != measured_kernel.end())
            kernel[n] = it->second;
    return kernel;
}

std::vector<bool> measured_fused_edges(const std::vector<Edge>& edges,
                                       const std::vector<int>& kernel_of_node) {
    std::vector<bool> fused(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const int k = kernel_of_node[static_cast<std::size_t>(edges[e].from)];
        fused[e] = k >= 0 && k == kernel_of_node[static_cast<std::size_t>(edges[e].to)];
    }
    return fused;
}

FusionScore score_fusion(const graph::Model& model, const KernelGraph& predicted,
                         const profile::MeasuredRun& run) {
    const auto kernel_of_node = measured_kernel_of_node(model, run);
    const auto truth = measured_fused_edges(predicted.edges, kernel_of_node);
    FusionScore score;
    score.uncovered_nodes =
        static_cast<int>(std::count(kernel_of_node.begin(), kernel_of_node.end(), -1));
    for (std::size_t e = 0; e < predicted.edges.size(); ++e) {
        if (predicted.fused[e])
            ++(truth[e] ? score.true_fused : score.false_fused);
        else
            ++(truth[e] ? score.missed : score.true_apart);
    }
    for (const auto& k : predicted.kernels)
        score.kernels_predicted += k.launches;
    score.kernels_measured = static_cast<int>(run.kernels.size());
    return score;
}

} // namespace cleave::fusion
