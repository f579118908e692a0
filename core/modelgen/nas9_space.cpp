#include "nas9_space.hpp"

#include "cnn_blocks.hpp"

#include <utility>
#include <vector>

namespace cleave::modelgen {

namespace {

// MobileNetV2 with block i of kernel choices[i].first and expansion choices[i].second.
void nas9_network(NetBuilder& b, const std::vector<std::pair<int, int>>& choices) {
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
            x = inverted_residual(b, x, s.channels, j == 0 ? s.stride : 1, choices[index].second,
                                  choices[index].first, std::to_string(index + 1));
    x = conv_bn_act(b, x, 1280, 1, 1, 1, "Relu6", "18");
    b.pop();
    b.output(classifier(b, x));
}

} // namespace

ModelSpec nas9_model(const std::string& id, std::int64_t resolution, RandomChoice& draw) {
    // Per block of MobileNetV2's 17: kernel and expansion, one of 9.
    std::vector<std::pair<int, int>> choices;
    std::string code;
    for (int k = 0; k < 17; ++k) {
        const int c = draw.pick(9);
        choices.emplace_back(3 + 2 * (c / 3), std::vector<int>{1, 3, 6}[c % 3]);
        code += static_cast<char>('0' + c);
    }
    return spec(id, "nas9",
                "MobileNetV2 stages, blocks (kernel, expansion) coded " + code + ", input " +
                    std::to_string(resolution),
                {1, 3, resolution, resolution},
                [choices](NetBuilder& b) { nas9_network(b, choices); });
}

} // namespace cleave::modelgen
