#include "model_specs.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
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
// project, residual when shapes allow.
Tensor inverted_residual(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                         std::int64_t expansion, std::int64_t kernel, const std::string& name) {
    b.push(name);
    const std::int64_t hidden = x.channels() * expansion;
    Tensor y = x;
    if (expansion != 1)
        y = conv_bn_act(b, y, hidden, 1, 1, 1, "Relu6", "expand");
    y = conv_bn_act(b, y, hidden, kernel, stride, hidden, "Relu6", "depthwise");
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

} // namespace

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

std::vector<WrittenModel>
write_models(const std::vector<ModelSpec>& specs, const std::filesystem::path& folder,
             std::uint64_t seed,
             const std::function<void(int, int, const std::string&)>& progress) {
    std::filesystem::create_directories(folder);
    std::vector<WrittenModel> written;
    auto manifest = nlohmann::ordered_json::array();
    int done = 0;
    for (const auto& s : specs) {
        // Each model's weights from the seed and its name (FNV-1a), whatever the order.
        std::uint64_t hash = 14695981039346656037ull;
        for (const char ch : s.name)
            hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
        NetBuilder builder(s.name, s.input_shape, seed ^ hash);
        s.build(builder);
        const std::string file = s.name + ".onnx";
        builder.save(folder / file);
        written.push_back({s.name, s.category, file, std::filesystem::file_size(folder / file)});
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
