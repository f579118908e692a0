// Shape rules for the tensor ops of opsets 18 to 21 whose signature changed
// (newer_shape_rules.hpp).
#include "newer_shape_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

namespace cleave::graph::shape_rules {

namespace {

// The floats input `index` holds, where inference knows its data.
std::optional<std::vector<float>> input_floats(onnx::InferenceContext& ctx, std::size_t index) {
    const auto* t = has_input(ctx, index) ? ctx.getInputData(index) : nullptr;
    if (!t || t->data_type() != onnx::TensorProto::FLOAT)
        return std::nullopt;
    if (!t->has_raw_data())
        return std::vector<float>(t->float_data().begin(), t->float_data().end());
    std::vector<float> values(t->raw_data().size() / sizeof(float));
    std::memcpy(values.data(), t->raw_data().data(), values.size() * sizeof(float));
    return values;
}

std::vector<std::int64_t> input_dims(onnx::InferenceContext& ctx, std::size_t index) {
    const auto& shape = onnx::getInputShape(ctx, index);
    std::vector<std::int64_t> dims;
    for (int i = 0; i < shape.dim_size(); ++i)
        dims.push_back(dim_value(shape, i));
    return dims;
}

void set_output_dims(onnx::InferenceContext& ctx, std::size_t index,
                     const std::vector<std::int64_t>& dims) {
    auto& shape = fresh_output_shape(ctx, index);
    for (const auto d : dims)
        add_dim(shape, d);
}

// The `axes` a node names (every axis when it names none), made non-negative.
std::vector<int> axes_attribute(onnx::InferenceContext& ctx, int rank, const char* op) {
    const auto given = ints_attribute(ctx, "axes");
    std::vector<int> axes;
    if (given.empty()) {
        axes.resize(static_cast<std::size_t>(rank));
        std::iota(axes.begin(), axes.end(), 0);
    }
    for (const auto a : given)
        axes.push_back(normalized_axis(a, rank, op));
    return axes;
}

// Split-18's chunk lengths: `split` where given, else `num_outputs` chunks of ceil(length / n)
// with a smaller last one; one of the two must be given.
std::vector<std::int64_t> split_lengths(onnx::InferenceContext& ctx, std::int64_t length,
                                        std::size_t outputs) {
    const auto* num_outputs = ctx.getAttribute("num_outputs");
    if (has_input(ctx, 1)) {
        if (num_outputs)
            fail_shape_inference("Split: both the split input and num_outputs are given");
        auto split = input_ints(ctx, 1);
        if (split && split->size() != outputs)
            fail_shape_inference("Split: ", split->size(), " lengths for ", outputs, " outputs");
        return split ? *split : std::vector<std::int64_t>(outputs, -1);
    }
    const auto n = static_cast<std::int64_t>(outputs);
    if (!num_outputs)
        fail_shape_inference("Split: neither the split input nor num_outputs is given");
    if (num_outputs->i() != n)
        fail_shape_inference("Split: num_outputs is ", num_outputs->i(), " for ", n, " outputs");
    std::vector<std::int64_t> lengths(outputs, -1);
    if (length < 0)
        return lengths;
    const std::int64_t chunk = (length + n - 1) / n;
    for (std::int64_t i = 0; i < n; ++i)
        lengths[static_cast<std::size_t>(i)] =
            std::max<std::int64_t>(0, std::min(chunk, length - i * chunk));
    return lengths;
}

} // namespace

void infer_split_18(onnx::InferenceContext& ctx) {
    const std::size_t outputs = ctx.getNumOutputs();
    for (std::size_t i = 0; i < outputs; ++i)
        onnx::propagateElemTypeFromInputToOutput(ctx, 0, i);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    auto dims = input_dims(ctx, 0);
    const int axis =
        normalized_axis(onnx::getAttribute(ctx, "axis", 0), static_cast<int>(dims.size()), "Split");
    const auto lengths = split_lengths(ctx, dims[static_cast<std::size_t>(axis)], outputs);
    for (std::size_t i = 0; i < outputs; ++i) {
        dims[static_cast<std::size_t>(axis)] = lengths[i];
        set_output_dims(ctx, i, dims);
    }
}

// Pad-18 pads only the axes its optional fourth input names; pads holds their begins, then ends.
void infer_pad_18(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    auto dims = input_dims(ctx, 0);
    const int rank = static_cast<int>(dims.size());
    std::vector<int> axes(dims.size());
    std::iota(axes.begin(), axes.end(), 0);
    if (has_input(ctx, 3)) {
        const auto given = input_ints(ctx, 3);
        if (!given) {
            set_output_dims(ctx, 0, std::vector<std::int64_t>(dims.size(), -1));
            return;
        }
        axes.clear();
        for (const auto a : *given)
            axes.push_back(normalized_axis(a, rank, "Pad"));
    }
    const auto pads = input_ints(ctx, 1);
    if (pads && pads->size() != 2 * axes.size())
        fail_shape_inference("Pad: ", pads->size(), " pads for ", axes.size(), " axes");
    for (std::size_t k = 0; k < axes.size(); ++k) {
        auto& d = dims[static_cast<std::size_t>(axes[k])];
        if (!pads || d < 0) {
            d = -1;
            continue;
        }
        d += (*pads)[k] + (*pads)[k + axes.size()];
        if (d < 0)
            fail_shape_inference("Pad: the pads leave a negative dim");
    }
    set_output_dims(ctx, 0, dims);
}

namespace {

// Resize-18's `keep_aspect_ratio_policy` for `sizes`: one scale for all resized axes, the
// smallest ("not_larger") or the largest ("not_smaller") of sizes / input dims, rounded as
// ONNX's reference rounds it.
void keep_aspect_ratio(const std::string& policy, const std::vector<std::int64_t>& dims,
                       const std::vector<int>& axes, std::vector<std::int64_t>& sizes) {
    if (policy == "stretch")
        return;
    if (policy != "not_larger" && policy != "not_smaller")
        fail_shape_inference("Resize: unknown keep_aspect_ratio_policy '", policy, "'");
    const bool not_larger = policy == "not_larger";
    float scale = not_larger ? std::numeric_limits<float>::max() : 0.0F;
    bool known = true;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const auto in = dims[static_cast<std::size_t>(axes[i])];
        known &= in > 0;
        if (in > 0) {
            const float s = static_cast<float>(sizes[i]) / static_cast<float>(in);
            scale = not_larger ? std::min(scale, s) : std::max(scale, s);
        }
    }
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const auto in = dims[static_cast<std::size_t>(axes[i])];
        sizes[i] =
            known ? static_cast<std::int64_t>(std::roundf(scale * static_cast<float>(in))) : -1;
    }
}

} // namespace

