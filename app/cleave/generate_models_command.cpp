// cleave benchmark-suite and cleave generate-models: the generated model sets of Arch2End's
// device modelling, written as ONNX files with a manifest (docs/model-generation.md).
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "core/modelgen/model_specs.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sys/stat.h>
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
    std::string llm;
    std::string precision = "fp32";
    std::string form = "onnx";
    bool random_weights = false; // decoders: weights drawn from --seed, not zeros
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

// Bytes the file takes on disk (its allocated blocks), which a sparse file keeps far below its
// size.
std::uint64_t disk_bytes(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_blocks) * 512 : 0;
}

std::optional<std::uint64_t> weight_seed(const GenerateOptions& options) {
    return options.random_weights ? std::optional(options.seed) : std::nullopt;
}

int run_llm(const GenerateOptions& options) {
    const auto* config = modelgen::find_llm_config(options.llm);
    if (!config)
        throw InputError("", "--llm",
                         "unknown model \"" + options.llm + "\"; expected one of " +
                             modelgen::llm_config_names());
    const auto precision = modelgen::parse_llm_precision(options.precision, "--precision");
    const auto form = modelgen::parse_llm_form(options.form, "--form");
    const auto written =
        modelgen::write_llm(*config, precision, form, options.out, weight_seed(options));
    const auto folder = std::filesystem::path(options.out);
    const auto on_disk = disk_bytes((folder / written.data_file).string());
    if (options.json) {
        emit_json({{"folder", options.out},
                   {"name", config->name},
                   {"source", "https://huggingface.co/" + config->hf_id + "/blob/main/config.json"},
                   {"form", std::string(modelgen::to_string(form))},
                   {"precision", std::string(modelgen::to_string(precision))},
                   {"file", written.model_file},
                   {"data_file", written.data_file},
                   {"data_bytes", written.data_bytes},
                   {"data_disk_bytes", on_disk},
                   {"config_file", written.config_file},
                   {"nodes", written.nodes},
                   {"context_length", written.context}},
                  true, "");
        return 0;
    }
    std::printf("%s (%s, %s form, %s): %s in %s, %d nodes, context %lld\n", config->name.c_str(),
                config->hf_id.c_str(), std::string(modelgen::to_string(form)).c_str(),
                std::string(modelgen::to_string(precision)).c_str(), written.model_file.c_str(),
                options.out.c_str(), written.nodes, static_cast<long long>(written.context));
    if (options.random_weights)
        std::printf("  weights %sB in %s, random (seed %llu)\n",
                    giga(static_cast<std::int64_t>(written.data_bytes), 2).c_str(),
                    written.data_file.c_str(), static_cast<unsigned long long>(options.seed));
    else
        std::printf("  weights %sB in %s, sparse: %sB on disk (every weight reads as zero)\n",
                    giga(static_cast<std::int64_t>(written.data_bytes), 2).c_str(),
                    written.data_file.c_str(), giga(static_cast<std::int64_t>(on_disk), 2).c_str());
    if (!written.config_file.empty())
        std::printf("  %s for ONNX Runtime GenAI\n", written.config_file.c_str());
    return 0;
}

