// The learned-fusion training options fuse-train and fuse-eval --leave-family-out share.
#pragma once

#include "core/fusion/fusion_training.hpp"

#include <CLI/CLI.hpp>

namespace cleave::cli {

void add_training_options(CLI::App& command, fusion::FusionTrainingOptions& options);

} // namespace cleave::cli
