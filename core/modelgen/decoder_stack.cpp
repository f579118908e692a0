#include "decoder_stack.hpp"

#include "transformer_blocks.hpp"

#include <stdexcept>
#include <string>

namespace cleave::modelgen {

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

} // namespace cleave::modelgen
