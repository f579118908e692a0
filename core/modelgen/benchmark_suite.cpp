#include "benchmark_suite.hpp"

#include "cnn_blocks.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <tuple>
#include <utility>

namespace cleave::modelgen {

namespace {

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

// Architectural affinity: the same input and output at each kind of convolution.
void add_affinity_series(std::vector<ModelSpec>& suite) {
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
}

// General scale: conv channels, and matrix products of transformer sizes.
void add_scale_series(std::vector<ModelSpec>& suite) {
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
}

// Special activations after the same conv.
void add_activation_series(std::vector<ModelSpec>& suite) {
    for (const std::string act :
         {"Relu", "Relu6", "Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "Elu", "Silu", "Gelu"})
        suite.push_back(single_conv("activation_" + act, "activation",
                                    "3x3 convolution 64 -> 64 at 56 x 56, then " + act, 64, 56, 64,
                                    3, 1, act));
    suite.push_back(spec("activation_softmax", "activation",
                         "Linear 768 -> 1000 on 128 rows, then Softmax", {1, 128, 768},
                         [](NetBuilder& b) { b.output(b.softmax(b.matmul(b.input(), 1000))); }));
}

// Sparsity: the same conv with weights zeroed.
void add_sparsity_series(std::vector<ModelSpec>& suite) {
    for (const int percent : {0, 50, 90})
        suite.push_back(single_conv("sparsity_conv3x3_" + std::to_string(percent), "sparsity",
                                    "3x3 convolution 128 -> 128 at 28 x 28, " +
                                        std::to_string(percent) + "% of weights zero",
                                    128, 28, 128, 3, 1, "", percent / 100.0));
}

// Memory scale and distribution: equal MACs (9 c^2 s^2 with c s = 3584), activations traded
// for weights.
void add_memory_series(std::vector<ModelSpec>& suite) {
    for (const auto& [c, s] : std::vector<std::pair<int, int>>{
             {16, 224}, {32, 112}, {64, 56}, {128, 28}, {256, 14}, {512, 7}})
        suite.push_back(single_conv(
            "memory_c" + std::to_string(c) + "_s" + std::to_string(s), "memory",
            "3x3 convolution " + std::to_string(c) + " -> " + std::to_string(c) + " at " +
                std::to_string(s) + " x " + std::to_string(s) + " (equal MACs across the series)",
            c, s, c, 3, 1));
}

// Host-device MobileNet sizes.
void add_mobilenet_series(std::vector<ModelSpec>& suite) {
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
}

// Batch-size series: a small ResNet at growing batch.
void add_batch_series(std::vector<ModelSpec>& suite) {
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
}

// Fusible intra-core blocks.
void add_fusion_series(std::vector<ModelSpec>& suite) {
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
}

} // namespace

std::vector<ModelSpec> benchmark_suite() {
    std::vector<ModelSpec> suite;
    add_affinity_series(suite);
    add_scale_series(suite);
    add_activation_series(suite);
    add_sparsity_series(suite);
    add_memory_series(suite);
    add_mobilenet_series(suite);
    add_batch_series(suite);
    add_fusion_series(suite);
    return suite;
}

} // namespace cleave::modelgen
