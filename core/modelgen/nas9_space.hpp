// The "nas9" simulation space: MobileNetV2's stages with each of its 17 blocks one of 9 inverted
// residuals (kernel 3, 5 or 7 x expansion 1, 3 or 6), a NAS space of the kind hardware-aware
// searches draw from.
#pragma once

#include "model_spec.hpp"
#include "random_choice.hpp"

#include <cstdint>
#include <string>

namespace cleave::modelgen {

// One network of the space named `id` at input `resolution`, its blocks drawn from `draw`.
ModelSpec nas9_model(const std::string& id, std::int64_t resolution, RandomChoice& draw);

} // namespace cleave::modelgen
