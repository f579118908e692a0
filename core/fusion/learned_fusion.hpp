// Learned fusion: a classifier that says, for each node-to-node edge, whether the runtime runs
// both ends as one kernel. One message-passing layer gives each node a view of its producers
// and consumers; a small network over the two ends and the edge's own features scores the edge.
// Kernels are then formed from the fused edges, most confident first, refusing cycles.
#pragma once

#include "fusion_features.hpp"

#include <filesystem>
#include <map>

namespace cleave::fusion {

struct LearnedFusion {
    std::vector<std::string> ops; // the op vocabulary; other ops share one slot
    // Node layer: H = tanh(X W_self + mean(producers) W_producers + mean(consumers) W_consumers +
    // b)
    Matrix w_self, w_producers, w_consumers, b_node;
    // Edge network over [X_u, X_v, H_u, H_v, edge features]: relu layer, then a logistic output.
    Matrix w_edge, b_edge, w_out, b_out;
    std::map<std::string, int> launches; // op -> kernels the runtime runs for it, from the data
    std::vector<std::string> trained_on; // model names of the training runs
    std::string file;                    // where it was read from
    std::vector<double> losses; // trained here: the mean training loss of each epoch (not saved)

    int node_hidden() const { return static_cast<int>(w_self.cols()); }
    int edge_hidden() const { return static_cast<int>(w_edge.cols()); }
    std::vector<Matrix*> parameters();
};

// Every intermediate of one pass, kept for training's backward pass.
struct FusionPass {
    Matrix node_hidden;    // H
    Matrix edge_input;     // one row per edge
    Matrix edge_hidden;    // after relu
    Eigen::VectorXd logit; // per edge
};

LearnedFusion initial_learned_fusion(std::vector<std::string> ops, int node_hidden, int edge_hidden,
                                     unsigned seed);
FusionPass run_learned_fusion(const LearnedFusion& learned, const FusionFeatures& features);

// A learned kernel's type: the op of its member with the most MACs, else of its first member the
// runtime does not compute at load time (`constant`, from load_time_constants).
std::string learned_kernel_type(const graph::Model& model, const std::vector<int>& members,
                                const std::vector<bool>& constant);

// Per edge of `edges`: the probability that it is fused.
std::vector<double> fused_probabilities(const graph::Model& model, const std::vector<Edge>& edges,
                                        const LearnedFusion& learned);
// `parts`: as NodeGroups takes them (no kernel joins two parts).
KernelGraph fuse_learned(const graph::Model& model, const LearnedFusion& learned,
                         std::span<const int> parts = {});

// JSON ("format": "cleave-fusion-model"), written atomically.
void save_learned_fusion(const LearnedFusion& learned, const std::filesystem::path& path);
// Throws InputError(file, JSON pointer, expected) for a file that is not such a model.
LearnedFusion load_learned_fusion(const std::string& path);

} // namespace cleave::fusion
