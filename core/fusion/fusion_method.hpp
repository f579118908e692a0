// How kernels are decided, as every command and the studio choose it: a rule set (a shipped
// name or a rule file) or a learned classifier ("learned:FILE", written by cleave fuse-train).
#pragma once

#include "learned_fusion.hpp"
#include "rule_set.hpp"

#include <variant>

namespace cleave::fusion {

struct FusionMethod {
    std::string name;        // "ort-cpu", "my-rules", "learned:ort.fusion.json"
    std::string description; // what it describes, for people
    std::variant<RuleSet, LearnedFusion> how;
};

inline constexpr const char* kLearnedPrefix = "learned:";

// Throws InputError naming the file, or listing the shipped names, when it cannot be found.
FusionMethod find_fusion_method(const std::string& spec);

// With `parts` (a label per node: the PE a node-level mapping puts it on), each part is fused on
// its own, as a runtime fuses each sub-model of a split model: no kernel spans two parts.
KernelGraph detect_kernels(const graph::Model& model, const FusionMethod& method,
                           std::span<const int> parts = {});

// Op types of the model's run-time nodes the method knows nothing of, sorted: for a rule set, ops
// no rule can match on either side (each such node is its own kernel: not fused); for a learned
// classifier, ops absent from its training (scored through their op category alone).
std::vector<std::string> unmatched_ops(const graph::Model& model, const FusionMethod& method);

} // namespace cleave::fusion
