// Simulation models (docs/model-generation.md): random networks built from blocks abstracted
// from seed architectures or drawn from a NAS space, for training and checking predictors on more
// structures than the zoo has. Each space has a file of its own; this is the choice among them.
#pragma once

#include "model_spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cleave::modelgen {

inline const std::vector<std::string> kSimulationSpaces{"blocks", "nas9", "zoo", "transformer"};
// `count` random networks; the same seed gives the same networks. `space`: "blocks" (stages of
// ResNet basic / bottleneck, MobileNet inverted residual, SqueezeNet fire, DenseNet and VGG
// blocks with random widths, depths, strides and input sizes), "nas9" (MobileNetV2's stages,
// each block one of 9 inverted residuals: kernel 3, 5 or 7 x expansion 1, 3 or 6) or "zoo"
// (networks mixing the blocks of ResNeXt, RegNet, EfficientNet, MobileNetV3, MnasNet,
// ShuffleNetV2, DenseNet, SqueezeNet and MaxViT, and ViT / BERT encoders, sized to run in
// milliseconds) or "transformer" (one family's blocks at random widths, heads, layers and
// sequence lengths: ViT, BERT, GPT-2, Swin with shifted windows, ConvNeXt, MaxViT; sized as
// "zoo").
std::vector<ModelSpec> simulation_models(int count, std::uint64_t seed, const std::string& space);

} // namespace cleave::modelgen
