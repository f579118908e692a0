// cleave benchmark-suite and cleave generate-models: the generated model sets of Arch2End's
// device modelling, written as ONNX files with a manifest (docs/model-generation.md).
#include "commands.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/model_specs.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <unistd.h>

namespace cleave::cli {

namespace {

struct GenerateOptions {
    std::string out;
    std::vector<std::string> categories;
    int count = 0;
    std::string space = "blocks";
    std::uint64_t seed = 1;
    std::vector<int> decoder_layers;
    std::int64_t width = 64;
    bool json = false;
};

int write_specs(const std::vector<modelgen::ModelSpec>& specs, const GenerateOptions& options) {
    Progress progress;
    ProgressControl printed(progress);
    const auto written =
        modelgen::write_models(specs, options.out, options.seed, &printed.control());
    progress.clear();
    std::uint64_t bytes = 0;
    auto models = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < written.size(); ++i) {
        bytes += written[i].bytes;
        models.push_back({{"name", written[i].name},
                          {"category", written[i].category},
                          {"description", specs[i].description},
                          {"file", written[i].file},
                          {"bytes", written[i].bytes}});
    }
    if (options.json) {
        emit_json({{"folder", options.out}, {"seed", options.seed}, {"models", models}}, true, "");
        return 0;
    }
    std::map<std::string, int> per_category;
    for (const auto& w : written)
        ++per_category[w.category];
    std::printf("%zu models (%s) in %s, with manifest.json\n", written.size(),
                giga(static_cast<std::int64_t>(bytes), 2).append("B").c_str(), options.out.c_str());
    for (const auto& [category, n] : per_category)
        std::printf("  %-12s %d\n", category.c_str(), n);
    return 0;
}

int run_benchmark_suite(const GenerateOptions& options) {
    auto suite = modelgen::benchmark_suite();
    if (!options.categories.empty()) {
        std::set<std::string> known;
        for (const auto& s : suite)
            known.insert(s.category);
        for (const auto& c : options.categories)
            if (!known.contains(c)) {
                std::string list;
                for (const auto& k : known)
                    list += (list.empty() ? "" : ", ") + k;
                throw InputError("", "--category",
                                 "unknown category \"" + c + "\"; expected one of " + list);
            }
        std::erase_if(suite, [&](const modelgen::ModelSpec& s) {
            return std::find(options.categories.begin(), options.categories.end(), s.category) ==
                   options.categories.end();
        });
    }
    return write_specs(suite, options);
}

int run_generate_models(const GenerateOptions& options) {
    if (!options.decoder_layers.empty()) {
        if (options.width < 16 || options.width % 16 != 0)
            throw InputError("", "--width", "expected a multiple of 16 (heads of 16)");
        std::vector<modelgen::ModelSpec> stacks;
        for (const int layers : options.decoder_layers) {
            if (layers < 1)
                throw InputError("", "--decoder-layers", "expected at least 1 layer");
            stacks.push_back(
                modelgen::decoder_stack(layers, options.width, options.width / 16, 32));
        }
        return write_specs(stacks, options);
    }
    if (options.count < 1)
        throw InputError("", "--count", "expected at least 1 model");
    if (std::find(modelgen::kSimulationSpaces.begin(), modelgen::kSimulationSpaces.end(),
                  options.space) == modelgen::kSimulationSpaces.end())
        throw InputError("", "--space",
                         "unknown space \"" + options.space +
                             "\"; expected blocks, nas9, zoo or transformer");
    return write_specs(modelgen::simulation_models(options.count, options.seed, options.space),
                       options);
}

} // namespace

Action add_benchmark_suite_command(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    auto* command = app.add_subcommand(
        "benchmark-suite",
        "Write the device benchmark suite (Arch2End Table II categories) as ONNX models");
    command->add_option("--out", options->out, "Folder to write the models and manifest.json into")
        ->required();
    command->add_option("--category", options->categories,
                        "Only these categories (affinity, scale, activation, sparsity, memory, "
                        "mobilenet, batch, fusion)");
    command->add_option("--seed", options->seed, "Seed of the weights (default 1)");
    command->add_flag("--json", options->json, "Print the models written as JSON");
    return [options] { return run_benchmark_suite(*options); };
}

Action add_generate_models_command(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    auto* command = app.add_subcommand(
        "generate-models",
        "Write random simulation models (seed-model blocks, a 9-choice NAS space, networks "
        "mixing the blocks of modern architectures, or transformers)");
    auto* count = command->add_option("--count", options->count, "How many models");
    command->add_option("--out", options->out, "Folder to write the models and manifest.json into")
        ->required();
    command->add_option(
        "--space", options->space,
        "blocks (ResNet, MobileNet, SqueezeNet, DenseNet, VGG blocks), nas9, or zoo (ResNeXt, "
        "RegNet, EfficientNet, MobileNetV3, MnasNet, ShuffleNetV2, DenseNet, SqueezeNet and "
        "MaxViT blocks and ViT / BERT encoders, mixed), or transformer (ViT, BERT, GPT-2, Swin, "
        "ConvNeXt or MaxViT blocks at random widths, heads and sequence lengths, each network "
        "named after its family; docs/model-generation.md) (default blocks)");
    auto* decoder =
        command
            ->add_option(
                "--decoder-layers", options->decoder_layers,
                "Instead: one GPT-2 decoder stack per value, of that many layers (47 nodes "
                "each, LayerNorm and GELU decomposed; 32 tokens; for large-model work)")
            ->delimiter(',')
            ->excludes(count);
    count->excludes(decoder);
    command
        ->add_option("--width", options->width,
                     "The decoder stacks' width, heads of 16 (default 64)")
        ->needs(decoder);
    command->add_option("--seed", options->seed, "Seed of structures and weights (default 1)");
    command->add_flag("--json", options->json, "Print the models written as JSON");
    command->callback([command, count, decoder] {
        if (count->count() == 0 && decoder->count() == 0)
            throw CLI::RequiredError("--count or --decoder-layers");
    });
    return [options] { return run_generate_models(*options); };
}

} // namespace cleave::cli
