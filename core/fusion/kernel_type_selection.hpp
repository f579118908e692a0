// Kernel types the runtime picks once kernels are formed: the TFLite GPU delegate runs a
// convolution as DepthwiseConv2D, GroupedConv2D, Winograd or Conv2D by its shape and the GPU
// family (Li, Paolieri, Golubchik, ICPE'23 Alg. 3.2; sources in docs/fusion-rules.md).
#pragma once

#include "core/graph/model.hpp"
#include "rule_set.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cleave::fusion {

// The GPU families a rule set types kernels for, sorted; empty when it has no conv section.
std::vector<std::string> gpu_families(const RuleSet& rules);

// Types conv kernels for `family` from now on. Throws InputError("--gpu-family", family, ...)
// listing the families, or saying the rule set has none.
void choose_gpu_family(RuleSet& rules, const std::string& family);

// The delegate's Winograd 4x4-to-6x6 recommendation for a 3x3 convolution: enough channel
// slices (4 channels each) on both sides and enough 4x4 output tiles for this GPU family.
bool winograd_recommended(const WinogradThresholds& thresholds, std::int64_t in_channels,
                          std::int64_t out_channels, std::int64_t out_height,
                          std::int64_t out_width);

// The type of a kernel anchored at `node`: the conv section's choice where it applies, else the
// node's op type. A conv whose weights are not constant, or whose weight or output shape is
// unknown, keeps its op type: the choice needs them. `constant` marks load-time constants.
std::string anchor_kernel_type(const graph::Model& model, int node, const RuleSet& rules,
                               const std::vector<bool>& constant);

} // namespace cleave::fusion