// Resize-18 and 19: `sizes` or `scales` for the axes the `axes` attribute names (all by default).
void infer_resize_18(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    auto dims = input_dims(ctx, 0);
    const auto axes = axes_attribute(ctx, static_cast<int>(dims.size()), "Resize");
    const std::string policy = onnx::getAttribute(ctx, "keep_aspect_ratio_policy", "stretch");
    const auto scales = input_floats(ctx, 2);
    std::optional<std::vector<std::int64_t>> sizes;
    if (!has_input(ctx, 2) && !has_input(ctx, 3))
        fail_shape_inference("Resize: neither scales nor sizes is given");
    if (has_input(ctx, 3)) {
        sizes = input_ints(ctx, 3);
        if (sizes && sizes->size() != axes.size())
            fail_shape_inference("Resize: ", sizes->size(), " sizes for ", axes.size(), " axes");
        if (sizes)
            keep_aspect_ratio(policy, dims, axes, *sizes);
        else
            sizes = std::vector<std::int64_t>(axes.size(), -1);
    }
    if (!sizes && scales && scales->size() != axes.size())
        fail_shape_inference("Resize: ", scales->size(), " scales for ", axes.size(), " axes");
    for (std::size_t i = 0; i < axes.size(); ++i) {
        auto& d = dims[static_cast<std::size_t>(axes[i])];
        if (sizes)
            d = (*sizes)[i];
        else
            d = scales && d >= 0
                    ? static_cast<std::int64_t>(std::floor(static_cast<float>(d) * (*scales)[i]))
                    : -1;
    }
    set_output_dims(ctx, 0, dims);
}

// CenterCropPad-18: the named axes take the lengths the `shape` input gives.
void infer_center_crop_pad_18(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    auto dims = input_dims(ctx, 0);
    const auto axes = axes_attribute(ctx, static_cast<int>(dims.size()), "CenterCropPad");
    const auto shape = input_ints(ctx, 1);
    if (shape && shape->size() != axes.size())
        fail_shape_inference("CenterCropPad: ", shape->size(), " lengths for ", axes.size(),
                             " axes");
    for (std::size_t i = 0; i < axes.size(); ++i)
        dims[static_cast<std::size_t>(axes[i])] = shape ? (*shape)[i] : -1;
    set_output_dims(ctx, 0, dims);
}

