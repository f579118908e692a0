#include "cnn_blocks.hpp"

#include <algorithm>

namespace cleave::modelgen {

namespace {

// ShuffleNetV2's channel shuffle as torchvision exports it: [N, 2, C/2, H, W], swap the two
// channel dims, back to [N, C, H, W].
Tensor channel_shuffle(NetBuilder& b, const Tensor& x) {
    const auto& s = x.shape;
    auto y = b.reshape(x, {s[0], 2, s[1] / 2, s[2], s[3]});
    y = b.transpose(y, {0, 2, 1, 3, 4});
    return b.reshape(y, {s[0], s[1], s[2], s[3]});
}

} // namespace

std::int64_t divisible(double channels, std::int64_t by) {
    const auto rounded =
        std::max<std::int64_t>(by, static_cast<std::int64_t>(channels + by / 2.0) / by * by);
    return rounded < 0.9 * channels ? rounded + by : rounded;
}

Tensor conv_bn_act(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t kernel,
                   std::int64_t stride, std::int64_t groups, const std::string& act,
                   const std::string& name) {
    b.push(name);
    auto y = b.batch_norm(b.conv(x, out, kernel, stride, groups, false));
    if (!act.empty())
        y = b.activation(y, act);
    b.pop();
    return y;
}

Tensor classifier(NetBuilder& b, const Tensor& x, std::int64_t classes) {
    return b.gemm(b.flatten(b.global_avg_pool(x)), classes);
}

Tensor inverted_residual(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                         std::int64_t expansion, std::int64_t kernel, const std::string& name,
                         const std::string& act) {
    b.push(name);
    const std::int64_t hidden = x.channels() * expansion;
    Tensor y = x;
    if (expansion != 1)
        y = conv_bn_act(b, y, hidden, 1, 1, 1, act, "expand");
    y = conv_bn_act(b, y, hidden, kernel, stride, hidden, act, "depthwise");
    y = conv_bn_act(b, y, out, 1, 1, 1, "", "project");
    if (stride == 1 && x.channels() == out)
        y = b.add(x, y);
    b.pop();
    return y;
}

Tensor basic_block(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                   const std::string& name) {
    b.push(name);
    auto y = conv_bn_act(b, x, out, 3, stride, 1, "Relu", "conv1");
    y = conv_bn_act(b, y, out, 3, 1, 1, "", "conv2");
    const auto skip = stride != 1 || x.channels() != out
                          ? conv_bn_act(b, x, out, 1, stride, 1, "", "downsample")
                          : x;
    y = b.activation(b.add(y, skip), "Relu", "relu");
    b.pop();
    return y;
}

Tensor bottleneck(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                  const std::string& name) {
    b.push(name);
    const std::int64_t width = std::max<std::int64_t>(8, out / 4);
    auto y = conv_bn_act(b, x, width, 1, 1, 1, "Relu", "conv1");
    y = conv_bn_act(b, y, width, 3, stride, 1, "Relu", "conv2");
    y = conv_bn_act(b, y, out, 1, 1, 1, "", "conv3");
    const auto skip = stride != 1 || x.channels() != out
                          ? conv_bn_act(b, x, out, 1, stride, 1, "", "downsample")
                          : x;
    y = b.activation(b.add(y, skip), "Relu", "relu");
    b.pop();
    return y;
}

Tensor fire(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name) {
    b.push(name);
    const auto s = b.activation(b.conv(x, std::max<std::int64_t>(8, out / 8), 1), "Relu");
    const auto e1 = b.activation(b.conv(s, out / 2, 1, 1, 1, true, 0, "expand1x1"), "Relu");
    const auto e3 = b.activation(b.conv(s, out - out / 2, 3, 1, 1, true, 0, "expand3x3"), "Relu");
    const auto y = b.concat({e1, e3});
    b.pop();
    return y;
}

Tensor dense_layer(NetBuilder& b, const Tensor& x, std::int64_t growth, const std::string& name) {
    b.push(name);
    auto y = b.activation(b.batch_norm(x, "norm1"), "Relu");
    y = b.conv(y, 4 * growth, 1, 1, 1, false, 0, "conv1");
    y = b.activation(b.batch_norm(y, "norm2"), "Relu");
    y = b.conv(y, growth, 3, 1, 1, false, 0, "conv2");
    y = b.concat({x, y});
    b.pop();
    return y;
}

Tensor squeeze_excitation(NetBuilder& b, const Tensor& x, std::int64_t squeeze,
                          const std::string& act, const std::string& gate,
                          const std::string& name) {
    b.push(name);
    auto s = b.global_avg_pool(x, "avgpool");
    s = b.activation(b.conv(s, squeeze, 1, 1, 1, true, 0, "fc1"), act, "activation");
    s = b.activation(b.conv(s, x.channels(), 1, 1, 1, true, 0, "fc2"), gate, "scale_activation");
    const auto y = b.mul(s, x, "");
    b.pop();
    return y;
}

Tensor grouped_bottleneck(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t width,
                          std::int64_t groups, std::int64_t stride, bool se,
                          const std::string& name) {
    b.push(name);
    const auto skip =
        stride != 1 || x.channels() != out ? conv_bn_act(b, x, out, 1, stride, 1, "", "proj") : x;
    auto y = conv_bn_act(b, x, width, 1, 1, 1, "Relu", "a");
    y = conv_bn_act(b, y, width, 3, stride, groups, "Relu", "b");
    if (se)
        y = squeeze_excitation(b, y, std::max<std::int64_t>(8, x.channels() / 4), "Relu",
                               "Sigmoid");
    y = conv_bn_act(b, y, out, 1, 1, 1, "", "c");
    y = b.activation(b.add(y, skip), "Relu", "activation");
    b.pop();
    return y;
}

Tensor mobile_block(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t hidden,
                    std::int64_t kernel, std::int64_t stride, const std::string& act,
                    std::int64_t se_squeeze, const std::string& se_act, const std::string& se_gate,
                    const std::string& name) {
    b.push(name);
    Tensor y = x;
    if (hidden != x.channels())
        y = conv_bn_act(b, y, hidden, 1, 1, 1, act, "expand");
    y = conv_bn_act(b, y, hidden, kernel, stride, hidden, act, "depthwise");
    if (se_squeeze > 0)
        y = squeeze_excitation(b, y, se_squeeze, se_act, se_gate);
    y = conv_bn_act(b, y, out, 1, 1, 1, "", "project");
    if (stride == 1 && x.channels() == out)
        y = b.add(y, x);
    b.pop();
    return y;
}

Tensor shuffle_unit(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                    bool split_op, const std::string& name) {
    b.push(name);
    const std::int64_t half = out / 2;
    const auto branch2 = [&](const Tensor& in) {
        b.push("branch2");
        auto y = conv_bn_act(b, in, half, 1, 1, 1, "Relu", "0");
        y = conv_bn_act(b, y, half, 3, stride, half, "", "1");
        y = conv_bn_act(b, y, half, 1, 1, 1, "Relu", "2");
        b.pop();
        return y;
    };
    Tensor y;
    if (stride == 1 && x.channels() == out) {
        std::vector<Tensor> parts;
        if (split_op)
            parts = b.split(x, 1, {half, out - half});
        else
            parts = {b.slice(x, 1, 0, half), b.slice(x, 1, half, out)};
        y = b.concat({parts[0], branch2(parts[1])}, "");
    } else {
        b.push("branch1");
        auto y1 = conv_bn_act(b, x, x.channels(), 3, stride, x.channels(), "", "0");
        y1 = conv_bn_act(b, y1, out - half, 1, 1, 1, "Relu", "1");
        b.pop();
        y = b.concat({y1, branch2(x)}, "");
    }
    y = channel_shuffle(b, y);
    b.pop();
    return y;
}

Tensor dense_transition(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name) {
    b.push(name);
    auto y = b.activation(b.batch_norm(x, "norm"), "Relu", "relu");
    y = b.avg_pool(b.conv(y, out, 1, 1, 1, false), 2, 2, 0, "pool");
    b.pop();
    return y;
}

} // namespace cleave::modelgen
