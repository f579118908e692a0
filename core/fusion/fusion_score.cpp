#include "fusion_score.hpp"

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

FusionScore score_fusion(const graph::Model& model, const KernelGraph& predicted,
                         const profile::MeasuredRun& run) {
    std::unordered_map<std::string, int> measured_kernel;
    for (std::size_t k = 0; k < run.kernels.size(); ++k)
        for (const auto& node : run.kernels[k].covers)
            measured_kernel.emplace(node, static_cast<int>(k));
    FusionScore score;
    std::vector<int> truth(model.nodes.size(), -1);
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto it = measured_kernel.find(model.nodes[n].name);
        if (it == measured_kernel.end())
            ++score.uncovered_nodes;
        else
            truth[n] = it->second;
    }
    for (std::size_t e = 0; e < predicted.edges.size(); ++e) {
        const auto& edge = predicted.edges[e];
        const bool fused_in_truth =
            truth[static_cast<std::size_t>(edge.from)] >= 0 &&
            truth[static_cast<std::size_t>(edge.from)] == truth[static_cast<std::size_t>(edge.to)];
        if (predicted.fused[e])
            ++(fused_in_truth ? score.true_fused : score.false_fused);
        else
            ++(fused_in_truth ? score.missed : score.true_apart);
    }
    for (const auto& k : predicted.kernels)
        score.kernels_predicted += k.launches;
    score.kernels_measured = static_cast<int>(run.kernels.size());
    return score;
}

} // namespace cleave::fusion