// Col2Im-18: [N, C x prod(block_shape), L] blocks back into an image [N, C, image_shape...].
void infer_col2im_18(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    const auto in = input_dims(ctx, 0);
    if (in.size() != 3)
        fail_shape_inference("Col2Im: the input has rank ", in.size(), "; expected 3");
    const auto image = input_ints(ctx, 1);
    const auto block = input_ints(ctx, 2);
    std::int64_t spatial = image ? static_cast<std::int64_t>(image->size()) : -1;
    if (!image && onnx::hasInputShape(ctx, 1) && onnx::getInputShape(ctx, 1).dim_size() == 1)
        spatial = dim_value(onnx::getInputShape(ctx, 1), 0);
    if (spatial < 0)
        return;
    std::int64_t block_volume = 1;
    for (const auto b : block ? *block : std::vector<std::int64_t>{})
        block_volume *= b;
    if (block_volume <= 0)
        fail_shape_inference("Col2Im: block_shape holds a dim below 1");
    std::vector<std::int64_t> dims{in[0], block && in[1] >= 0 ? in[1] / block_volume : -1};
    for (std::int64_t i = 0; i < spatial; ++i)
        dims.push_back(image ? (*image)[static_cast<std::size_t>(i)] : -1);
    set_output_dims(ctx, 0, dims);
}

// AffineGrid-20: theta [N, 2, 3] or [N, 3, 4] and size [N, C, (D,) H, W] give a grid
// [N, (D,) H, W, 2 or 3].
void infer_affine_grid_20(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    const auto size = input_ints(ctx, 1);
    std::int64_t count = size ? static_cast<std::int64_t>(size->size()) : -1;
    if (!size && onnx::hasInputShape(ctx, 1) && onnx::getInputShape(ctx, 1).dim_size() == 1)
        count = dim_value(onnx::getInputShape(ctx, 1), 0);
    if (count < 0)
        return;
    if (count != 4 && count != 5)
        fail_shape_inference("AffineGrid: size holds ", count, " dims; expected 4 or 5");
    std::vector<std::int64_t> dims{size ? (*size)[0] : -1};
    if (!size && onnx::hasInputShape(ctx, 0))
        dims[0] = dim_value(onnx::getInputShape(ctx, 0), 0);
    for (std::int64_t i = 2; i < count; ++i)
        dims.push_back(size ? (*size)[static_cast<std::size_t>(i)] : -1);
    dims.push_back(count - 2);
    set_output_dims(ctx, 0, dims);
}

// GridSample-20 samples N-D: X [N, C, D1...Dr] and grid [N, H1...Hr, r] give [N, C, H1...Hr].
void infer_grid_sample_20(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasNInputShapes(ctx, 2))
        return;
    const auto x = input_dims(ctx, 0);
    const auto grid = input_dims(ctx, 1);
    if (x.size() != grid.size() || x.size() < 3)
        fail_shape_inference("GridSample: X has rank ", x.size(), " and grid ", grid.size(),
                             "; expected the same rank, at least 3");
    std::vector<std::int64_t> dims{x[0] >= 0 ? x[0] : grid[0], x[1]};
    dims.insert(dims.end(), grid.begin() + 1, grid.end() - 1);
    set_output_dims(ctx, 0, dims);
}

// DFT-20 takes its axis (default -2) and length as inputs; the last dim holds the real and
// imaginary parts, and a one-sided transform keeps length / 2 + 1 frequencies.
void infer_dft_20(onnx::InferenceContext& ctx) {
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
    if (!onnx::hasInputShape(ctx, 0))
        return;
    auto dims = input_dims(ctx, 0);
    const int rank = static_cast<int>(dims.size());
    if (rank < 2)
        fail_shape_inference("DFT: the input has rank ", rank, "; expected at least 2");
    std::int64_t axis = -2;
    if (has_input(ctx, 2)) {
        const auto given = input_ints(ctx, 2);
        if (!given || given->size() != 1) {
            set_output_dims(ctx, 0, std::vector<std::int64_t>(dims.size() - 1, -1));
            onnx::getOutputShape(ctx, 0)->add_dim()->set_dim_value(2);
            return;
        }
        axis = given->front();
    }
    const auto at = static_cast<std::size_t>(normalized_axis(axis, rank, "DFT"));
    if (at == dims.size() - 1)
        fail_shape_inference("DFT: the axis is the last dim, which holds the complex parts");
    std::int64_t length = dims[at];
    if (has_input(ctx, 1)) {
        const auto given = input_ints(ctx, 1);
        length = given && given->size() == 1 ? given->front() : -1;
    }
    if (onnx::getAttribute(ctx, "onesided", 0) != 0 && length >= 0)
        length = length / 2 + 1;
    dims[at] = length;
    dims.back() = 2;
    set_output_dims(ctx, 0, dims);
}

} // namespace cleave::graph::shape_rules
