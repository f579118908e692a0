// The "blocks" simulation space: a stem, then 3 to 5 stages each of one seed architecture's
// block (ResNet basic / bottleneck, MobileNet inverted residual, SqueezeNet fire, DenseNet and
// VGG blocks) at random widths, depths, kernels and input sizes, then a classifier.
#pragma once

#include "model_spec.hpp"
#include "random_choice.hpp"

#include <cstdint>
#include <string>

namespace cleave::modelgen {

// One network of the space named `id` at input `resolution`, its stages drawn from `draw`; the
// expansions of its inverted residuals follow from `model_seed`.
ModelSpec blocks_model(const std::string& id, std::int64_t resolution, std::uint64_t model_seed,
                       RandomChoice& draw);

} // namespace cleave::modelgen
