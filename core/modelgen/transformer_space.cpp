#include "transformer_space.hpp"

#include "cnn_blocks.hpp"
#include "random_choice.hpp"
#include "sized_models.hpp"
#include "transformer_blocks.hpp"
#include "zoo_space.hpp"

#include <algorithm>
#include <random>

namespace cleave::modelgen {

namespace {

struct TransformerPlan {
    std::string family;            // vit, bert, gpt, swin, convnext, maxvit
    std::int64_t resolution = 224; // image families
    std::int64_t tokens = 0;       // bert, gpt
    std::int64_t patch = 4;        // vit, swin, convnext: the stem's stride
    std::int64_t dim = 0, heads = 1, layers = 1, mlp = 0, window = 7;
    bool class_token = false, divide = false;
};

TransformerPlan draw_transformer_plan(std::mt19937_64& random) {
    RandomChoice draw(random);
    TransformerPlan t;
    t.family =
        draw.one_of(std::vector<std::string>{"vit", "bert", "gpt", "swin", "convnext", "maxvit"});
    t.dim = draw.one_of(std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768});
    std::vector<std::int64_t> head_dims;
    for (const std::int64_t d : {32, 64})
        if (t.dim % d == 0 && t.dim / d <= 16)
            head_dims.push_back(d);
    t.heads = t.dim / draw.one_of(head_dims);
    t.layers = 1 + draw.pick(t.dim >= 512 ? 2 : 4);
    t.mlp = t.dim * draw.one_of(std::vector<std::int64_t>{2, 4, 4});
    t.class_token = draw.pick(2);
    t.divide = draw.pick(2);
    if (t.family == "bert" || t.family == "gpt") {
        t.tokens = draw.one_of(std::vector<std::int64_t>{16, 32, 64, 128, 196, 256, 384});
    } else if (t.family == "vit") {
        t.resolution = draw.one_of(std::vector<std::int64_t>{96, 128, 160, 224});
        t.patch = draw.one_of(std::vector<std::int64_t>{8, 16, 32});
        if ((t.resolution / t.patch) < 2)
            t.patch = 8;
    } else {
        // Swin and ConvNeXt: a stride-4 stem; windows of p divide the map (MaxViT: a p x p grid
        // too, on a map at least 2p).
        t.window = draw.one_of(std::vector<std::int64_t>{4, 7, 8});
        const std::int64_t grid = t.family == "swin"
                                      ? draw.one_of(std::vector<std::int64_t>{1, 2, 4, 8})
                                      : draw.one_of(std::vector<std::int64_t>{2, 4, 8});
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

} // namespace

std::vector<ModelSpec> transformer_models(int count, std::uint64_t seed) {
    return sized_models(
        "transformer", count, seed, draw_transformer_plan,
        [](const TransformerPlan& t) { return t.family; }, transformer_input, transformer_network,
        transformer_description);
}

} // namespace cleave::modelgen
