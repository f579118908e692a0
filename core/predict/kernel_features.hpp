// What a latency predictor sees of a kernel (Li et al. Table 3, LILOU Table 1): its costs, the
// geometry of its anchor (the member with the most MACs, else the one with the largest output), and
// what else was fused in, with the member count per op category (fusion::op_category). Every
// feature is a non-negative count in raw units, so a kernel with more of any of them is never
// expected to be faster.
#pragma once

#include "core/fusion/kernel_graph.hpp"

#include <string>
#include <vector>

namespace cleave::predict {

const std::vector<std::string>& kernel_feature_names();

// Whether time adds up over the feature (work, bytes, launches) rather than the feature changing
// how fast the work goes (channels, kernel area, stride, groups). Linear models read only these.
bool is_additive_feature(const std::string& name);

// What a decode step streams through the caches beside each of its kernels, the same for every
// kernel of the model (the features decode_kv_bytes and decode_weight_bytes; both 0 for any run
// that is no decode step): computed once per model by callers that walk its kernels.
struct DecodeStepBytes {
    double kv = 0;      // the key/value caches its inputs carry
    double weights = 0; // the weights it reads, as stored (a table only gathered from left out)
};
DecodeStepBytes decode_step_bytes(const graph::Model& model);

// The bytes an inference of `model` reads from its own state: its weights as stored (a table only
// gathered from left out) and the key/value caches its inputs carry. What stays in a cache
// between inferences, or does not.
double working_set_bytes(const graph::Model& model);

// Where kernel_features puts a kernel's bytes read (weights included) and written.
inline constexpr std::size_t kBytesInColumn = 2;
inline constexpr std::size_t kBytesOutColumn = 3;

std::vector<double> kernel_features(const graph::Model& model, const fusion::Kernel& kernel,
                                    const DecodeStepBytes& step);
// The same, the step's bytes computed for this one kernel.
std::vector<double> kernel_features(const graph::Model& model, const fusion::Kernel& kernel);

// The kernel's member that defines its work: the one with the most MACs, else the one whose
// first output is largest (a fused Constant never is).
int kernel_anchor(const graph::Model& model, const fusion::Kernel& kernel);

// Kernels whose costs follow one law: the ONNX op of the kernel's anchor, refined for
// convolutions by their shape ("Conv/depthwise", "Conv/grouped", "Conv/1x1", "Conv/kxk") and for
// matrix products by whether one side is a vector ("Gemm/gemv", "MatMul/gemm"). The runtime's own
// name for the kernel (FusedConv, Convolution) is left out, so predictors trained on one
// runtime's kernels classify any fusion method's kernels alike; what was fused in is in the
// features. Predictors fall back from a class to its op.
std::string cost_class(const graph::Model& model, const fusion::Kernel& kernel);

// "Conv/1x1" -> "Conv".
std::string cost_type(const std::string& cost_class);

} // namespace cleave::predict
