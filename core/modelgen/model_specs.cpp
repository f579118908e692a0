#include "model_specs.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>

namespace cleave::modelgen {

namespace {

std::int64_t divisible(double channels, std::int64_t by = 8) {
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

Tensor classifier(NetBuilder& b, const Tensor& x, std::int64_t classes = 1000) {
    return b.gemm(b.flatten(b.global_avg_pool(x)), classes);
}

// MobileNetV2's inverted residual: 1x1 expand (unless expansion 1), k x k depthwise, 1x1
// project, residual when shapes allow. MnasNet's is the same with Relu.
Tensor inverted_residual(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                         std::int64_t expansion, std::int64_t kernel, const std::string& name,
                         const std::string& act = "Relu6") {
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

// SqueezeNet's fire module: squeeze 1x1, then 1x1 and 3x3 expands concatenated.
Tensor fire(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name) {
    b.push(name);
    const auto s = b.activation(b.conv(x, std::max<std::int64_t>(8, out / 8), 1), "Relu");
    const auto e1 = b.activation(b.conv(s, out / 2, 1, 1, 1, true, 0, "expand1x1"), "Relu");
    const auto e3 = b.activation(b.conv(s, out - out / 2, 3, 1, 1, true, 0, "expand3x3"), "Relu");
    const auto y = b.concat({e1, e3});
    b.pop();
    return y;
}

// DenseNet's layer: BN-ReLU-1x1 (4 x growth) -BN-ReLU-3x3 (growth), concatenated to its input.
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

// Squeeze-and-excitation as torchvision writes it: GlobalAveragePool, 1x1 Conv, activation, 1x1
// Conv, a gate, and the gate [N, C, 1, 1] Mul the feature map.
Tensor squeeze_excitation(NetBuilder& b, const Tensor& x, std::int64_t squeeze,
                          const std::string& act, const std::string& gate,
                          const std::string& name = "se") {
    b.push(name);
    auto s = b.global_avg_pool(x, "avgpool");
    s = b.activation(b.conv(s, squeeze, 1, 1, 1, true, 0, "fc1"), act, "activation");
    s = b.activation(b.conv(s, x.channels(), 1, 1, 1, true, 0, "fc2"), gate, "scale_activation");
    const auto y = b.mul(s, x, "");
    b.pop();
    return y;
}

// ResNeXt's and RegNet's bottleneck: 1x1, 3x3 grouped (carrying the stride, as torchvision's
// do), RegNetY's squeeze-excitation to a quarter of the block's input, 1x1, residual with a 1x1
// projection where the shape changes.
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

// EfficientNet's MBConv and MobileNetV3's block: 1x1 expand (unless the width stays), k x k
// depthwise, squeeze-excitation (EfficientNet: SiLU and Sigmoid to a quarter of the input;
// MobileNetV3: Relu and HardSigmoid to a quarter of the expansion), 1x1 project, residual.
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

// ShuffleNetV2's channel shuffle as torchvision exports it: [N, 2, C/2, H, W], swap the two
// channel dims, back to [N, C, H, W].
Tensor channel_shuffle(NetBuilder& b, const Tensor& x) {
    const auto& s = x.shape;
    auto y = b.reshape(x, {s[0], 2, s[1] / 2, s[2], s[3]});
    y = b.transpose(y, {0, 2, 1, 3, 4});
    return b.reshape(y, {s[0], s[1], s[2], s[3]});
}

// ShuffleNetV2's unit. Where the shape stays: half the channels pass, the other half go through
// 1x1, depthwise 3x3, 1x1, then Concat and shuffle; the halves are cut by two Slices (as
// torchvision's chunk exports) or one Split. Otherwise two branches see the whole input.
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

// DenseNet's transition: BN, Relu, 1x1 conv, 2 x 2 average pool.
Tensor dense_transition(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name) {
    b.push(name);
    auto y = b.activation(b.batch_norm(x, "norm"), "Relu", "relu");
    y = b.avg_pool(b.conv(y, out, 1, 1, 1, false), 2, 2, 0, "pool");
    b.pop();
    return y;
}

// A transformer's MLP: Linear (MatMul + bias Add), GELU in the Erf form, Linear.
Tensor transformer_mlp(NetBuilder& b, const Tensor& x, std::int64_t hidden,
                       const std::vector<std::string>& names) {
    const auto y = b.activation(b.matmul(x, hidden, true, names.at(0)), "Gelu", names.at(1));
    return b.matmul(y, x.shape.back(), true, names.at(2));
}

// GPT-2's block as PyTorch's exporter writes it below opset 17: LayerNorm decomposed, one QKV
// Linear cut by Split, heads by Reshape and Transpose (K straight to [N, heads, head dim,
// tokens]), the scores Div by sqrt(head dim) plus the causal mask, Softmax, the product with V
// merged back by Transpose and Reshape, the output Linear, residual; then LayerNorm, the MLP (x4,
// GELU in the Erf form), residual. 47 nodes.
Tensor decoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, const Tensor& mask,
                     const std::string& name) {
    const std::int64_t tokens = x.shape[1], dim = x.shape[2], head_dim = dim / heads;
    b.push(name);
    auto y = b.layer_norm_decomposed(x, 1e-5f, "ln_1");
    b.push("attn");
    const auto qkv = b.split(b.matmul(y, 3 * dim, true, "c_attn"), -1, {dim, dim, dim}, "");
    const auto head = [&](const Tensor& t, const std::vector<std::int64_t>& perm) {
        return b.transpose(b.reshape(t, {1, tokens, heads, head_dim}), perm);
    };
    const auto q = head(qkv[0], {0, 2, 1, 3});
    const auto k = head(qkv[1], {0, 2, 3, 1});
    const auto v = head(qkv[2], {0, 2, 1, 3});
    auto a = b.scale(b.matmul(q, k), std::sqrt(static_cast<float>(head_dim)), "Div");
    a = b.matmul(b.softmax(b.add(a, mask, ""), ""), v);
    a = b.reshape(b.transpose(a, {0, 2, 1, 3}), {1, tokens, dim});
    a = b.matmul(a, dim, true, "c_proj");
    b.pop();
    const auto x1 = b.add(x, a, "");
    y = b.layer_norm_decomposed(x1, 1e-5f, "ln_2");
    b.push("mlp");
    y = transformer_mlp(b, y, 4 * dim, {"c_fc", "act", "c_proj"});
    b.pop();
    y = b.add(x1, y, "");
    b.pop();
    return y;
}

// torchvision's ViT encoder layer as the exporter writes nn.MultiheadAttention: pre-norm,
// sequence-first transposes, one QKV projection cut by Reshape, Unsqueeze, Transpose, Squeeze and
// Gather, heads by Reshape and Transpose, Q and K^T each scaled by the root of 1/sqrt(head dim),
// MatMul, Softmax, MatMul, the output projection a Gemm on [tokens, dim].
Tensor vit_encoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t mlp,
                         const std::string& name) {
    const std::int64_t tokens = x.shape[1], dim = x.shape[2], head_dim = dim / heads;
    b.push(name);
    auto y = b.layer_norm(x, 1e-6f, "ln_1");
    b.push("self_attention");
    y = b.transpose(y, {1, 0, 2});
    y = b.matmul(y, 3 * dim, true, "");
    y = b.reshape(y, {tokens, 1, 3, dim});
    y = b.unsqueeze(y, 0);
    y = b.transpose(y, {3, 1, 2, 0, 4});
    y = b.squeeze(y, 3);
    std::vector<Tensor> qkv;
    for (std::int64_t i = 0; i < 3; ++i)
        qkv.push_back(b.gather(y, 0, i));
    for (auto& t : qkv)
        t = b.transpose(b.reshape(t, {tokens, heads, head_dim}), {1, 0, 2});
    for (auto& t : qkv)
        t = b.reshape(t, {1, heads, tokens, head_dim});
    const auto root_scale = static_cast<float>(std::pow(static_cast<double>(head_dim), -0.25));
    const auto q = b.scale(qkv[0], root_scale);
    const auto k = b.scale(b.transpose(qkv[1], {0, 1, 3, 2}), root_scale);
    auto a = b.softmax(b.matmul(q, k), "");
    a = b.transpose(b.matmul(a, qkv[2]), {2, 0, 1, 3});
    a = b.gemm(b.reshape(a, {tokens, dim}), dim, "out_proj");
    a = b.transpose(b.reshape(a, {tokens, 1, dim}), {1, 0, 2});
    b.pop();
    const auto x1 = b.add(a, x, "");
    y = b.layer_norm(x1, 1e-6f, "ln_2");
    b.push("mlp");
    y = transformer_mlp(b, y, mlp, {"mlp.0", "mlp.1", "mlp.3"});
    b.pop();
    y = b.add(x1, y, "");
    b.pop();
    return y;
}

// BERT's layer as the exporter writes it: separate Q, K and V Linears, heads by Reshape (with
// -1) and Transpose (K straight to [N, heads, head dim, tokens]), the scale as Mul of Q and K^T by
// the root of 1/sqrt(head dim) or as Div of the scores, post-norm (Add then LayerNormalization).
Tensor bert_encoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t mlp,
                          bool divide, const std::string& name) {
    const std::int64_t tokens = x.shape[1], dim = x.shape[2], head_dim = dim / heads;
    b.push(name);
    b.push("attention");
    b.push("self");
    const auto q_in = b.matmul(x, dim, true, "query");
    const auto k_in = b.matmul(x, dim, true, "key");
    const auto v_in = b.matmul(x, dim, true, "value");
    auto q = b.transpose(b.reshape(q_in, {1, tokens, -1, head_dim}), {0, 2, 1, 3});
    const auto v = b.transpose(b.reshape(v_in, {1, tokens, -1, head_dim}), {0, 2, 1, 3});
    auto k = b.transpose(b.reshape(k_in, {1, tokens, -1, head_dim}), {0, 2, 3, 1});
    Tensor scores;
    if (divide) {
        scores = b.scale(b.matmul(q, k), static_cast<float>(std::sqrt(head_dim)), "Div");
    } else {
        const auto root_scale = static_cast<float>(std::pow(static_cast<double>(head_dim), -0.25));
        scores = b.matmul(b.scale(q, root_scale), b.scale(k, root_scale));
    }
    auto a = b.matmul(b.softmax(scores, ""), v);
    a = b.reshape(b.transpose(a, {0, 2, 1, 3}), {1, tokens, -1});
    b.pop();
    b.push("output");
    a = b.layer_norm(b.add(b.matmul(a, dim, true, "dense"), x, ""), 1e-12f, "LayerNorm");
    b.pop();
    b.pop();
    b.push("intermediate");
    auto y = b.activation(b.matmul(a, mlp, true, "dense"), "Gelu", "intermediate_act_fn");
    b.pop();
    b.push("output");
    y = b.layer_norm(b.add(b.matmul(y, dim, true, "dense"), a, ""), 1e-12f, "LayerNorm");
    b.pop();
    b.pop();
    return y;
}

// MaxViT's MBConv: BN first, 1x1 expand + BN + GELU, depthwise 3x3 (the stride) + BN + GELU,
// squeeze-excitation (SiLU, Sigmoid) to a quarter of the output, 1x1 with bias; the shortcut
// average-pools 3 x 3 and projects with a 1x1 where the shape changes.
Tensor maxvit_mbconv(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                     const std::string& name) {
    const std::int64_t hidden = 4 * out;
    b.push(name);
    Tensor skip = x;
    if (stride != 1 || x.channels() != out) {
        b.push("proj");
        if (stride != 1)
            skip = b.avg_pool(skip, 3, stride, 1, "proj.0");
        skip = b.conv(skip, out, 1, 1, 1, true, 0, "proj.1");
        b.pop();
    }
    b.push("layers");
    auto y = b.batch_norm(x, "pre_norm");
    y = conv_bn_act(b, y, hidden, 1, 1, 1, "Gelu", "conv_a");
    y = conv_bn_act(b, y, hidden, 3, stride, hidden, "Gelu", "conv_b");
    y = squeeze_excitation(b, y, out / 4, "Silu", "Sigmoid", "squeeze_excitation");
    y = b.conv(y, out, 1, 1, 1, true, 0, "conv_c");
    b.pop();
    y = b.add(skip, y, "");
    b.pop();
    return y;
}

// MaxViT's partitions: [1, C, H, W] into windows of p x p, [1, windows, p p, C], and back.
Tensor partition(NetBuilder& b, const Tensor& x, std::int64_t p, const std::string& name) {
    const std::int64_t c = x.shape[1], h = x.shape[2], w = x.shape[3];
    b.push(name);
    auto y = b.reshape(x, {1, c, h / p, p, w / p, p});
    y = b.transpose(y, {0, 2, 4, 3, 5, 1});
    y = b.reshape(y, {1, (h / p) * (w / p), p * p, c});
    b.pop();
    return y;
}

Tensor departition(NetBuilder& b, const Tensor& x, std::int64_t h, std::int64_t w, std::int64_t p,
                   const std::string& name) {
    const std::int64_t c = x.shape[3];
    b.push(name);
    auto y = b.reshape(x, {1, h / p, w / p, p, p, c});
    y = b.transpose(y, {0, 5, 1, 3, 2, 4});
    y = b.reshape(y, {1, c, h, w});
    b.pop();
    return y;
}

// MaxViT's attention on partitioned tokens [1, G, P, C]: pre-norm, one QKV Linear cut by three
// Slices, heads of 32, a relative position bias [1, heads, P, P] added to the scores, then the
// MLP; both residual. The two products are Einsums, as MaxViT writes them (ONNX Runtime runs an
// Einsum several times slower than the MatMul of the same product).
Tensor maxvit_attention(NetBuilder& b, const Tensor& x, const std::string& name) {
    const std::int64_t g = x.shape[1], p = x.shape[2], c = x.shape[3];
    const std::int64_t head_dim = 32, heads = c / head_dim;
    b.push(name);
    b.push("attn_layer");
    auto y = b.layer_norm(x, 1e-5f, "attn_layer.0");
    b.push("attn_layer.1");
    y = b.matmul(y, 3 * c, true, "to_qkv");
    std::vector<Tensor> qkv;
    for (std::int64_t i = 0; i < 3; ++i)
        qkv.push_back(
            b.transpose(b.reshape(b.slice(y, -1, i * c, (i + 1) * c), {1, g, p, heads, head_dim}),
                        {0, 1, 3, 2, 4}));
    const auto k = b.scale(qkv[1], 1.0f / std::sqrt(static_cast<float>(head_dim)));
    auto a = b.einsum_product(qkv[0], k, true);
    a = b.add(a, b.parameter("relative_position_bias", {1, heads, p, p}, 0.02), "");
    a = b.einsum_product(b.softmax(a, ""), qkv[2], false);
    a = b.reshape(b.transpose(a, {0, 1, 3, 2, 4}), {1, g, p, c});
    a = b.matmul(a, c, true, "merge");
    b.pop();
    b.pop();
    const auto x1 = b.add(x, a, "");
    b.push("mlp_layer");
    y = b.layer_norm(x1, 1e-5f, "mlp_layer.0");
    y = transformer_mlp(b, y, 4 * c, {"mlp_layer.1", "mlp_layer.2", "mlp_layer.3"});
    b.pop();
    y = b.add(x1, y, "");
    b.pop();
    return y;
}

// One MaxViT layer: MBConv, then attention within p x p windows and across a p x p grid.
Tensor maxvit_layer(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                    std::int64_t p, const std::string& name) {
    b.push(name);
    auto y = maxvit_mbconv(b, x, out, stride, "MBconv");
    const std::int64_t h = y.shape[2], w = y.shape[3];
    b.push("window_attention");
    y = maxvit_attention(b, partition(b, y, p, "partition_op"), "");
    y = departition(b, y, h, w, p, "departition_op");
    b.pop();
    b.push("grid_attention");
    // The grid: windows of (H / p) x (W / p), swapped so that each attends over p x p tokens
    // spread across the map.
    y = b.transpose(partition(b, y, h / p, "partition_op"), {0, 2, 1, 3}, "partition_swap");
    y = maxvit_attention(b, y, "");
    y = b.transpose(y, {0, 2, 1, 3}, "departition_swap");
    y = departition(b, y, h, w, h / p, "departition_op");
    b.pop();
    b.pop();
    return y;
}

ModelSpec spec(std::string name, std::string category, std::string description,
               std::vector<std::int64_t> shape, std::function<void(NetBuilder&)> build) {
    return {std::move(name), std::move(category), std::move(description), std::move(shape),
            std::move(build)};
}

// One conv (and what follows it) at [1, c, s, s].
ModelSpec single_conv(const std::string& name, const std::string& category,
                      const std::string& description, std::int64_t channels, std::int64_t size,
                      std::int64_t out, std::int64_t kernel, std::int64_t groups,
                      const std::string& act = "", double sparsity = 0) {
    return spec(name, category, description, {1, channels, size, size}, [=](NetBuilder& b) {
        auto y = b.conv(b.input(), out, kernel, 1, groups, true, sparsity);
        if (!act.empty())
            y = b.activation(y, act);
        b.output(y);
    });
}

void mobilenet_v2(NetBuilder& b, double width, std::int64_t kernel_of_block = 3) {
    struct Stage {
        std::int64_t expansion, channels, blocks, stride;
    };
    const std::vector<Stage> stages{{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                    {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    b.push("features");
    auto x = conv_bn_act(b, b.input(), divisible(32 * width), 3, 2, 1, "Relu6", "0");
    int index = 1;
    for (const auto& s : stages)
        for (std::int64_t i = 0; i < s.blocks; ++i, ++index)
            x = inverted_residual(b, x, divisible(s.channels * width), i == 0 ? s.stride : 1,
                                  s.expansion, kernel_of_block, std::to_string(index));
    x = conv_bn_act(b, x, divisible(1280 * std::max(1.0, width)), 1, 1, 1, "Relu6",
                    std::to_string(index));
    b.pop();
    b.output(classifier(b, x));
}

// ---- The "zoo" space: random networks of the blocks the zoo's modern architectures are made of.

struct ZooStage {
    std::string kind; // see kZooStageKinds
    int blocks = 1;
    std::int64_t channels = 0;
    std::int64_t stride = 1;
    std::int64_t kernel = 3;
    std::int64_t expansion = 1; // mbconv, mobilenet_v3, mnasnet: hidden = expansion x input
    std::int64_t groups = 1;    // resnext, regnet: groups of the 3x3
    std::int64_t width = 0;     // resnext, regnet: the bottleneck's width; dense: the growth
    std::string act;            // mobilenet_v3: Relu or HardSwish
    bool se = false;            // mobilenet_v3, regnet (RegNetY)
    bool split = false;         // shufflenet: one Split rather than two Slices
    std::int64_t window = 0;    // maxvit: the partition size
};

struct ZooEncoder {
    std::string style; // "vit" or "bert"
    std::int64_t patch = 16, dim = 0, heads = 1, layers = 1, mlp = 0;
    bool class_token = false; // pooled by Gather of token 0, else ReduceMean over tokens
    bool divide = false;      // bert: Div of the scores rather than Mul of Q and K^T
};

struct ZooPlan {
    std::int64_t resolution = 224;
    std::string stem; // conv, resnet, squeezenet, shufflenet; none for a plain ViT
    std::int64_t stem_channels = 0;
    std::string stem_act;
    std::vector<ZooStage> stages;
    std::optional<ZooEncoder> encoder; // ends the network
    std::string head; // CNN heads: classifier, mobilenet_v3, efficientnet, squeezenet
    std::int64_t head_channels = 0;
};

const std::vector<std::string> kZooStageKinds{"resnext",      "regnet",  "mbconv",
                                              "mobilenet_v3", "mnasnet", "shufflenet",
                                              "dense",        "fire",    "maxvit"};

Tensor zoo_stem(NetBuilder& b, const ZooPlan& plan) {
    const auto& x = b.input();
    const auto c = plan.stem_channels;
    if (plan.stem == "conv")
        return conv_bn_act(b, x, c, 3, 2, 1, plan.stem_act, "stem");
    b.push("stem");
    Tensor y;
    if (plan.stem == "squeezenet") // SqueezeNet 1.0: 7 x 7 with bias, no BN
        y = b.activation(b.conv(x, c, 7, 2, 1, true, 0, "conv"), "Relu", "relu");
    else
        y = conv_bn_act(b, x, c, plan.stem == "resnet" ? 7 : 3, 2, 1, "Relu", "conv1");
    y = b.max_pool(y, 3, 2, 1);
    b.pop();
    return y;
}

Tensor zoo_stage(NetBuilder& b, Tensor x, const ZooStage& s) {
    if (s.kind == "dense" && s.stride == 2)
        x = dense_transition(b, x, divisible(static_cast<double>(x.channels()) / 2), "transition");
    if (s.kind == "fire" && s.stride == 2)
        x = b.max_pool(x, 3, 2, 1);
    for (int j = 0; j < s.blocks; ++j) {
        const std::int64_t stride = j == 0 ? s.stride : 1;
        const std::string name = std::to_string(j);
        const auto in = x.channels();
        if (s.kind == "resnext" || s.kind == "regnet")
            x = grouped_bottleneck(b, x, s.channels, s.width, s.groups, stride, s.se, name);
        else if (s.kind == "mbconv")
            x = mobile_block(b, x, s.channels, in * s.expansion, s.kernel, stride, "Silu",
                             std::max<std::int64_t>(1, in / 4), "Silu", "Sigmoid", name);
        else if (s.kind == "mobilenet_v3")
            x = mobile_block(b, x, s.channels, in * s.expansion, s.kernel, stride, s.act,
                             s.se ? divisible(static_cast<double>(in * s.expansion) / 4) : 0,
                             "Relu", "HardSigmoid", name);
        else if (s.kind == "mnasnet")
            x = inverted_residual(b, x, s.channels, stride, s.expansion, s.kernel, name, "Relu");
        else if (s.kind == "shufflenet")
            x = shuffle_unit(b, x, s.channels, stride, s.split, name);
        else if (s.kind == "dense")
            x = dense_layer(b, x, s.width, name);
        else if (s.kind == "fire")
            x = fire(b, x, s.channels, name);
        else if (s.kind == "maxvit")
            x = maxvit_layer(b, x, s.channels, stride, s.window, name);
        else
            throw std::logic_error("unknown zoo stage " + s.kind);
    }
    return x;
}

// A patch embedding (Conv k x k, stride k), tokens [1, T, dim] by Reshape and Transpose, an
// optional class token (Concat), the position embedding (Add), the layers with ViT's final norm
// or BERT's norm of the embeddings, token 0 (Gather) or the mean of the tokens (ReduceMean), and
// a Gemm head.
Tensor zoo_encoder(NetBuilder& b, const Tensor& x, const ZooEncoder& e) {
    auto y = b.conv(x, e.dim, e.patch, e.patch, 1, true, 0, "conv_proj", 0);
    const std::int64_t tokens = y.shape[2] * y.shape[3];
    y = b.transpose(b.reshape(y, {1, e.dim, tokens}), {0, 2, 1});
    if (e.class_token)
        y = b.concat({b.parameter("class_token", {1, 1, e.dim}, 0.02), y}, "", 1);
    b.push("encoder");
    y = b.add(y, b.parameter("pos_embedding", {1, y.shape[1], e.dim}, 0.02), "");
    if (e.style == "bert") // BERT normalises its embeddings; its layers end normalised
        y = b.layer_norm(y, 1e-12f, "LayerNorm");
    b.push("layers");
    for (std::int64_t i = 0; i < e.layers; ++i) {
        const std::string name = "layer_" + std::to_string(i);
        y = e.style == "vit" ? vit_encoder_layer(b, y, e.heads, e.mlp, name)
                             : bert_encoder_layer(b, y, e.heads, e.mlp, e.divide, name);
    }
    b.pop();
    if (e.style == "vit")
        y = b.layer_norm(y, 1e-6f, "ln");
    b.pop();
    y = e.class_token ? b.gather(y, 1, 0) : b.reduce_mean(y, {1}, false);
    b.push("heads");
    y = b.gemm(y, 1000, "head");
    b.pop();
    return y;
}

Tensor zoo_head(NetBuilder& b, const Tensor& x, const ZooPlan& plan) {
    if (plan.head == "classifier")
        return classifier(b, x);
    if (plan.head == "squeezenet") { // a 1x1 conv to the classes, Relu, pooled
        b.push("classifier");
        const auto y = b.activation(b.conv(x, 1000, 1, 1, 1, true, 0, "conv"), "Relu", "relu");
        b.pop();
        return b.flatten(b.global_avg_pool(y, "avgpool"));
    }
    // MobileNetV3: 1x1 + HardSwish, pooled, Linear + HardSwish, Linear; EfficientNet: 1x1 +
    // SiLU, pooled, Linear.
    const bool v3 = plan.head == "mobilenet_v3";
    auto y = conv_bn_act(b, x, plan.head_channels, 1, 1, 1, v3 ? "HardSwish" : "Silu", "last");
    y = b.flatten(b.global_avg_pool(y, "avgpool"));
    b.push("classifier");
    if (v3)
        y = b.activation(b.gemm(y, 1280, "0"), "HardSwish", "1");
    y = b.gemm(y, 1000, v3 ? "3" : "1");
    b.pop();
    return y;
}

void zoo_network(NetBuilder& b, const ZooPlan& plan) {
    Tensor x = b.input();
    if (!plan.stem.empty())
        x = zoo_stem(b, plan);
    for (std::size_t s = 0; s < plan.stages.size(); ++s) {
        b.push("stage" + std::to_string(s + 1));
        x = zoo_stage(b, x, plan.stages[s]);
        b.pop();
    }
    b.output(plan.encoder ? zoo_encoder(b, x, *plan.encoder) : zoo_head(b, x, plan));
}

std::string zoo_description(const ZooPlan& plan) {
    std::string text;
    const auto add = [&](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
    if (!plan.stem.empty())
        add("stem " + plan.stem + " " + std::to_string(plan.stem_channels) +
            (plan.stem_act.empty() ? "" : " " + plan.stem_act));
    for (const auto& s : plan.stages) {
        std::string part = s.kind + " x" + std::to_string(s.blocks) + " c" +
                           std::to_string(s.channels) + " s" + std::to_string(s.stride);
        if (s.kind == "resnext" || s.kind == "regnet")
            part += " w" + std::to_string(s.width) + " g" + std::to_string(s.groups) +
                    (s.se ? " se" : "");
        else if (s.kind == "mbconv" || s.kind == "mnasnet" || s.kind == "mobilenet_v3")
            part += " k" + std::to_string(s.kernel) + " e" + std::to_string(s.expansion) +
                    (s.kind == "mobilenet_v3" ? " " + s.act + (s.se ? " se" : "") : "");
        else if (s.kind == "dense")
            part += " growth" + std::to_string(s.width);
        else if (s.kind == "shufflenet")
            part += s.split ? " Split" : " Slice";
        else if (s.kind == "maxvit")
            part += " window" + std::to_string(s.window);
        add(part);
    }
    if (plan.encoder) {
        const auto& e = *plan.encoder;
        add(e.style + " encoder patch " + std::to_string(e.patch) + " dim " +
            std::to_string(e.dim) + " heads " + std::to_string(e.heads) + " layers " +
            std::to_string(e.layers) + " mlp " + std::to_string(e.mlp) +
            (e.class_token ? " class token" : " mean") +
            (e.style == "bert" ? (e.divide ? " div" : " mul") : ""));
    } else {
        add("head " + plan.head +
            (plan.head_channels ? " " + std::to_string(plan.head_channels) : ""));
    }
    add("input " + std::to_string(plan.resolution));
    return text;
}

// Draws one network; its feature maps stay at least 4 x 4.
ZooPlan draw_zoo_plan(std::mt19937_64& random) {
    const auto pick = [&](int n) {
        return static_cast<int>(random() % static_cast<std::uint64_t>(n));
    };
    const auto one_of = [&](const auto& values) {
        return values[static_cast<std::size_t>(pick(static_cast<int>(values.size())))];
    };
    ZooPlan plan;
    plan.resolution = one_of(std::vector<std::int64_t>{96, 112, 128, 160, 192, 224, 256});
    // 6 in 10 convolutional, 3 in 10 convolutional stages then an encoder, 1 in 10 a plain ViT.
    const int shape = pick(10);
    std::int64_t size = plan.resolution;
    if (shape < 9) {
        plan.stem =
            one_of(std::vector<std::string>{"conv", "conv", "resnet", "squeezenet", "shufflenet"});
        if (plan.stem == "conv")
            plan.stem_act = one_of(std::vector<std::string>{"Relu", "HardSwish", "Silu"});
        plan.stem_channels = plan.stem == "squeezenet"
                                 ? one_of(std::vector<std::int64_t>{64, 96})
                                 : one_of(std::vector<std::int64_t>{16, 24, 32, 48, 64});
        size = plan.stem == "conv" ? size / 2 : size / 4;
        const int stages = shape < 6 ? 3 + pick(3) : 1 + pick(3);
        std::int64_t channels = plan.stem_channels;
        for (int s = 0; s < stages; ++s) {
            ZooStage st;
            const bool downsample = (s > 0 || plan.stem == "conv") && size / 2 >= 4;
            st.stride = downsample ? 2 : 1;
            if (downsample)
                size /= 2;
            // MaxViT's windows of p x p and its p x p grid: p divides the map, which is larger.
            std::vector<std::int64_t> windows;
            for (const std::int64_t p : {4, 7, 8})
                if (size % p == 0 && size / p >= 2)
                    windows.push_back(p);
            // Each network mixes kinds: a stage does not repeat the one before it.
            std::vector<std::string> kinds;
            for (const auto& kind : kZooStageKinds)
                if ((plan.stages.empty() || kind != plan.stages.back().kind) &&
                    (kind != "maxvit" || !windows.empty()))
                    kinds.push_back(kind);
            st.kind = one_of(kinds);
            const std::int64_t previous = channels;
            channels = divisible(static_cast<double>(channels) *
                                 (downsample ? one_of(std::vector<double>{1.5, 2.0}) : 1.25));
            st.channels = channels;
            st.blocks = 1 + pick(3);
            st.kernel = one_of(std::vector<std::int64_t>{3, 5});
            if (st.kind == "resnext" || st.kind == "regnet") {
                st.se = st.kind == "regnet" && pick(2);
                if (st.kind == "resnext") { // cardinality 32, 4 or 8 channels a group
                    st.groups = 32;
                    st.width = 32 * one_of(std::vector<std::int64_t>{4, 8});
                    st.channels = channels = std::max(channels, st.width);
                } else { // RegNet: bottleneck ratio 1, group width 8 to 64
                    const auto group_width =
                        one_of(std::vector<std::int64_t>{8, 16, 24, 32, 48, 64});
                    st.channels = channels = std::max<std::int64_t>(
                        group_width, (channels + group_width - 1) / group_width * group_width);
                    st.width = channels;
                    st.groups = channels / group_width;
                }
            } else if (st.kind == "mbconv") {
                st.expansion = s == 0 ? one_of(std::vector<std::int64_t>{1, 4, 6})
                                      : one_of(std::vector<std::int64_t>{4, 6});
            } else if (st.kind == "mobilenet_v3") {
                st.expansion = one_of(std::vector<std::int64_t>{1, 3, 4, 6});
                st.act = one_of(std::vector<std::string>{"Relu", "HardSwish"});
                st.se = pick(2);
            } else if (st.kind == "mnasnet") {
                st.expansion = one_of(std::vector<std::int64_t>{3, 6});
            } else if (st.kind == "dense") { // the transition halves, each layer adds its growth
                st.width = one_of(std::vector<std::int64_t>{12, 16, 24, 32});
                st.blocks = 2 + pick(5);
                st.channels = channels =
                    (downsample ? divisible(static_cast<double>(previous) / 2) : previous) +
                    st.blocks * st.width;
            } else if (st.kind == "shufflenet") {
                st.split = pick(2);
            } else if (st.kind == "fire") {
                st.channels = channels = std::max<std::int64_t>(64, channels);
            } else if (st.kind == "maxvit") { // heads of 32
                st.channels = channels = std::max<std::int64_t>(32, channels / 32 * 32);
                st.blocks = 1 + pick(2);
                st.window = one_of(windows);
            }
            plan.stages.push_back(st);
        }
    }
    if (shape < 6) {
        plan.head = one_of(std::vector<std::string>{"classifier", "classifier", "mobilenet_v3",
                                                    "efficientnet", "squeezenet"});
        if (plan.head == "mobilenet_v3" || plan.head == "efficientnet")
            plan.head_channels = divisible(static_cast<double>(plan.stages.back().channels) *
                                           one_of(std::vector<double>{4.0, 6.0}));
        return plan;
    }
    ZooEncoder e;
    e.style = one_of(std::vector<std::string>{"vit", "vit", "bert"});
    // Patches of 4, 8 or 16 where they give 16 to 256 tokens; on a small map, 1 or 2.
    std::vector<std::int64_t> patches;
    for (const std::int64_t k : {4, 8, 16})
        if (size / k >= 4 && (size / k) * (size / k) <= 256)
            patches.push_back(k);
    if (patches.empty())
        for (const std::int64_t k : {1, 2})
            if (size / k >= 4 && (size / k) * (size / k) <= 256)
                patches.push_back(k);
    e.patch = one_of(patches);
    e.dim = one_of(std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768});
    // Heads of 32 or 64 (one head on the smallest dims), at most 12 of them.
    std::vector<std::int64_t> head_dims;
    for (const std::int64_t d : {32, 64})
        if (e.dim % d == 0 && e.dim / d <= 12)
            head_dims.push_back(d);
    e.heads = head_dims.empty() ? 1 : e.dim / one_of(head_dims);
    // Wide encoders are shallow (a layer of 768 holds 7 M weights), so that they fit the limits.
    e.layers = 1 + pick(e.dim >= 512 ? 2 : 6);
    e.mlp = e.dim * one_of(std::vector<std::int64_t>{2, 4, 4});
    e.class_token = pick(2);
    e.divide = pick(2);
    plan.encoder = e;
    return plan;
}

// Networks that run in about 2 to 80 ms at one thread on a desktop core, with at most 48 MB of
// weights.
constexpr std::int64_t kZooMaxMacs = 2'000'000'000;
constexpr std::int64_t kZooMinMacs = 20'000'000;
constexpr std::int64_t kZooMaxParameters = 12'000'000;

// `count` networks of a space whose plans `draw` gives: each drawn again until the network fits
// the zoo's limits, sized without weights, so cheaply. `input(plan)`, `build(builder, plan)` and
// `describe(plan)` make the spec; ids are "<prefix(plan)>_0000" on, numbered across the space.
template <typename Draw, typename Prefix, typename Input, typename Build, typename Describe>
std::vector<ModelSpec> sized_models(const std::string& space, int count, std::uint64_t seed,
                                    Draw draw, Prefix prefix, Input input, Build build,
                                    Describe describe) {
    std::vector<ModelSpec> models;
    std::mt19937_64 random(seed);
    for (int i = 0; i < count; ++i) {
        char number[16];
        std::snprintf(number, sizeof number, "_%04d", i);
        std::string id;
        decltype(draw(random)) plan;
        for (int attempt = 0;; ++attempt) {
            if (attempt == 10000)
                throw std::logic_error("no " + space + " network fits the size limits");
            plan = draw(random);
            id = prefix(plan) + number;
            NetBuilder sizing(id, input(plan), 0, false);
            build(sizing, plan);
            if (sizing.macs() >= kZooMinMacs && sizing.macs() <= kZooMaxMacs &&
                sizing.parameters() <= kZooMaxParameters)
                break;
        }
        models.push_back(spec(id, space, describe(plan), input(plan),
                              [plan, build](NetBuilder& b) { build(b, plan); }));
    }
    return models;
}

std::vector<ModelSpec> zoo_models(int count, std::uint64_t seed) {
    return sized_models(
        "zoo", count, seed, draw_zoo_plan, [](const ZooPlan&) { return std::string("zoo"); },
        [](const ZooPlan& plan) {
            return std::vector<std::int64_t>{1, 3, plan.resolution, plan.resolution};
        },
        zoo_network, zoo_description);
}

// ---- The "transformer" space: one transformer family's blocks at random widths, heads and
// sequence lengths, as PyTorch's exporter writes torchvision's and transformers' models.

// LayerNorm over the channels of a [1, C, H, W] map, as torchvision's LayerNorm2d: to NHWC and
// back around it.
Tensor layer_norm_2d(NetBuilder& b, const Tensor& x, const std::string& name) {
    b.push(name);
    auto y = b.layer_norm(b.transpose(x, {0, 2, 3, 1}), 1e-6f, "");
    y = b.transpose(y, {0, 3, 1, 2});
    b.pop();
    return y;
}

// torchvision's ConvNeXt block: depthwise 7 x 7, to NHWC, LayerNorm, Linear to 4 C, GELU, Linear
// back, to NCHW, the layer scale (Mul by a [C, 1, 1] constant), residual.
Tensor convnext_block(NetBuilder& b, const Tensor& x, const std::string& name) {
    const auto c = x.channels();
    b.push(name);
    b.push("block");
    auto y = b.conv(x, c, 7, 1, c, true, 0, "0");
    y = b.layer_norm(b.transpose(y, {0, 2, 3, 1}, "1"), 1e-6f, "2");
    y = transformer_mlp(b, y, 4 * c, {"3", "4", "5"});
    y = b.transpose(y, {0, 3, 1, 2}, "6");
    b.pop();
    y = b.mul(b.parameter("layer_scale", {c, 1, 1}, 0.1), y, "");
    y = b.add(y, x, "");
    b.pop();
    return y;
}

// torch.roll of a [1, H, W, C] map by `shift` along H and W: a Slice pair and a Concat per axis.
Tensor roll_2d(NetBuilder& b, Tensor x, std::int64_t shift) {
    for (const std::int64_t axis : {1, 2}) {
        const auto n = x.shape[static_cast<std::size_t>(axis)];
        const auto s = ((shift % n) + n) % n;
        x = b.concat({b.slice(x, axis, n - s, n), b.slice(x, axis, 0, n - s)}, "", axis);
    }
    return x;
}

// torchvision's Swin block on a [1, H, W, C] map: LayerNorm; shifted windows (a roll by half a
// window on odd blocks, with the attention mask); windows of p x p by Reshape and Transpose; one
// QKV Linear cut into heads by Reshape, Transpose and Gather; Q scaled; scores plus the relative
// position bias; Softmax; the product with V merged back and projected; the windows undone;
// residual; LayerNorm, MLP (x4, GELU), residual.
Tensor swin_block(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t p, bool shift,
                  const std::string& name) {
    const std::int64_t h = x.shape[1], w = x.shape[2], c = x.shape[3], head_dim = c / heads;
    const std::int64_t tokens = p * p, windows = (h / p) * (w / p);
    b.push(name);
    auto y = b.layer_norm(x, 1e-5f, "norm1");
    b.push("attn");
    if (shift)
        y = roll_2d(b, y, -p / 2);
    y = b.reshape(y, {1, h / p, p, w / p, p, c});
    y = b.reshape(b.transpose(y, {0, 1, 3, 2, 4, 5}), {windows, tokens, c});
    y = b.matmul(y, 3 * c, true, "qkv");
    y = b.transpose(b.reshape(y, {windows, tokens, 3, heads, head_dim}), {2, 0, 3, 1, 4});
    const auto q = b.scale(b.gather(y, 0, 0), 1.0f / std::sqrt(static_cast<float>(head_dim)));
    auto a = b.matmul(q, b.transpose(b.gather(y, 0, 1), {0, 1, 3, 2}));
    a = b.add(a, b.parameter("relative_position_bias", {heads, tokens, tokens}, 0.02), "");
    if (shift) {
        a = b.reshape(a, {1, windows, heads, tokens, tokens});
        a = b.add(a, b.parameter("attn_mask", {1, windows, 1, tokens, tokens}, 0.5), "");
        a = b.reshape(a, {windows, heads, tokens, tokens});
    }
    a = b.matmul(b.softmax(a, ""), b.gather(y, 0, 2));
    a = b.reshape(b.transpose(a, {0, 2, 1, 3}), {windows, tokens, c});
    a = b.matmul(a, c, true, "proj");
    a = b.reshape(a, {1, h / p, w / p, p, p, c});
    a = b.reshape(b.transpose(a, {0, 1, 3, 2, 4, 5}), {1, h, w, c});
    if (shift)
        a = roll_2d(b, a, p / 2);
    b.pop();
    const auto x1 = b.add(x, a, "");
    y = b.layer_norm(x1, 1e-5f, "norm2");
    b.push("mlp");
    y = transformer_mlp(b, y, 4 * c, {"0", "1", "3"});
    b.pop();
    y = b.add(x1, y, "");
    b.pop();
    return y;
}

struct TransformerPlan {
    std::string family;            // vit, bert, gpt, swin, convnext, maxvit
    std::int64_t resolution = 224; // image families
    std::int64_t tokens = 0;       // bert, gpt
    std::int64_t patch = 4;        // vit, swin, convnext: the stem's stride
    std::int64_t dim = 0, heads = 1, layers = 1, mlp = 0, window = 7;
    bool class_token = false, divide = false;
};

TransformerPlan draw_transformer_plan(std::mt19937_64& random) {
    const auto pick = [&](int n) {
        return static_cast<int>(random() % static_cast<std::uint64_t>(n));
    };
    const auto one_of = [&](const auto& values) {
        return values[static_cast<std::size_t>(pick(static_cast<int>(values.size())))];
    };
    TransformerPlan t;
    t.family = one_of(std::vector<std::string>{"vit", "bert", "gpt", "swin", "convnext", "maxvit"});
    t.dim = one_of(std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768});
    std::vector<std::int64_t> head_dims;
    for (const std::int64_t d : {32, 64})
        if (t.dim % d == 0 && t.dim / d <= 16)
            head_dims.push_back(d);
    t.heads = t.dim / one_of(head_dims);
    t.layers = 1 + pick(t.dim >= 512 ? 2 : 4);
    t.mlp = t.dim * one_of(std::vector<std::int64_t>{2, 4, 4});
    t.class_token = pick(2);
    t.divide = pick(2);
    if (t.family == "bert" || t.family == "gpt") {
        t.tokens = one_of(std::vector<std::int64_t>{16, 32, 64, 128, 196, 256, 384});
    } else if (t.family == "vit") {
        t.resolution = one_of(std::vector<std::int64_t>{96, 128, 160, 224});
        t.patch = one_of(std::vector<std::int64_t>{8, 16, 32});
        if ((t.resolution / t.patch) < 2)
            t.patch = 8;
    } else {
        // Swin and ConvNeXt: a stride-4 stem; windows of p divide the map (MaxViT: a p x p grid
        // too, on a map at least 2p).
        t.window = one_of(std::vector<std::int64_t>{4, 7, 8});
        const std::int64_t grid = t.family == "swin" ? one_of(std::vector<std::int64_t>{1, 2, 4, 8})
                                                     : one_of(std::vector<std::int64_t>{2, 4, 8});
        t.resolution = 4 * t.window * grid;
        if (t.family == "convnext")
            t.dim = std::min<std::int64_t>(t.dim, 384);
    }
    return t;
}

void transformer_network(NetBuilder& b, const TransformerPlan& t) {
    if (t.family == "vit") {
        ZooEncoder e;
        e.style = "vit";
        e.patch = t.patch;
        e.dim = t.dim;
        e.heads = t.heads;
        e.layers = t.layers;
        e.mlp = t.mlp;
        e.class_token = t.class_token;
        b.output(zoo_encoder(b, b.input(), e));
        return;
    }
    if (t.family == "bert") { // the embeddings' LayerNorm, the layers, the pooler (Gemm, Tanh)
        auto y = b.layer_norm(b.input(), 1e-12f, "embeddings.LayerNorm");
        b.push("encoder");
        for (std::int64_t i = 0; i < t.layers; ++i)
            y = bert_encoder_layer(b, y, t.heads, t.mlp, t.divide, "layer." + std::to_string(i));
        b.pop();
        b.push("pooler");
        y = b.activation(b.gemm(b.gather(y, 1, 0), t.dim, "dense"), "Tanh", "activation");
        b.pop();
        b.output(y);
        return;
    }
    if (t.family == "gpt") { // decoder layers under a causal mask, the final LayerNorm
        b.push("transformer");
        const auto mask = b.parameter("attn_mask", {1, 1, t.tokens, t.tokens}, 1.0);
        auto y = b.input();
        for (std::int64_t i = 0; i < t.layers; ++i)
            y = decoder_layer(b, y, t.heads, mask, "h." + std::to_string(i));
        y = b.layer_norm_decomposed(y, 1e-5f, "ln_f");
        b.pop();
        b.output(y);
        return;
    }
    if (t.family == "maxvit") { // a conv stem, then MaxViT layers
        auto y = conv_bn_act(b, b.input(), t.dim / 2, 3, 2, 1, "Gelu", "stem");
        b.push("blocks");
        y = maxvit_layer(b, y, t.dim / 32 * 32, 2, t.window, "0");
        for (std::int64_t i = 1; i < std::min<std::int64_t>(t.layers, 2); ++i)
            y = maxvit_layer(b, y, t.dim / 32 * 32, 1, t.window, std::to_string(i));
        b.pop();
        b.output(classifier(b, y));
        return;
    }
    // Swin and ConvNeXt: a patch embedding of 4 x 4, stride 4, normalised over the channels.
    b.push("features");
    auto y = b.conv(b.input(), t.dim, t.patch, t.patch, 1, true, 0, "0.0", 0);
    if (t.family == "convnext") {
        y = layer_norm_2d(b, y, "0.1");
        for (std::int64_t i = 0; i < t.layers; ++i)
            y = convnext_block(b, y, "1." + std::to_string(i));
        b.pop();
        y = layer_norm_2d(b, b.global_avg_pool(y, "avgpool"), "classifier.0");
        b.output(b.gemm(b.flatten(y), 1000, "classifier.2"));
        return;
    }
    y = b.layer_norm(b.transpose(y, {0, 2, 3, 1}, "0.1"), 1e-5f, "0.2");
    for (std::int64_t i = 0; i < t.layers; ++i)
        y = swin_block(b, y, t.heads, t.window, i % 2 == 1, "1." + std::to_string(i));
    b.pop();
    y = b.transpose(b.layer_norm(y, 1e-5f, "norm"), {0, 3, 1, 2}, "permute");
    b.output(classifier(b, y));
}

std::vector<std::int64_t> transformer_input(const TransformerPlan& t) {
    if (t.family == "bert" || t.family == "gpt")
        return {1, t.tokens, t.dim};
    return {1, 3, t.resolution, t.resolution};
}

std::string transformer_description(const TransformerPlan& t) {
    std::string text = t.family + " dim " + std::to_string(t.dim) + " heads " +
                       std::to_string(t.heads) + " layers " + std::to_string(t.layers);
    if (t.family == "bert" || t.family == "gpt")
        return text + " tokens " + std::to_string(t.tokens) + " mlp " + std::to_string(t.mlp);
    if (t.family == "vit")
        text += " patch " + std::to_string(t.patch) + " mlp " + std::to_string(t.mlp);
    else
        text += " window " + std::to_string(t.window);
    return text + " input " + std::to_string(t.resolution);
}

std::vector<ModelSpec> transformer_models(int count, std::uint64_t seed) {
    // Named by family ("swin_0003"), so that a family can be held out of training and scored.
    return sized_models(
        "transformer", count, seed, draw_transformer_plan,
        [](const TransformerPlan& t) { return t.family; }, transformer_input, transformer_network,
        transformer_description);
}

} // namespace

ModelSpec decoder_stack(int layers, std::int64_t dim, std::int64_t heads, std::int64_t tokens,
                        std::int64_t vocab) {
    if (layers < 1 || dim < 1 || heads < 1 || dim % heads != 0 || tokens < 1 || vocab < 1)
        throw std::invalid_argument("decoder stack: layers, dims, tokens and vocabulary must be "
                                    "positive and the heads must divide the width");
    const auto name = "decoder_l" + std::to_string(layers) + "_d" + std::to_string(dim);
    const auto description = std::to_string(layers) + " GPT-2 decoder layers, width " +
                             std::to_string(dim) + ", " + std::to_string(heads) + " heads, " +
                             std::to_string(tokens) + " tokens, vocabulary " +
                             std::to_string(vocab);
    return spec(name, "decoder", description, {1, tokens, dim},
                [layers, heads, tokens, vocab](NetBuilder& b) {
                    b.push("transformer");
                    const auto mask = b.parameter("attn_mask", {1, 1, tokens, tokens}, 1.0);
                    auto y = b.input();
                    for (int i = 0; i < layers; ++i)
                        y = decoder_layer(b, y, heads, mask, "h." + std::to_string(i));
                    y = b.layer_norm_decomposed(y, 1e-5f, "ln_f");
                    b.pop();
                    b.output(b.matmul(y, vocab, false, "lm_head"));
                });
}

std::vector<ModelSpec> benchmark_suite() {
    std::vector<ModelSpec> suite;
    // Architectural affinity: the same input and output at each kind of convolution.
    for (const auto& [name, kernel, groups] :
         std::vector<std::tuple<std::string, int, int>>{{"conv1x1", 1, 1},
                                                        {"conv3x3", 3, 1},
                                                        {"conv5x5", 5, 1},
                                                        {"conv7x7", 7, 1},
                                                        {"depthwise3x3", 3, 64},
                                                        {"grouped3x3_g4", 3, 4}})
        suite.push_back(single_conv("affinity_" + name, "affinity",
                                    name + " convolution, 64 -> 64 channels at 56 x 56", 64, 56, 64,
                                    kernel, groups));
    // General scale: conv channels, and matrix products of transformer sizes.
    for (const std::int64_t c : {16, 32, 64, 128, 256})
        suite.push_back(
            single_conv("scale_conv3x3_c" + std::to_string(c), "scale",
                        "3x3 convolution, " + std::to_string(c) + " channels in and out at 56 x 56",
                        c, 56, c, 3, 1));
    for (const auto& [rows, k, n] : std::vector<std::tuple<int, int, int>>{
             {128, 256, 256}, {128, 768, 768}, {128, 768, 3072}, {512, 1024, 1024}})
        suite.push_back(
            spec("scale_matmul_" + std::to_string(rows) + "x" + std::to_string(k) + "x" +
                     std::to_string(n),
                 "scale",
                 "MatMul [1, " + std::to_string(rows) + ", " + std::to_string(k) + "] x [" +
                     std::to_string(k) + ", " + std::to_string(n) + "] + bias",
                 {1, rows, k}, [n](NetBuilder& b) { b.output(b.matmul(b.input(), n)); }));
    // Special activations after the same conv.
    for (const std::string act :
         {"Relu", "Relu6", "Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "Elu", "Silu", "Gelu"})
        suite.push_back(single_conv("activation_" + act, "activation",
                                    "3x3 convolution 64 -> 64 at 56 x 56, then " + act, 64, 56, 64,
                                    3, 1, act));
    suite.push_back(spec("activation_softmax", "activation",
                         "Linear 768 -> 1000 on 128 rows, then Softmax", {1, 128, 768},
                         [](NetBuilder& b) { b.output(b.softmax(b.matmul(b.input(), 1000))); }));
    // Sparsity: the same conv with weights zeroed.
    for (const int percent : {0, 50, 90})
        suite.push_back(single_conv("sparsity_conv3x3_" + std::to_string(percent), "sparsity",
                                    "3x3 convolution 128 -> 128 at 28 x 28, " +
                                        std::to_string(percent) + "% of weights zero",
                                    128, 28, 128, 3, 1, "", percent / 100.0));
    // Memory scale and distribution: equal MACs (9 c^2 s^2 with c s = 3584), activations traded
    // for weights.
    for (const auto& [c, s] : std::vector<std::pair<int, int>>{
             {16, 224}, {32, 112}, {64, 56}, {128, 28}, {256, 14}, {512, 7}})
        suite.push_back(single_conv(
            "memory_c" + std::to_string(c) + "_s" + std::to_string(s), "memory",
            "3x3 convolution " + std::to_string(c) + " -> " + std::to_string(c) + " at " +
                std::to_string(s) + " x " + std::to_string(s) + " (equal MACs across the series)",
            c, s, c, 3, 1));
    // Host-device MobileNet sizes.
    for (const double width : {0.35, 0.5, 0.75, 1.0})
        for (const std::int64_t res : {96, 224}) {
            char w[16];
            std::snprintf(w, sizeof w, "%03d", static_cast<int>(width * 100));
            suite.push_back(
                spec("mobilenet_v2_w" + std::string(w) + "_r" + std::to_string(res), "mobilenet",
                     "MobileNetV2 at width " + std::to_string(width).substr(0, 4) + ", input " +
                         std::to_string(res) + " x " + std::to_string(res),
                     {1, 3, res, res}, [width](NetBuilder& b) { mobilenet_v2(b, width); }));
        }
    // Batch-size series: a small ResNet at growing batch.
    for (const std::int64_t batch : {1, 2, 4, 8, 16})
        suite.push_back(
            spec("batch_resnet_b" + std::to_string(batch), "batch",
                 "4-stage ResNet of basic blocks (16 to 128 channels) on 64 x 64, batch " +
                     std::to_string(batch),
                 {batch, 3, 64, 64}, [](NetBuilder& b) {
                     auto x = conv_bn_act(b, b.input(), 16, 3, 1, 1, "Relu", "stem");
                     std::int64_t c = 16;
                     for (int s = 0; s < 4; ++s, c *= 2)
                         x = basic_block(b, x, c, s == 0 ? 1 : 2, "layer" + std::to_string(s + 1));
                     b.output(classifier(b, x, 10));
                 }));
    // Fusible intra-core blocks.
    const auto fusion_block = [&](const std::string& name, const std::string& description,
                                  std::function<Tensor(NetBuilder&, const Tensor&)> block) {
        suite.push_back(spec("fusion_" + name, "fusion", description, {1, 64, 56, 56},
                             [block](NetBuilder& b) { b.output(block(b, b.input())); }));
    };
    fusion_block("conv_bn", "Conv + BatchNormalization", [](NetBuilder& b, const Tensor& x) {
        return b.batch_norm(b.conv(x, 64, 3, 1, 1, false));
    });
    fusion_block("conv_bn_relu", "Conv + BatchNormalization + Relu",
                 [](NetBuilder& b, const Tensor& x) {
                     return conv_bn_act(b, x, 64, 3, 1, 1, "Relu", "block");
                 });
    fusion_block("conv_bn_add_relu", "Conv + BatchNormalization + residual Add + Relu",
                 [](NetBuilder& b, const Tensor& x) {
                     const auto y = conv_bn_act(b, x, 64, 3, 1, 1, "", "block");
                     return b.activation(b.add(y, x), "Relu");
                 });
    fusion_block("conv_silu", "Conv + Sigmoid + Mul (SiLU)", [](NetBuilder& b, const Tensor& x) {
        return b.activation(b.conv(x, 64, 3), "Silu");
    });
    fusion_block("conv_relu6", "Conv + Clip (ReLU6)", [](NetBuilder& b, const Tensor& x) {
        return b.activation(b.conv(x, 64, 3), "Relu6");
    });
    suite.push_back(
        spec("fusion_linear_gelu", "fusion", "MatMul + bias Add + Gelu (Erf form)", {1, 128, 768},
             [](NetBuilder& b) { b.output(b.activation(b.matmul(b.input(), 3072), "Gelu")); }));
    return suite;
}

std::vector<ModelSpec> simulation_models(int count, std::uint64_t seed, const std::string& space) {
    if (std::find(kSimulationSpaces.begin(), kSimulationSpaces.end(), space) ==
        kSimulationSpaces.end())
        throw std::invalid_argument("unknown space " + space);
    if (space == "zoo")
        return zoo_models(count, seed);
    if (space == "transformer")
        return transformer_models(count, seed);
    std::vector<ModelSpec> models;
    std::mt19937_64 random(seed);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
    for (int i = 0; i < count; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "%s_%04d", space.c_str(), i);
        const std::int64_t res = std::vector<std::int64_t>{96, 128, 160, 192, 224}[pick(5)];
        const std::uint64_t model_seed = random();
        if (space == "nas9") {
            // Per block of MobileNetV2's 17: kernel and expansion, one of 9.
            std::vector<std::pair<int, int>> choices;
            std::string code;
            for (int k = 0; k < 17; ++k) {
                const int c = pick(9);
                choices.emplace_back(3 + 2 * (c / 3), std::vector<int>{1, 3, 6}[c % 3]);
                code += static_cast<char>('0' + c);
            }
            models.push_back(spec(
                id, space,
                "MobileNetV2 stages, blocks (kernel, expansion) coded " + code + ", input " +
                    std::to_string(res),
                {1, 3, res, res}, [choices](NetBuilder& b) {
                    struct Stage {
                        std::int64_t channels, blocks, stride;
                    };
                    const std::vector<Stage> stages{{16, 1, 1}, {24, 2, 2},  {32, 3, 2}, {64, 4, 2},
                                                    {96, 3, 1}, {160, 3, 2}, {320, 1, 1}};
                    b.push("features");
                    auto x = conv_bn_act(b, b.input(), 32, 3, 2, 1, "Relu6", "0");
                    std::size_t index = 0;
                    for (const auto& s : stages)
                        for (std::int64_t j = 0; j < s.blocks; ++j, ++index)
                            x = inverted_residual(b, x, s.channels, j == 0 ? s.stride : 1,
                                                  choices[index].second, choices[index].first,
                                                  std::to_string(index + 1));
                    x = conv_bn_act(b, x, 1280, 1, 1, 1, "Relu6", "18");
                    b.pop();
                    b.output(classifier(b, x));
                }));
            continue;
        }
        // "blocks": a stem, 3 to 5 stages of one block type each, a classifier.
        const std::vector<std::string> kinds{"basic", "bottleneck", "inverted",
                                             "fire",  "dense",      "vgg"};
        const int stages = 3 + pick(3);
        std::vector<std::tuple<std::string, int, std::int64_t, int>> plan; // kind, blocks, c, k
        std::int64_t channels = std::vector<std::int64_t>{16, 24, 32, 48}[pick(4)];
        std::string summary;
        for (int s = 0; s < stages; ++s) {
            const auto& kind =
                kinds[static_cast<std::size_t>(pick(static_cast<int>(kinds.size())))];
            const int blocks = 1 + pick(3);
            channels = divisible(static_cast<double>(channels) * (pick(2) ? 1.5 : 2.0));
            const int kernel = std::vector<int>{3, 3, 5, 7}[pick(4)];
            plan.emplace_back(kind, blocks, channels, kernel);
            summary += (summary.empty() ? "" : ", ") + kind + " x" + std::to_string(blocks) + " c" +
                       std::to_string(channels);
        }
        const std::int64_t stem = std::vector<std::int64_t>{16, 24, 32}[pick(3)];
        models.push_back(
            spec(id, space,
                 "stem " + std::to_string(stem) + "; " + summary + "; input " + std::to_string(res),
                 {1, 3, res, res}, [plan, stem, model_seed](NetBuilder& b) {
                     std::mt19937_64 inner(model_seed);
                     auto x = conv_bn_act(b, b.input(), stem, 3, 2, 1, "Relu", "stem");
                     int s = 0;
                     for (const auto& [kind, blocks, c, kernel] : plan) {
                         b.push("layer" + std::to_string(++s));
                         for (int j = 0; j < blocks; ++j) {
                             const std::int64_t stride = j == 0 && s > 1 ? 2 : 1;
                             const std::string name = std::to_string(j);
                             if (kind == "basic")
                                 x = basic_block(b, x, c, stride, name);
                             else if (kind == "bottleneck")
                                 x = bottleneck(b, x, c, stride, name);
                             else if (kind == "inverted")
                                 x = inverted_residual(b, x, c, stride,
                                                       std::vector<int>{1, 3, 6}[inner() % 3],
                                                       kernel, name);
                             else if (kind == "fire") {
                                 if (stride == 2)
                                     x = b.max_pool(x, 3, 2, 1);
                                 x = fire(b, x, c, name);
                             } else if (kind == "dense") {
                                 if (stride == 2)
                                     x = b.avg_pool(conv_bn_act(b, x, c / 2, 1, 1, 1, "Relu",
                                                                "transition" + name),
                                                    2, 2);
                                 x = dense_layer(b, x, std::max<std::int64_t>(8, c / 8), name);
                             } else {
                                 x = conv_bn_act(b, x, c, kernel, 1, 1, "Relu", name);
                                 if (stride == 2)
                                     x = b.max_pool(x, 2, 2);
                             }
                         }
                         b.pop();
                     }
                     b.output(classifier(b, x));
                 }));
    }
    return models;
}

WrittenModel write_model(const ModelSpec& spec, const std::filesystem::path& folder,
                         std::uint64_t seed) {
    // Each model's weights from the seed and its name (FNV-1a), whatever the order.
    std::uint64_t hash = 14695981039346656037ull;
    for (const char ch : spec.name)
        hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    NetBuilder builder(spec.name, spec.input_shape, seed ^ hash);
    spec.build(builder);
    const std::string file = spec.name + ".onnx";
    builder.save(folder / file);
    return {spec.name, spec.category, file, std::filesystem::file_size(folder / file)};
}

std::vector<WrittenModel>
write_models(const std::vector<ModelSpec>& specs, const std::filesystem::path& folder,
             std::uint64_t seed,
             const std::function<void(int, int, const std::string&)>& progress) {
    std::filesystem::create_directories(folder);
    std::vector<WrittenModel> written;
    auto manifest = nlohmann::ordered_json::array();
    int done = 0;
    for (const auto& s : specs) {
        written.push_back(write_model(s, folder, seed));
        const std::string& file = written.back().file;
        manifest.push_back({{"name", s.name},
                            {"category", s.category},
                            {"description", s.description},
                            {"input_shape", s.input_shape},
                            {"file", file}});
        if (progress)
            progress(++done, static_cast<int>(specs.size()), s.name);
    }
    write_file_atomically(folder / "manifest.json",
                          nlohmann::ordered_json{{"format", "cleave-generated-models"},
                                                 {"version", 1},
                                                 {"seed", seed},
                                                 {"models", manifest}}
                                  .dump(2) +
                              "\n");
    return written;
}

} // namespace cleave::modelgen
