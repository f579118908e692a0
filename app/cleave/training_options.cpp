#include "training_options.hpp"

namespace cleave::cli {

void add_training_options(CLI::App& command, fusion::FusionTrainingOptions& options) {
    command.add_option("--epochs", options.epochs, "Training passes over all edges")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    command
        .add_option("--node-hidden", options.node_hidden,
                    "Width of the message-passing node layer (0: edges see only their two ends)")
        ->check(CLI::Range(0, 4096))
        ->capture_default_str();
    command.add_option("--edge-hidden", options.edge_hidden, "Width of the edge layer")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    command.add_option("--seed", options.seed, "Seed of the initial weights")
        ->capture_default_str();
}

} // namespace cleave::cli
