#include "zoo_space.hpp"

#include "cnn_blocks.hpp"
#include "random_choice.hpp"
#include "sized_models.hpp"
#include "transformer_blocks.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>

namespace cleave::modelgen {

namespace {

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

// What a stage of `st.kind` varies beyond its width: groups, expansions, activations, growth,
// windows. `channels` is the map's after the stage; `previous` before it.
void draw_stage_details(RandomChoice& draw, ZooStage& st, int s, bool downsample,
                        std::int64_t previous, std::int64_t& channels,
                        const std::vector<std::int64_t>& windows) {
    if (st.kind == "resnext" || st.kind == "regnet") {
        st.se = st.kind == "regnet" && draw.pick(2);
        if (st.kind == "resnext") { // cardinality 32, 4 or 8 channels a group
            st.groups = 32;
            st.width = 32 * draw.one_of(std::vector<std::int64_t>{4, 8});
            st.channels = channels = std::max(channels, st.width);
        } else { // RegNet: bottleneck ratio 1, group width 8 to 64
            const auto group_width = draw.one_of(std::vector<std::int64_t>{8, 16, 24, 32, 48, 64});
            st.channels = channels = std::max<std::int64_t>(
                group_width, (channels + group_width - 1) / group_width * group_width);
            st.width = channels;
            st.groups = channels / group_width;
        }
    } else if (st.kind == "mbconv") {
        st.expansion = s == 0 ? draw.one_of(std::vector<std::int64_t>{1, 4, 6})
                              : draw.one_of(std::vector<std::int64_t>{4, 6});
    } else if (st.kind == "mobilenet_v3") {
        st.expansion = draw.one_of(std::vector<std::int64_t>{1, 3, 4, 6});
        st.act = draw.one_of(std::vector<std::string>{"Relu", "HardSwish"});
        st.se = draw.pick(2);
    } else if (st.kind == "mnasnet") {
        st.expansion = draw.one_of(std::vector<std::int64_t>{3, 6});
    } else if (st.kind == "dense") { // the transition halves, each layer adds its growth
        st.width = draw.one_of(std::vector<std::int64_t>{12, 16, 24, 32});
        st.blocks = 2 + draw.pick(5);
        st.channels = channels =
            (downsample ? divisible(static_cast<double>(previous) / 2) : previous) +
            st.blocks * st.width;
    } else if (st.kind == "shufflenet") {
        st.split = draw.pick(2);
    } else if (st.kind == "fire") {
        st.channels = channels = std::max<std::int64_t>(64, channels);
    } else if (st.kind == "maxvit") { // heads of 32
        st.channels = channels = std::max<std::int64_t>(32, channels / 32 * 32);
        st.blocks = 1 + draw.pick(2);
        st.window = draw.one_of(windows);
    }
}

// The stage after plan.stages, on a map of `size` x `size` with `channels`; both go on to what
// the stage leaves.
ZooStage draw_stage(RandomChoice& draw, const ZooPlan& plan, int s, std::int64_t& size,
                    std::int64_t& channels) {
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
    st.kind = draw.one_of(kinds);
    const std::int64_t previous = channels;
    channels = divisible(static_cast<double>(channels) *
                         (downsample ? draw.one_of(std::vector<double>{1.5, 2.0}) : 1.25));
    st.channels = channels;
    st.blocks = 1 + draw.pick(3);
    st.kernel = draw.one_of(std::vector<std::int64_t>{3, 5});
    draw_stage_details(draw, st, s, downsample, previous, channels, windows);
    return st;
}

// The stem and the stages (3 to 5 in a convolutional network of `shape` < 6, else 1 to 3 before
// an encoder); returns the size of the map they leave.
std::int64_t draw_stem_and_stages(RandomChoice& draw, ZooPlan& plan, int shape) {
    plan.stem =
        draw.one_of(std::vector<std::string>{"conv", "conv", "resnet", "squeezenet", "shufflenet"});
    if (plan.stem == "conv")
        plan.stem_act = draw.one_of(std::vector<std::string>{"Relu", "HardSwish", "Silu"});
    plan.stem_channels = plan.stem == "squeezenet"
                             ? draw.one_of(std::vector<std::int64_t>{64, 96})
                             : draw.one_of(std::vector<std::int64_t>{16, 24, 32, 48, 64});
    std::int64_t size = plan.stem == "conv" ? plan.resolution / 2 : plan.resolution / 4;
    const int stages = shape < 6 ? 3 + draw.pick(3) : 1 + draw.pick(3);
    std::int64_t channels = plan.stem_channels;
    for (int s = 0; s < stages; ++s)
        plan.stages.push_back(draw_stage(draw, plan, s, size, channels));
    return size;
}

void draw_head(RandomChoice& draw, ZooPlan& plan) {
    plan.head = draw.one_of(std::vector<std::string>{"classifier", "classifier", "mobilenet_v3",
                                                     "efficientnet", "squeezenet"});
    if (plan.head == "mobilenet_v3" || plan.head == "efficientnet")
        plan.head_channels = divisible(static_cast<double>(plan.stages.back().channels) *
                                       draw.one_of(std::vector<double>{4.0, 6.0}));
}

// An encoder on a map of `size` x `size`.
ZooEncoder draw_encoder(RandomChoice& draw, std::int64_t size) {
    ZooEncoder e;
    e.style = draw.one_of(std::vector<std::string>{"vit", "vit", "bert"});
    // Patches of 4, 8 or 16 where they give 16 to 256 tokens; on a small map, 1 or 2.
    std::vector<std::int64_t> patches;
    for (const std::int64_t k : {4, 8, 16})
        if (size / k >= 4 && (size / k) * (size / k) <= 256)
            patches.push_back(k);
    if (patches.empty())
        for (const std::int64_t k : {1, 2})
            if (size / k >= 4 && (size / k) * (size / k) <= 256)
                patches.push_back(k);
    e.patch = draw.one_of(patches);
    e.dim = draw.one_of(std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768});
    // Heads of 32 or 64 (one head on the smallest dims), at most 12 of them.
    std::vector<std::int64_t> head_dims;
    for (const std::int64_t d : {32, 64})
        if (e.dim % d == 0 && e.dim / d <= 12)
            head_dims.push_back(d);
    e.heads = head_dims.empty() ? 1 : e.dim / draw.one_of(head_dims);
    // Wide encoders are shallow (a layer of 768 holds 7 M weights), so that they fit the limits.
    e.layers = 1 + draw.pick(e.dim >= 512 ? 2 : 6);
    e.mlp = e.dim * draw.one_of(std::vector<std::int64_t>{2, 4, 4});
    e.class_token = draw.pick(2);
    e.divide = draw.pick(2);
    return e;
}

// Draws one network; its feature maps stay at least 4 x 4.
ZooPlan draw_zoo_plan(std::mt19937_64& random) {
    RandomChoice draw(random);
    ZooPlan plan;
    plan.resolution = draw.one_of(std::vector<std::int64_t>{96, 112, 128, 160, 192, 224, 256});
    // 6 in 10 convolutional, 3 in 10 convolutional stages then an encoder, 1 in 10 a plain ViT.
    const int shape = draw.pick(10);
    const std::int64_t size = shape < 9 ? draw_stem_and_stages(draw, plan, shape) : plan.resolution;
    if (shape < 6)
        draw_head(draw, plan);
    else
        plan.encoder = draw_encoder(draw, size);
    return plan;
}

} // namespace

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

std::vector<ModelSpec> zoo_models(int count, std::uint64_t seed) {
    return sized_models(
        "zoo", count, seed, draw_zoo_plan, [](const ZooPlan&) { return std::string("zoo"); },
        [](const ZooPlan& plan) {
            return std::vector<std::int64_t>{1, 3, plan.resolution, plan.resolution};
        },
        zoo_network, zoo_description);
}

} // namespace cleave::modelgen