// --space decoder: each decoder in a folder of its own (a genai-form one has its
// genai_config.json), with the steps a calibration measures it at in manifest.json.
int run_decoder_space(const GenerateOptions& options) {
    const std::filesystem::path out(options.out);
    auto models = nlohmann::ordered_json::array();
    Progress progress;
    for (const auto& d : modelgen::decoder_models(0, options.count, options.seed)) {
        progress.update("writing " + d.config.name);
        const auto written = modelgen::write_llm(d.config, d.precision, d.form, out / d.config.name,
                                                 weight_seed(options));
        models.push_back({{"name", d.config.name},
                          {"file", d.config.name + "/" + written.model_file},
                          {"precision", std::string(modelgen::to_string(d.precision))},
                          {"form", std::string(modelgen::to_string(d.form))},
                          {"hidden", d.config.hidden},
                          {"layers", d.config.layers},
                          {"heads", d.config.heads},
                          {"kv_heads", d.config.kv_heads},
                          {"head_dim", d.config.head_dim},
                          {"intermediate", d.config.intermediate},
                          {"vocab", d.config.vocab},
                          {"context_length", written.context},
                          {"data_bytes", written.data_bytes},
                          {"prefill_lengths", d.prefill_lengths},
                          {"decode_contexts", d.decode_contexts}});
    }
    progress.clear();
    const nlohmann::ordered_json manifest{
        {"folder", options.out}, {"space", "decoder"}, {"seed", options.seed}, {"models", models}};
    write_file_atomically(out / "manifest.json", manifest.dump(2) + "\n");
    if (options.json) {
        emit_json(manifest, true, "");
        return 0;
    }
    std::printf("%zu decoders in %s, with manifest.json (their weights %s)\n", models.size(),
                options.out.c_str(), options.random_weights ? "random" : "sparse files of zeros");
    for (const auto& m : models)
        std::printf("  %s\n", m["name"].get<std::string>().c_str());
    return 0;
}

int run_generate_models(const GenerateOptions& options) {
    if (!options.llm.empty())
        return run_llm(options);
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
    if (options.space == "decoder")
        return run_decoder_space(options);
    if (std::find(modelgen::kSimulationSpaces.begin(), modelgen::kSimulationSpaces.end(),
                  options.space) == modelgen::kSimulationSpaces.end())
        throw InputError("", "--space",
                         "unknown space \"" + options.space +
                             "\"; expected blocks, nas9, zoo, transformer or decoder");
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
        "named after its family; docs/model-generation.md), or decoder (small language-model "
        "decoders with a key/value cache in the Llama, Qwen2, Phi-3 and Gemma 2 styles, fp32 or "
        "int4, each in a folder of its own) (default blocks)");
    auto* decoder =
        command
            ->add_option(
                "--decoder-layers", options->decoder_layers,
                "Instead: one GPT-2 decoder stack per value, of that many layers (47 nodes "
                "each, LayerNorm and GELU decomposed; 32 tokens; for large-model work)")
            ->delimiter(',')
            ->excludes(count);
    count->excludes(decoder);
    auto* llm = command
                    ->add_option("--llm", options->llm,
                                 "Instead: the decoder, with its key/value cache, of a published "
                                 "language model (smollm2-135m, qwen2.5-0.5b, qwen2.5-1.5b, "
                                 "qwen2.5-7b, llama-3.2-1b, llama-3.2-3b, llama-3.1-8b, "
                                 "phi-3-mini-4k-instruct, gemma-2-2b, mistral-7b-v0.3), its "
                                 "weights a sparse file of zeros")
                    ->excludes(count)
                    ->excludes(decoder);
    command
        ->add_option("--precision", options->precision,
                     "With --llm: fp32, fp16, or int4 (genai form only) (default fp32)")
        ->needs(llm);
    command
        ->add_option("--form", options->form,
                     "With --llm: onnx (default-domain ops, as Optimum exports) or genai "
                     "(com.microsoft ops, as ONNX Runtime GenAI's model builder writes, with "
                     "genai_config.json) (default onnx)")
        ->needs(llm);
    command
        ->add_option("--width", options->width,
                     "The decoder stacks' width, heads of 16 (default 64)")
        ->needs(decoder);
    command->add_option("--seed", options->seed, "Seed of structures and weights (default 1)");
    command->add_flag("--random-weights", options->random_weights,
                      "With --llm or --space decoder: random weights drawn from --seed, of a "
                      "trained layer's scale (for checking values, as a split run does), instead "
                      "of a sparse file of zeros");
    command->add_flag("--json", options->json, "Print the models written as JSON");
    command->callback([command, count, decoder, llm] {
        if (count->count() == 0 && decoder->count() == 0 && llm->count() == 0)
            throw CLI::RequiredError("--count, --decoder-layers or --llm");
    });
    return [options] { return run_generate_models(*options); };
}

} // namespace cleave::cli
