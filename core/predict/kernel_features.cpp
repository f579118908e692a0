#include "kernel_features.hpp"

#include "core/fusion/fusion_features.hpp"
#include "core/graph/input_dim_binding.hpp"

#include <algorithm>

namespace cleave::predict {

bool is_additive_feature(const std::string& name) {
    return name != "channels_in" && name != "channels_out" && name != "kernel_area" &&
           name != "stride" && name != "groups" && !name.starts_with("gemm_") &&
           name != "second_input" && name != "transpose_block" && name != "transpose_axes" &&
           name != "decode_kv_bytes" && name != "decode_weight_bytes";
}

namespace {


double elements(const graph::Model& model, int tensor) {
    if (tensor < 0)
        return 0;
    const auto n = model.tensors[static_cast<std::size_t>(tensor)].elements();
    return n > 0 ? static_cast<double>(n) : 0;
}

std::int64_t dim(const graph::Model& model, int tensor, std::size_t axis) {
    if (tensor < 0)
        return 0;
    const auto& shape = model.tensors[static_cast<std::size_t>(tensor)].shape;
    if (!shape || axis >= shape->size())
        return 0;
    return std::max<std::int64_t>(0, (*shape)[axis]);
}

std::size_t rank(const graph::Model& model, int tensor) {
    if (tensor < 0)
        return 0;
    const auto& shape = model.tensors[static_cast<std::size_t>(tensor)].shape;
    return shape ? shape->size() : 0;
}

int first(const std::vector<int>& tensors) {
    return tensors.empty() ? -1 : tensors.front();
}

struct ConvShape {
    std::int64_t cin = 0;
    std::int64_t cout = 0;
    std::int64_t kernel_area = 0;
    std::int64_t stride = 1;
    std::int64_t groups = 1;
};

ConvShape conv_shape(const graph::Model& model, const graph::Node& node) {
    ConvShape c;
    const int x = first(node.inputs);
    const int w = node.inputs.size() > 1 ? node.inputs[1] : -1;
    c.cin = dim(model, x, 1);
    c.cout = dim(model, first(node.outputs), 1);
    c.kernel_area = 1;
    for (std::size_t a = 2; a < rank(model, w); ++a)
        c.kernel_area *= std::max<std::int64_t>(1, dim(model, w, a));
    for (const auto s : node.ints_attribute("strides"))
        c.stride = std::max(c.stride, s);
    c.groups = std::max<std::int64_t>(1, node.int_attribute("group", 1));
    return c;
}

// The matrix product a kernel's anchor runs as (CPU libraries lower a convolution to one per
// group: M = output channels per group, N = output pixels, K = input channels per group x kernel
// area; a matrix product is M rows by N columns over K): how well it blocks into registers and
// caches, which MACs and bytes alone do not tell. Zero for other anchors.
struct GemmShape {
    double m = 0, n = 0, k = 0;
};

GemmShape gemm_shape(const graph::Model& model, const graph::Node& anchor, const ConvShape& conv) {
    const int category = fusion::op_category(anchor.op);
    const int out = first(anchor.outputs);
    const double out_elements = elements(model, out);
    if (anchor.cost.macs <= 0 || out_elements <= 0)
        return {};
    GemmShape g;
    g.k = static_cast<double>(anchor.cost.macs) / out_elements;
    if (category == fusion::kCategoryConvolution && conv.cout > 0) {
        g.m = static_cast<double>(conv.cout / conv.groups);
        g.n = out_elements / static_cast<double>(dim(model, out, 0) > 0 ? dim(model, out, 0) : 1) /
              static_cast<double>(conv.cout);
    } else if (category == fusion::kCategoryMatrixProduct) {
        const auto r = rank(model, out);
        g.n = r >= 1 ? static_cast<double>(dim(model, out, r - 1)) : 1;
        g.m = g.n > 0 ? out_elements / g.n : 0;
    } else {
        return {};
    }
    return g;
}

// A Transpose's permutation: its perm attribute, else the axes reversed (ONNX's default).
std::vector<std::int64_t> transpose_perm(const graph::Model& model, const graph::Node& anchor) {
    auto perm = anchor.ints_attribute("perm");
    if (perm.empty())
        for (std::size_t a = rank(model, anchor.inputs.front()); a-- > 0;)
            perm.push_back(static_cast<std::int64_t>(a));
    return perm;
}

// For a Transpose, the elements each contiguous copy moves: the product of the trailing dims the
// permutation leaves in place (1 when the innermost axis moves, the slow strided case; the whole
// tensor for an identity). 0 for other ops.
double transpose_block(const graph::Model& model, const graph::Node& anchor) {
    if (anchor.op != "Transpose" || anchor.inputs.empty())
        return 0;
    const auto perm = transpose_perm(model, anchor);
    double block = 1;
    for (std::size_t a = perm.size(); a-- > 0;) {
        if (perm[a] != static_cast<std::int64_t>(a))
            break;
        block *= static_cast<double>(dim(model, anchor.inputs.front(), a));
    }
    return block;
}

// For a Transpose, how many runs of axes the permutation reorders: the input's dims of size 1 left
// out, axes that stay next to each other and in order counted once. 1 for an identity, 2 for a
// matrix transpose or NCHW to NHWC, which ONNX Runtime copies in blocks; MaxViT's window
// partition ([1, C, H/w, w, W/w, w] to [1, H/w, W/w, w, w, C]) is 5, which it copies element by
// element at 3-4 ns each where the others take 0.2-0.7 (1 thread, this project's calibration
// data). 0 for other ops.
double transpose_axes(const graph::Model& model, const graph::Node& anchor) {
    if (anchor.op != "Transpose" || anchor.inputs.empty())
        return 0;
    int runs = 0;
    std::int64_t previous = -2;
    for (const auto axis : transpose_perm(model, anchor)) {
        if (dim(model, anchor.inputs.front(), static_cast<std::size_t>(axis)) == 1)
            continue;
        runs += axis != previous + 1;
        previous = axis;
    }
    return std::max(runs, 1);
}

} // namespace

const std::vector<std::string>& kernel_feature_names() {
    static const std::vector<std::string> names = {
        "macs",      "flops",      "bytes_in",       "bytes_out",      "weight_bytes",
        "anchor_in", "anchor_out", "channels_in",    "channels_out",   "kernel_area",
        "stride",    "groups",     "fused_elements", "run_time_nodes", "launches",
    };
    static const std::vector<std::string> all = [] {
        auto out = names;
        for (const char* category :
             {"convolutions", "matrix_products", "normalisations", "activations", "unary_ops",
              "binary_ops", "pools", "reductions", "layout_ops", "gathers", "shape_ops",
              "other_ops"})
            out.push_back(std::string("nodes_") + category);
        for (const char* dimension : {"gemm_m", "gemm_n", "gemm_k"})
            out.emplace_back(dimension);
        out.emplace_back("second_input");
        out.emplace_back("transpose_block");
        out.emplace_back("transpose_axes");
        out.emplace_back("decode_kv_bytes");
        out.emplace_back("decode_weight_bytes");
        return out;
    }();
    return all;
}

int kernel_anchor(const graph::Model& model, const fusion::Kernel& kernel) {
    int anchor = -1;
    std::int64_t most = 0;
    for (const int n : kernel.nodes) {
        const auto macs = model.nodes[static_cast<std::size_t>(n)].cost.macs;
        if (macs > most) {
            most = macs;
            anchor = n;
        }
    }
    if (anchor >= 0)
        return anchor;
    // Without MACs: the member whose output is largest (a fused Constant never is).
    double largest = -1;
    for (const int n : kernel.nodes) {
        const double out = elements(model, first(model.nodes[static_cast<std::size_t>(n)].outputs));
        if (out > largest) {
            largest = out;
            anchor = n;
        }
    }
    return anchor;
}

// A weight is read once a step, so whether it is still cached at the next one depends on the
// weights and the key/value caches together against the caches. The kernels of a decode step run
// slower the longer the context, their own work unchanged: an int4 decoder's MatMulNBits took
// 0.74-0.9 of their mean time after 100-300 cached tokens and 1.2-1.5 after 4,000-8,000 (one
// thread, a 32 MiB L3).
namespace {

// The caches a decoder's inputs carry and the weights it reads, whatever the step.
DecodeStepBytes state_bytes(const graph::Model& model) {
    DecodeStepBytes step;
    for (const int i : model.inputs) {
        const auto& t = model.tensors[static_cast<std::size_t>(i)];
        if (!t.shape || t.bytes() <= 0)
            continue;
        for (const auto& role : graph::input_dim_roles(t.name, t.shape->size()))
            if (role == graph::DimRole::CachedTokens) {
                step.kv += static_cast<double>(t.bytes());
                break;
            }
    }
    for (const auto& t : model.tensors) {
        if (t.kind != graph::Tensor::Kind::Initializer || t.bytes() <= 0)
            continue;
        const bool gathered =
            !t.consumers.empty() && std::all_of(t.consumers.begin(), t.consumers.end(), [&](int n) {
                return model.nodes[static_cast<std::size_t>(n)].op.starts_with("Gather");
            });
        if (!gathered)
            step.weights += static_cast<double>(t.bytes());
    }
    return step;
}

} // namespace

DecodeStepBytes decode_step_bytes(const graph::Model& model) {
    if (graph::bound_role(model, graph::DimRole::CachedTokens).value_or(0) <= 0)
        return {};
    return state_bytes(model);
}

double working_set_bytes(const graph::Model& model) {
    const auto state = state_bytes(model);
    return state.weights + state.kv;
}

std::vector<double> kernel_features(const graph::Model& model, const fusion::Kernel& kernel) {
    return kernel_features(model, kernel, decode_step_bytes(model));
}

std::vector<double> kernel_features(const graph::Model& model, const fusion::Kernel& kernel,
                                    const DecodeStepBytes& step) {
    const int anchor_index = kernel_anchor(model, kernel);
    const auto& anchor = model.nodes[static_cast<std::size_t>(anchor_index)];
    ConvShape conv;
    if (fusion::op_category(anchor.op) == fusion::kCategoryConvolution)
        conv = conv_shape(model, anchor);
    double fused = 0;
    int run_time_nodes = 0;
    std::vector<double> mix(fusion::kOpCategories, 0.0);
    for (const int n : kernel.nodes) {
        const auto& node = model.nodes[static_cast<std::size_t>(n)];
        if (node.op == "Constant")
            continue;
        ++run_time_nodes;
        mix[static_cast<std::size_t>(fusion::op_category(node.op))] += 1;
        if (n != anchor_index)
            fused += elements(model, first(node.outputs));
    }
    std::vector<double> features{static_cast<double>(kernel.macs),
                                 static_cast<double>(kernel.flops),
                                 static_cast<double>(kernel.bytes_in),
                                 static_cast<double>(kernel.bytes_out),
                                 static_cast<double>(kernel.weight_bytes),
                                 elements(model, first(anchor.inputs)),
                                 elements(model, first(anchor.outputs)),
                                 static_cast<double>(conv.cin),
                                 static_cast<double>(conv.cout),
                                 static_cast<double>(conv.kernel_area),
                                 static_cast<double>(conv.stride),
                                 static_cast<double>(conv.groups),
                                 fused,
                                 static_cast<double>(run_time_nodes),
                                 static_cast<double>(kernel.launches)};
    features.insert(features.end(), mix.begin(), mix.end());
    const auto gemm = gemm_shape(model, anchor, conv);
    features.insert(features.end(), {gemm.m, gemm.n, gemm.k});
    features.push_back(anchor.inputs.size() > 1 ? elements(model, anchor.inputs[1]) : 0);
    features.push_back(transpose_block(model, anchor));
    features.push_back(transpose_axes(model, anchor));
    features.push_back(step.kv);
    features.push_back(step.weights);
    return features;
}

std::string cost_class(const graph::Model& model, const fusion::Kernel& kernel) {
    const auto& anchor = model.nodes[static_cast<std::size_t>(kernel_anchor(model, kernel))];
    const int category = fusion::op_category(anchor.op);
    if (category == fusion::kCategoryConvolution) {
        const auto c = conv_shape(model, anchor);
        if (c.groups > 1 && c.groups == c.cin)
            return anchor.op + "/depthwise";
        if (c.groups > 1)
            return anchor.op + "/grouped";
        return anchor.op + (c.kernel_area == 1 ? "/1x1" : "/kxk");
    }
    // ONNX Runtime's contrib products too: a decode step's 4-bit products and its attention over
    // the cache have one query row, and read every weight or cached key and value for it.
    if (category == fusion::kCategoryMatrixProduct || anchor.op == "MatMulNBits" ||
        anchor.op == "GroupQueryAttention" || anchor.op == "MultiHeadAttention") {
        // A product with one row (batch-1 classifier heads) is bound by reading the weights.
        const int out = first(anchor.outputs);
        const auto r = rank(model, out);
        const auto rows = r >= 2 ? dim(model, out, r - 2) : 1;
        std::int64_t batch = 1;
        for (std::size_t a = 0; a + 2 < r; ++a)
            batch *= std::max<std::int64_t>(1, dim(model, out, a));
        return anchor.op + (rows * batch <= 1 ? "/gemv" : "/gemm");
    }
    return anchor.op;
}

std::string cost_type(const std::string& cost_class) {
    return cost_class.substr(0, cost_class.find('/'));
}

} // namespace cleave::predict
