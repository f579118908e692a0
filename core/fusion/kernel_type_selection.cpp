#include "kernel_type_selection.hpp"

#include "core/input_error.hpp"

namespace cleave::fusion {

namespace {

// The delegate packs 4 channels into one texel ("slice") and Winograd F(4x4, 3x3) writes 4x4
// output tiles, so both counts are rounded-up quarters.
std::int64_t quarters(std::int64_t n) {
    return (n + 3) / 4;
}

bool all_ones(const std::vector<std::int64_t>& values) {
    for (const auto v : values)
        if (v != 1)
            return false;
    return true;
}

bool known(const graph::Shape& shape) {
    for (const auto d : shape)
        if (d < 0)
            return false;
    return true;
}

} // namespace

std::vector<std::string> gpu_families(const RuleSet& rules) {
    std::vector<std::string> names;
    if (rules.conv_kernel_types)
        for (const auto& [family, _] : rules.conv_kernel_types->winograd_thresholds)
            names.push_back(family);
    return names;
}

void choose_gpu_family(RuleSet& rules, const std::string& family) {
    const auto names = gpu_families(rules);
    if (names.empty())
        throw InputError("--gpu-family", family,
                         "rule set " + rules.name +
                             " types no kernels by GPU family; use it with --rules tflite-gpu "
                             "or a rule file with a conv_kernel_types section");
    if (rules.conv_kernel_types->winograd_thresholds.count(family)) {
        rules.gpu_family = family;
        return;
    }
    std::string list;
    for (const auto& n : names)
        list += (list.empty() ? "" : ", ") + n;
    throw InputError("--gpu-family", family, "no such GPU family; expected one of " + list);
}

bool winograd_recommended(const WinogradThresholds& thresholds, std::int64_t in_channels,
                          std::int64_t out_channels, std::int64_t out_height,
                          std::int64_t out_width) {
    return quarters(in_channels) >= thresholds.min_src_slices &&
           quarters(out_channels) >= thresholds.min_dst_slices &&
           quarters(out_height) * quarters(out_width) >= thresholds.min_tiles;
}

std::string anchor_kernel_type(const graph::Model& model, int node, const RuleSet& rules,
                               const std::vector<bool>& constant) {
    const auto& conv = model.nodes[static_cast<std::size_t>(node)];
    const auto& types = rules.conv_kernel_types;
    if (!types || !types->ops.count(conv.op) || conv.inputs.size() < 2 || conv.inputs[1] < 0 ||
        conv.outputs.empty() || conv.outputs[0] < 0)
        return conv.op;
    const auto& weights = model.tensors[static_cast<std::size_t>(conv.inputs[1])];
    const bool constant_weights =
        weights.kind == graph::Tensor::Kind::Initializer ||
        (weights.producer >= 0 && constant[static_cast<std::size_t>(weights.producer)]);
    // Only 2-D convolutions: weights [out, in / group, kernel h, kernel w].
    if (!constant_weights || !weights.shape || weights.shape->size() != 4 || !known(*weights.shape))
        return conv.op;
    const auto& w = *weights.shape;
    const std::int64_t group = conv.int_attribute("group", 1);
    const std::int64_t out_channels = w[0];
    const std::int64_t in_channels = w[1] * group;
    if (group < 1 || out_channels % group != 0)
        return conv.op;

    if (group > 1) {
        // The converter makes group == input channels a DEPTHWISE_CONV_2D with multiplier
        // out / in; the delegate refuses a multiplier other than 1 (input channels are > 1 here).
        if (group == in_channels)
            return out_channels == in_channels ? types->depthwise : types->unsupported;
        const bool aligned = w[1] % types->grouped_multiple == 0 &&
                             (out_channels / group) % types->grouped_multiple == 0;
        return aligned ? types->grouped : types->unsupported;
    }

    const bool winograd_shape = w[2] == 3 && w[3] == 3 &&
                                all_ones(conv.ints_attribute("strides")) &&
                                all_ones(conv.ints_attribute("dilations"));
    if (!winograd_shape)
        return types->direct;
    const auto& output = model.tensors[static_cast<std::size_t>(conv.outputs[0])];
    if (!output.shape || output.shape->size() != 4 || !known(*output.shape))
        return conv.op;
    // A rule set built in code may name no family: its file's default stands in.
    auto family = types->winograd_thresholds.find(rules.gpu_family);
    if (family == types->winograd_thresholds.end())
        family = types->winograd_thresholds.find(types->default_gpu_family);
    if (family == types->winograd_thresholds.end())
        return conv.op;
    return winograd_recommended(family->second, in_channels, out_channels, (*output.shape)[2],
                                (*output.shape)[3])
               ? types->winograd
               : types->direct;
}

} // namespace cleave::fusion
