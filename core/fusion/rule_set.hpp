// Fusion rule sets: which producer/consumer edges a runtime fuses into one kernel, stored as
// data (resources/fusion/*.json, docs/fusion-rules.md) so a user can copy and edit one.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cleave::fusion {

// One edge pattern u -> v. Every condition given must hold; rules apply in file order, each
// over all edges in topological order, as a runtime's transformer passes do.
struct FusionRule {
    std::string name;
    std::set<std::string> from;             // op of u (empty: any)
    std::set<std::string> from_kernel;      // op of the anchor of u's kernel (empty: any)
    std::set<std::string> from_kernel_type; // type a rule gave u's kernel (empty: any)
    std::set<std::string> to;               // op of v (empty: any)
    int to_input = -1;                      // v reads u's output at this input (-1: any)
    // u, still a kernel of its own, joins v's kernel, which keeps its anchor and type: a scale
    // joins the MatMul it feeds, the x * 0.5 branch FastGelu's product. Without it, v must
    // still be a kernel of its own and joins u's.
    bool join_consumer = false;
    // with join_consumer: v's kernel has one of these types (a rule's, or else its anchor's op)
    std::set<std::string> into_kernel_type;
    // u's input at from_input_rank[0] has rank from_input_rank[1] ({-1, -1}: any), as Gemm's B
    // must be a matrix.
    std::array<int, 2> from_input_rank{-1, -1};
    // u scales its other input by a one-element load-time constant (Mul by it, or Div with it as
    // the divisor); to_scalar_scale: v scales u's output so.
    bool from_scalar_scale = false;
    bool to_scalar_scale = false;
    bool from_same_type =
        false; // u's output has its input's element type (a Cast that does nothing)
    // v's other input is a load-time constant of one value per channel (dim 1) of u's output, as
    // a runtime folds into a convolution's weights and bias.
    bool to_channel_constant = false;
    // v adds to u's output (a MatMul's) a bias Gemm takes as its C: one-dimensional of the
    // product's last dim, or, when u's first input is a matrix, (1, N), (M, 1) or (M, N); a first
    // input of more dims needs a shape the runtime knows at load (MatMulAddFusion,
    // matmul_add_fusion.cc; a residual of the product's rank is no bias).
    bool to_gemm_bias = false;
    // v adds to u's output a vector of its last dim (MatMulNBitsFusion's bias input).
    bool to_bias_vector = false;
    // u rearranges a MatMul operand so that ONNX Runtime's MatmulTransposeFusion
    // (matmul_transpose_fusion.cc) takes it into the product as FusedMatMul's transA/B and
    // transBatchA/B: a Transpose that keeps the input's last axis in the last two and its batch
    // dims contiguous, first or second; or a Reshape that splits or merges only the batch dims
    // (the last two stay) of such a Transpose's output, which the layout transformer moves the
    // Transpose past.
    bool from_matmul_operand = false;
    // v is a Reshape that only splits dims (each input dim becomes a run of output dims) and whose
    // output only a Transpose reads: the layout transformer moves u, a Transpose, past v and
    // merges it into that one (MaxViT's departition).
    bool to_split_reshape_into_transpose = false;
    // v and the reshapes joined after it in its kernel (contiguous-reshapes) keep the rank of
    // u's output and only move its dims of size 1: the layout transformer's HandleReshape treats
    // such a Reshape as a Transpose and merges it into u, a Transpose (MaxViT's last stage,
    // where a window is the whole map).
    bool to_unit_reshape = false;
    // v's output reaches a Transpose through nodes of these ops (empty: no condition): the
    // layout transformer pushes a Transpose through v only toward one it can cancel
    // (OptimizeImpl's outputs_leading_to_transpose, onnx_transpose_optimization.cc).
    std::set<std::string> to_output_reaches_transpose_through;
    // A Transpose read only by Gathers of one load-time index each along one axis, which
    // GatherSliceToSplitFusion makes one Split, the layout transformer then moving the Transpose
    // past it onto each output: u is that Transpose and v the first of the Gathers (u's node goes
    // to v's kernel), or u is one of the Gathers and v a Transpose it alone feeds, which the moved
    // one merges into.
    bool transpose_through_split = false;
    // u's output feeds only v's kernel (readers computed at load time aside) and is not a graph
    // output
    bool single_consumer = false;
    bool single_output = false;             // u has one output
    bool other_input_is_from_input = false; // v's other input is u's first input: x * f(x)
    // v's other inputs are load-time constants, the first input of the node anchoring u's kernel,
    // or made from it by one node: a pattern grows only over its own values (FastGelu's tail
    // stops before GeGLU's product with the up projection).
    bool other_inputs_from_kernel_input = false;
    // v reads u's output exactly once, at this index of its run-time inputs (-1: any). Constants
    // do not count: the TFLite GPU delegate turns them into attributes of the op.
    int to_runtime_input = -1;
    // Ops of v whose run-time inputs the runtime reorders so the one computed last comes first
    // (the delegate does this for Add and Mul when no input is broadcast).
    std::set<std::string> latest_input_first;
    // v's other inputs are computed no later than u's kernel starts, in node order: the
    // delegate links only into an op whose inputs are all ready.
    bool other_inputs_ready = false;
    // Instead of u -> v: two nodes of a `to` op reading the same tensor (at to_input) become one
    // kernel, as when a runtime turns sibling Slices into one Split.
    bool siblings = false;
    std::string kernel_type; // the fused kernel's type ("" keeps it)
};

