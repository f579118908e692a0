// The "transformer" simulation space: one transformer family's blocks (ViT, BERT, GPT-2, Swin
// with shifted windows, ConvNeXt, MaxViT) at random widths, heads, layers and sequence lengths, as
// PyTorch's exporter writes torchvision's and transformers' models, sized as the "zoo" space.
#pragma once

#include "model_spec.hpp"

#include <cstdint>
#include <vector>

namespace cleave::modelgen {

// `count` networks named after their family ("swin_0003"), numbered across the space, so that
// a family can be held out of training and scored; the same seed gives the same networks.
std::vector<ModelSpec> transformer_models(int count, std::uint64_t seed);

} // namespace cleave::modelgen
