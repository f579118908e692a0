// The blocks the convolutional networks of the generated sets are made of, as torchvision's
// exports write them: conv + BN + activation, ResNet's, MobileNet's, SqueezeNet's, DenseNet's,
// ResNeXt's, EfficientNet's and ShuffleNet's blocks, and a classifier head.
#pragma once

#include "net_builder.hpp"

#include <cstdint>
#include <string>

namespace cleave::modelgen {

// Channels rounded to a multiple of `by` (torchvision's _make_divisible): never below `by`, nor
// more than 10% below `channels`.
std::int64_t divisible(double channels, std::int64_t by = 8);

// Conv (no bias), BatchNormalization and `act` (none when empty), under the scope `name`.
Tensor conv_bn_act(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t kernel,
                   std::int64_t stride, std::int64_t groups, const std::string& act,
                   const std::string& name);

// Global average pool, Flatten and a Gemm to `classes`.
Tensor classifier(NetBuilder& b, const Tensor& x, std::int64_t classes = 1000);

// MobileNetV2's inverted residual: 1x1 expand (unless expansion 1), k x k depthwise, 1x1
// project, residual when shapes allow. MnasNet's is the same with Relu.
Tensor inverted_residual(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                         std::int64_t expansion, std::int64_t kernel, const std::string& name,
                         const std::string& act = "Relu6");

// ResNet's basic block: two 3x3 convs, residual with a 1x1 projection where the shape changes.
Tensor basic_block(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                   const std::string& name);

// ResNet's bottleneck: 1x1, 3x3 (the stride), 1x1 to `out`, residual as the basic block's.
Tensor bottleneck(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                  const std::string& name);

// SqueezeNet's fire module: squeeze 1x1, then 1x1 and 3x3 expands concatenated.
Tensor fire(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name);

// DenseNet's layer: BN-ReLU-1x1 (4 x growth) -BN-ReLU-3x3 (growth), concatenated to its input.
Tensor dense_layer(NetBuilder& b, const Tensor& x, std::int64_t growth, const std::string& name);

// Squeeze-and-excitation as torchvision writes it: GlobalAveragePool, 1x1 Conv, activation, 1x1
// Conv, a gate, and the gate [N, C, 1, 1] Mul the feature map.
Tensor squeeze_excitation(NetBuilder& b, const Tensor& x, std::int64_t squeeze,
                          const std::string& act, const std::string& gate,
                          const std::string& name = "se");

// ResNeXt's and RegNet's bottleneck: 1x1, 3x3 grouped (carrying the stride, as torchvision's
// do), RegNetY's squeeze-excitation to a quarter of the block's input, 1x1, residual with a 1x1
// projection where the shape changes.
Tensor grouped_bottleneck(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t width,
                          std::int64_t groups, std::int64_t stride, bool se,
                          const std::string& name);

// EfficientNet's MBConv and MobileNetV3's block: 1x1 expand (unless the width stays), k x k
// depthwise, squeeze-excitation (EfficientNet: SiLU and Sigmoid to a quarter of the input;
// MobileNetV3: Relu and HardSigmoid to a quarter of the expansion), 1x1 project, residual.
Tensor mobile_block(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t hidden,
                    std::int64_t kernel, std::int64_t stride, const std::string& act,
                    std::int64_t se_squeeze, const std::string& se_act, const std::string& se_gate,
                    const std::string& name);

// ShuffleNetV2's unit. Where the shape stays: half the channels pass, the other half go through
// 1x1, depthwise 3x3, 1x1, then Concat and shuffle; the halves are cut by two Slices (as
// torchvision's chunk exports) or one Split. Otherwise two branches see the whole input.
Tensor shuffle_unit(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                    bool split_op, const std::string& name);

// DenseNet's transition: BN, Relu, 1x1 conv, 2 x 2 average pool.
Tensor dense_transition(NetBuilder& b, const Tensor& x, std::int64_t out, const std::string& name);

} // namespace cleave::modelgen
