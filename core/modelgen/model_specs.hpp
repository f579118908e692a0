// The generated model sets of Arch2End's device modelling (docs/model-generation.md): the
// benchmark suite whose latencies make a device's HP vector (Table II's categories), and
// simulation models, random networks built from blocks abstracted from seed architectures or
// drawn from a 9-choice NAS space, for training and checking predictors on more structures than
// the zoo has.
#pragma once

#include "net_builder.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cleave::modelgen {

struct ModelSpec {
    std::string name;     // file stem: "affinity_conv3x3"
    std::string category; // "affinity", "scale", ... ; the space for simulation models
    std::string description;
    std::vector<std::int64_t> input_shape;
    std::function<void(NetBuilder&)> build; // adds the layers and the output
};

// Categories: affinity (conv kinds at equal shape), scale (conv channels and matmul sizes),
// activation (special activations after one conv), sparsity (zeroed weights), memory (equal
// MACs, activations traded for weights), mobilenet (MobileNetV2 widths x resolutions), batch
// (one CNN at batch 1 to 16), fusion (blocks a runtime fuses into one kernel).
std::vector<ModelSpec> benchmark_suite();
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

// A GPT-2 decoder stack in the decomposed form exporters write below opset 17 (LayerNorm as
// ReduceMean, Sub, Pow, Sqrt, Div; GELU with Erf; attention by Reshape, Transpose, MatMul and
// Softmax under a causal mask): `layers` blocks of 47 nodes and 10 more, input the embeddings
// [1, tokens, dim], output the logits [1, tokens, vocab]. For models of 10k to 100k nodes.
ModelSpec decoder_stack(int layers, std::int64_t dim, std::int64_t heads, std::int64_t tokens,
                        std::int64_t vocab = 1000);

struct WrittenModel {
    std::string name;
    std::string category;
    std::string file; // inside the folder
    std::uint64_t bytes = 0;
};

// Builds and writes one model as NAME.onnx into `folder` (atomically), its weights from `seed`
// and its name, so a model does not depend on which others are written.
WrittenModel write_model(const ModelSpec& spec, const std::filesystem::path& folder,
                         std::uint64_t seed);

// Builds and writes every model (NAME.onnx, each atomically) and manifest.json ({"models":
// [{"name", "category", "description", "input_shape", "file"}]}) into `folder`, creating it.
// `progress(done, total, name)` after each model; it may throw to cancel.
std::vector<WrittenModel>
write_models(const std::vector<ModelSpec>& specs, const std::filesystem::path& folder,
             std::uint64_t seed,
             const std::function<void(int, int, const std::string&)>& progress = {});

} // namespace cleave::modelgen
