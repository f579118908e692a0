// The blocks the transformer networks of the generated sets are made of, in the forms PyTorch's
// exporter writes: the MLP, GPT-2's decoder layer, ViT's and BERT's encoder layers, MaxViT's
// layer, ConvNeXt's and Swin's blocks.
#pragma once

#include "net_builder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cleave::modelgen {

// A transformer's MLP: Linear (MatMul + bias Add), GELU in the Erf form, Linear.
Tensor transformer_mlp(NetBuilder& b, const Tensor& x, std::int64_t hidden,
                       const std::vector<std::string>& names);

// GPT-2's block as PyTorch's exporter writes it below opset 17: LayerNorm decomposed, one QKV
// Linear cut by Split, heads by Reshape and Transpose (K straight to [N, heads, head dim,
// tokens]), the scores Div by sqrt(head dim) plus the causal mask, Softmax, the product with V
// merged back by Transpose and Reshape, the output Linear, residual; then LayerNorm, the MLP (x4,
// GELU in the Erf form), residual. 47 nodes.
Tensor decoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, const Tensor& mask,
                     const std::string& name);

// torchvision's ViT encoder layer as the exporter writes nn.MultiheadAttention: pre-norm,
// sequence-first transposes, one QKV projection cut by Reshape, Unsqueeze, Transpose, Squeeze and
// Gather, heads by Reshape and Transpose, Q and K^T each scaled by the root of 1/sqrt(head dim),
// MatMul, Softmax, MatMul, the output projection a Gemm on [tokens, dim].
Tensor vit_encoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t mlp,
                         const std::string& name);

// BERT's layer as the exporter writes it: separate Q, K and V Linears, heads by Reshape (with
// -1) and Transpose (K straight to [N, heads, head dim, tokens]), the scale as Mul of Q and K^T by
// the root of 1/sqrt(head dim) or as Div of the scores, post-norm (Add then LayerNormalization).
Tensor bert_encoder_layer(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t mlp,
                          bool divide, const std::string& name);

// One MaxViT layer: MBConv, then attention within p x p windows and across a p x p grid.
Tensor maxvit_layer(NetBuilder& b, const Tensor& x, std::int64_t out, std::int64_t stride,
                    std::int64_t p, const std::string& name);

// LayerNorm over the channels of a [1, C, H, W] map, as torchvision's LayerNorm2d: to NHWC and
// back around it.
Tensor layer_norm_2d(NetBuilder& b, const Tensor& x, const std::string& name);

// torchvision's ConvNeXt block: depthwise 7 x 7, to NHWC, LayerNorm, Linear to 4 C, GELU, Linear
// back, to NCHW, the layer scale (Mul by a [C, 1, 1] constant), residual.
Tensor convnext_block(NetBuilder& b, const Tensor& x, const std::string& name);

// torchvision's Swin block on a [1, H, W, C] map: LayerNorm; shifted windows (a roll by half a
// window on odd blocks, with the attention mask); windows of p x p by Reshape and Transpose; one
// QKV Linear cut into heads by Reshape, Transpose and Gather; Q scaled; scores plus the relative
// position bias; Softmax; the product with V merged back and projected; the windows undone;
// residual; LayerNorm, MLP (x4, GELU), residual.
Tensor swin_block(NetBuilder& b, const Tensor& x, std::int64_t heads, std::int64_t p, bool shift,
                  const std::string& name);

} // namespace cleave::modelgen
