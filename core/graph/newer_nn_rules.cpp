// Shape rules for the pooling and convolution versions of opsets 18 to 21 (newer_shape_rules.hpp):
// LpPool-18 and AveragePool-19 gained dilations (and LpPool ceil_mode); DeformConv-19 is new.
#include "newer_shape_rules.hpp"

#include <string>

namespace cleave::graph::shape_rules {

namespace {

struct Window {
    std::vector<std::int64_t> kernel;
    std::vector<std::int64_t> strides;
    std::vector<std::int64_t> dilations;
    std::vector<std::int64_t> pads; // begins, then ends
    std::string auto_pad;
    bool ceil_mode = false;
};

Window window_attributes(onnx::InferenceContext& ctx, std::vector<std::int64_t> kernel,
                         const char* op) {
    const std::size_t n = kernel.size();
    Window w{std::move(kernel),
             ints_attribute(ctx, "strides", std::vector<std::int64_t>(n, 1)),
             ints_attribute(ctx, "dilations", std::vector<std::int64_t>(n, 1)),
             ints_attribute(ctx, "pads", std::vector<std::int64_t>(2 * n, 0)),
             onnx::getAttribute(ctx, "auto_pad", "NOTSET"),
             onnx::getAttribute(ctx, "ceil_mode", 0) != 0};
    if (w.strides.size() != n || w.dilations.size() != n || w.pads.size() != 2 * n)
        fail_shape_inference(op, ": strides, dilations and pads do not fit ", n, " spatial dims");
    for (std::size_t i = 0; i < n; ++i)
        if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1)
            fail_shape_inference(op, ": kernel, strides and dilations must be at least 1");
    return w;
}

// Positions of a window along one dim of length `in`, as ONNX defines them for pooling and
// convolution; with ceil_mode a last window that would start in the end padding is dropped, as
// ONNX Runtime and PyTorch drop it.
std::int64_t window_positions(const Window& w, std::size_t i, std::int64_t in) {
    if (in < 0)
        return -1;
    const std::int64_t stride = w.strides[i];
    if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER")
        return (in + stride - 1) / stride;
    const bool explicit_pads = w.auto_pad == "NOTSET" || w.auto_pad.empty();
    const std::int64_t begin = explicit_pads ? w.pads[i] : 0;
    const std::int64_t end = explicit_pads ? w.pads[i + w.kernel.size()] : 0;
    const std::int64_t extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    const std::int64_t span = in + begin + end - extent;
    if (span < 0)
        fail_shape_inference("the window (", extent, ") is longer than the padded input (",
                             in + begin + end, ")");
    std::int64_t out = (w.ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
    if (w.ceil_mode && (out - 1) * stride >= in + begin)
        --out;
    return out;
}

} // namespace

void infer_pool_18(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    const auto& x = onnx::getInputShape(ctx, 0);
    const auto w = window_attributes(ctx, ints_attribute(ctx, "kernel_shape"), "pooling");
    if (x.dim_size() < 3 || w.kernel.size() != static_cast<std::size_t>(x.dim_size() - 2))
        fail_shape_inference("pooling: kernel_shape does not fit the input's rank ", x.dim_size());
    auto& out = fresh_output_shape(ctx, 0);
    add_dim(out, dim_value(x, 0));
    add_dim(out, dim_value(x, 1));
    for (std::size_t i = 0; i < w.kernel.size(); ++i)
        add_dim(out, window_positions(w, i, dim_value(x, static_cast<int>(i) + 2)));
}

// DeformConv-19: X [N, C, spatial...] and W [M, C / group, kernel...] give [N, M, positions...];
// the offsets move where the kernel samples, not how often.
void infer_deform_conv_19(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasNInputShapes(ctx, 2))
        return;
    const auto& x = onnx::getInputShape(ctx, 0);
    const auto& weight = onnx::getInputShape(ctx, 1);
    if (x.dim_size() < 3 || weight.dim_size() != x.dim_size())
        fail_shape_inference("DeformConv: X has rank ", x.dim_size(), " and W ", weight.dim_size(),
                             "; expected the same rank, at least 3");
    auto kernel = ints_attribute(ctx, "kernel_shape");
    if (kernel.empty())
        for (int i = 2; i < weight.dim_size(); ++i) {
            if (dim_value(weight, i) < 0)
                return;
            kernel.push_back(dim_value(weight, i));
        }
    const auto w = window_attributes(ctx, std::move(kernel), "DeformConv");
    if (w.kernel.size() != static_cast<std::size_t>(x.dim_size() - 2))
        fail_shape_inference("DeformConv: kernel_shape does not fit X's rank ", x.dim_size());
    auto& out = fresh_output_shape(ctx, 0);
    add_dim(out, dim_value(x, 0));
    add_dim(out, dim_value(weight, 0));
    for (std::size_t i = 0; i < w.kernel.size(); ++i)
        add_dim(out, window_positions(w, i, dim_value(x, static_cast<int>(i) + 2)));
}

} // namespace cleave::graph::shape_rules
