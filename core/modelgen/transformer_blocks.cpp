#include "transformer_blocks.hpp"

#include "cnn_blocks.hpp"

#include <algorithm>
#include <cmath>

namespace cleave::modelgen {

namespace {

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

// torch.roll of a [1, H, W, C] map by `shift` along H and W: a Slice pair and a Concat per axis.
Tensor roll_2d(NetBuilder& b, Tensor x, std::int64_t shift) {
    for (const std::int64_t axis : {1, 2}) {
        const auto n = x.shape[static_cast<std::size_t>(axis)];
        const auto s = ((shift % n) + n) % n;
        x = b.concat({b.slice(x, axis, n - s, n), b.slice(x, axis, 0, n - s)}, "", axis);
    }
    return x;
}

} // namespace

Tensor transformer_mlp(NetBuilder& b, const Tensor& x, std::int64_t hidden,
                       const std::vector<std::string>& names) {
    const auto y = b.activation(b.matmul(x, hidden, true, names.at(0)), "Gelu", names.at(1));
    return b.matmul(y, x.shape.back(), true, names.at(2));
}

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

Tensor layer_norm_2d(NetBuilder& b, const Tensor& x, const std::string& name) {
    b.push(name);
    auto y = b.layer_norm(b.transpose(x, {0, 2, 3, 1}), 1e-6f, "");
    y = b.transpose(y, {0, 3, 1, 2});
    b.pop();
    return y;
}

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

} // namespace cleave::modelgen
