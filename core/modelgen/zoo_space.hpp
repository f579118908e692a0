// The "zoo" simulation space: random networks mixing the blocks of the zoo's modern
// architectures (ResNeXt, RegNet, EfficientNet, MobileNetV3, MnasNet, ShuffleNetV2, DenseNet,
// SqueezeNet, MaxViT) and ViT / BERT encoders, sized to run in milliseconds.
#pragma once

#include "model_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cleave::modelgen {

// A transformer encoder on a feature map: ViT's or BERT's layers over patches of it.
struct ZooEncoder {
    std::string style; // "vit" or "bert"
    std::int64_t patch = 16, dim = 0, heads = 1, layers = 1, mlp = 0;
    bool class_token = false; // pooled by Gather of token 0, else ReduceMean over tokens
    bool divide = false;      // bert: Div of the scores rather than Mul of Q and K^T
};

// A patch embedding (Conv k x k, stride k), tokens [1, T, dim] by Reshape and Transpose, an
// optional class token (Concat), the position embedding (Add), the layers with ViT's final norm
// or BERT's norm of the embeddings, token 0 (Gather) or the mean of the tokens (ReduceMean), and
// a Gemm head.
Tensor zoo_encoder(NetBuilder& b, const Tensor& x, const ZooEncoder& e);

// `count` networks named zoo_0000 on; the same seed gives the same networks.
std::vector<ModelSpec> zoo_models(int count, std::uint64_t seed);

} // namespace cleave::modelgen
