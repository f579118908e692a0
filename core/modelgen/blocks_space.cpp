#include "blocks_space.hpp"

#include "cnn_blocks.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace cleave::modelgen {

namespace {

struct BlocksStage {
    std::string kind; // basic, bottleneck, inverted, fire, dense or vgg
    int blocks = 1;
    std::int64_t channels = 0;
    int kernel = 3;
};

// A block of `kind` at the stage's `stride`; `inner` draws the inverted residuals' expansions.
Tensor stage_block(NetBuilder& b, const Tensor& x, const BlocksStage& stage, std::int64_t stride,
                   const std::string& name, std::mt19937_64& inner) {
    const auto& kind = stage.kind;
    const auto c = stage.channels;
    if (kind == "basic")
        return basic_block(b, x, c, stride, name);
    if (kind == "bottleneck")
        return bottleneck(b, x, c, stride, name);
    if (kind == "inverted")
        return inverted_residual(b, x, c, stride, std::vector<int>{1, 3, 6}[inner() % 3],
                                 stage.kernel, name);
    Tensor y = x;
    if (kind == "fire") {
        if (stride == 2)
            y = b.max_pool(y, 3, 2, 1);
        return fire(b, y, c, name);
    }
    if (kind == "dense") {
        if (stride == 2)
            y = b.avg_pool(conv_bn_act(b, y, c / 2, 1, 1, 1, "Relu", "transition" + name), 2, 2);
        return dense_layer(b, y, std::max<std::int64_t>(8, c / 8), name);
    }
    y = conv_bn_act(b, y, c, stage.kernel, 1, 1, "Relu", name);
    if (stride == 2)
        y = b.max_pool(y, 2, 2);
    return y;
}

void blocks_network(NetBuilder& b, const std::vector<BlocksStage>& plan, std::int64_t stem,
                    std::uint64_t model_seed) {
    std::mt19937_64 inner(model_seed);
    auto x = conv_bn_act(b, b.input(), stem, 3, 2, 1, "Relu", "stem");
    int s = 0;
    for (const auto& stage : plan) {
        b.push("layer" + std::to_string(++s));
        for (int j = 0; j < stage.blocks; ++j)
            x = stage_block(b, x, stage, j == 0 && s > 1 ? 2 : 1, std::to_string(j), inner);
        b.pop();
    }
    b.output(classifier(b, x));
}

} // namespace

ModelSpec blocks_model(const std::string& id, std::int64_t resolution, std::uint64_t model_seed,
                       RandomChoice& draw) {
    const std::vector<std::string> kinds{"basic", "bottleneck", "inverted", "fire", "dense", "vgg"};
    const int stages = 3 + draw.pick(3);
    std::vector<BlocksStage> plan;
    std::int64_t channels = std::vector<std::int64_t>{16, 24, 32, 48}[draw.pick(4)];
    std::string summary;
    for (int s = 0; s < stages; ++s) {
        const auto& kind =
            kinds[static_cast<std::size_t>(draw.pick(static_cast<int>(kinds.size())))];
        const int blocks = 1 + draw.pick(3);
        channels = divisible(static_cast<double>(channels) * (draw.pick(2) ? 1.5 : 2.0));
        const int kernel = std::vector<int>{3, 3, 5, 7}[draw.pick(4)];
        plan.push_back({kind, blocks, channels, kernel});
        summary += (summary.empty() ? "" : ", ") + kind + " x" + std::to_string(blocks) + " c" +
                   std::to_string(channels);
    }
    const std::int64_t stem = std::vector<std::int64_t>{16, 24, 32}[draw.pick(3)];
    return spec(
        id, "blocks",
        "stem " + std::to_string(stem) + "; " + summary + "; input " + std::to_string(resolution),
        {1, 3, resolution, resolution},
        [plan, stem, model_seed](NetBuilder& b) { blocks_network(b, plan, stem, model_seed); });
}

} // namespace cleave::modelgen
