// Training the learned fusion classifier from a runtime's measured fusion: every node-to-node
// edge of every training model is an example, fused when the runtime's kernel covers both ends.
#pragma once

#include "core/profile/measured_dataset.hpp"
#include "core/task_control.hpp"
#include "learned_fusion.hpp"

namespace cleave::fusion {

struct FusionExample {
    std::string name; // the model's name in the data
    const graph::Model* model = nullptr;
    const profile::MeasuredRun* run = nullptr;
};

struct FusionTrainingOptions {
    int epochs = 300;
    int node_hidden = 0; // 24 with message passing: worse on held-out families (docs)
    int edge_hidden = 48;
    double learning_rate = 0.01; // Adam, decayed linearly to a tenth over the epochs
    double weight_decay = 1e-4;  // L2 on the weights, not the biases
    unsigned seed = 1;
    // Told after each epoch ("epoch 3/300  loss 0.12345"), where a cancel stops the training.
    const TaskControl* control = nullptr;
};

// The op vocabulary is every op in the training models; launches per op are read from the data
// (ONNX Runtime runs HardSwish as a HardSigmoid kernel that covers no node, then a Mul).
LearnedFusion train_learned_fusion(const std::vector<FusionExample>& examples,
                                   const FusionTrainingOptions& options);

// Mean binary cross-entropy of the classifier on these edges (`fused`: 1 or 0 per edge) and,
// when `gradients` is given, its gradient per parameter, in LearnedFusion::parameters() order.
double fusion_loss(const LearnedFusion& learned, const FusionFeatures& features,
                   const Eigen::VectorXd& fused, std::vector<Matrix>* gradients);

std::map<std::string, int> measured_launches(const std::vector<FusionExample>& examples);

} // namespace cleave::fusion