// Which kernel the runtime runs for a convolution (Li et al. Alg. 3.2 for the TFLite GPU
// delegate): depthwise, grouped, Winograd where the GPU family's test passes, else direct.
struct WinogradThresholds {
    int min_src_slices = 1; // input channels / 4, rounded up
    int min_dst_slices = 1; // output channels / 4, rounded up
    int min_tiles = 1;      // 4x4 output tiles
};

struct ConvKernelTypes {
    std::set<std::string> ops; // anchor ops typed ("Conv")
    std::string depthwise;     // group == input channels == output channels
    std::string grouped;       // 1 < group, channels per group a multiple of grouped_multiple
    std::string winograd;      // 3x3, stride 1, dilation 1, group 1, past the family's thresholds
    std::string direct;        // every other group-1 convolution
    std::string unsupported;   // what the runtime refuses (depthwise with a channel multiplier)
    int grouped_multiple = 1;
    std::string default_gpu_family;
    std::map<std::string, WinogradThresholds> winograd_thresholds; // by GPU family
};

struct RuleSet {
    std::string name;
    std::string runtime;         // what the rules describe, for people
    std::string file;            // where it was read from ("built-in" for shipped sets)
    bool fold_constants = false; // nodes computable at load time join their consumer's kernel
    // with fold_constants: of each set of equal Constant nodes the runtime keeps one and points
    // every reader at it (ONNX Runtime: the first of the set in its initializer table's order);
    // read by several kernels, that one runs in none, so its edges are not fused
    bool share_equal_constants = false;
    std::vector<FusionRule> rules;
    std::map<std::string, int> launches; // op -> kernels the runtime runs for one such node
    std::optional<ConvKernelTypes> conv_kernel_types;
    std::string gpu_family; // the family conv kernels are typed for; the file's default at load
};

// Parses a rule file; throws InputError(file, JSON pointer, expected) on any mistake.
RuleSet parse_rule_set(const std::string& json_text, const std::string& file);
RuleSet load_rule_set(const std::string& path);

// The shipped sets (ort-cpu, tflite-gpu, tensorrt-like), compiled into the program.
std::vector<std::string> builtin_rule_set_names();
// A shipped name or a path to a rule file; InputError listing the names otherwise.
RuleSet find_rule_set(const std::string& name_or_path);

} // namespace cleave::fusion
