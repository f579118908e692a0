#include "calibration_pool.hpp"

#include "core/atomic_file.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/model_specs.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/profile/measured_dataset.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cleave::calibration {

namespace fs = std::filesystem;

namespace {

double nominal_ms(const PoolNetwork& network) {
    static const auto roofline = predict::NominalRoofline::of(predict::kernel_feature_names());
    double us = 0;
    for (std::size_t k = 0; k < network.kernels.kernels.size(); ++k)
        us += roofline.us(network.features[k].data()) * network.kernels.kernels[k].launches;
    return us / 1000.0;
}


std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path.string(), "", "cannot open; expected an ONNX model");
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

} // namespace

fs::path installed_example_models() {
    std::error_code error;
    const auto exe = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    const fs::path prefix = exe.parent_path().parent_path();
    for (const auto& folder :
         {prefix / "share" / "cleave" / "examples" / "models", prefix / "examples" / "models"})
        if (fs::is_directory(folder, error))
            return folder;
    return {};
}

fs::path measurable_file(const PoolNetwork& network, const fs::path& folder) {
    if (!graph::is_compressed_model_file(network.source))
        return network.source;
    const fs::path unpacked = folder / (network.name + ".onnx");
    std::error_code error;
    if (!fs::exists(unpacked, error)) {
        const std::string packed = read_bytes(network.source);
        const std::span bytes(reinterpret_cast<const std::uint8_t*>(packed.data()), packed.size());
        fs::create_directories(folder);
        write_file_atomically(unpacked,
                              graph::unpack_model(graph::model_compression(network.source, bytes),
                                                  bytes, network.source.string()));
    }
    return unpacked;
}

namespace {

// Writes the generated specs into <work>/models and loads each as a pool network.
std::vector<PoolNetwork> generated(const PoolOptions& options,
                                   const std::vector<modelgen::ModelSpec>& specs) {
    const fs::path folder = options.work_folder / "models";
    fs::create_directories(folder);
    std::vector<PoolNetwork> pool;
    for (const auto& s : specs) {
        const auto written = modelgen::write_model(s, folder, options.seed);
        const fs::path file = folder / written.file;
        // Held out by family, as `cleave evaluate` holds out the runs: a space's own name, or,
        // for the transformer space, the family each network is named after.
        pool.push_back(pool_network(s.name, profile::model_family(s.name), file,
                                    graph::load_model(file), *options.method, false));
        checkpoint(options.control);
    }
    return pool;
}

} // namespace

PoolNetwork pool_network(std::string name, std::string family, const fs::path& source,
                         graph::Model model, const fusion::FusionMethod& method, bool example) {
    PoolNetwork n;
    n.name = std::move(name);
    n.family = std::move(family);
    n.example = example;
    n.source = source;
    n.model = std::make_shared<graph::Model>(std::move(model));
    n.kernels = fusion::detect_kernels(*n.model, method);
    const auto step = predict::decode_step_bytes(*n.model);
    for (const auto& kernel : n.kernels.kernels)
        n.features.push_back(predict::kernel_features(*n.model, kernel, step));
    n.nominal_ms = nominal_ms(n);
    return n;
}

std::vector<PoolNetwork> build_pool(const PoolOptions& options) {
    if (!options.method)
        throw std::invalid_argument("build_pool: no fusion method");
    auto specs = modelgen::benchmark_suite();
    // The suite's batch series measures batching, not the batch-1 kernels a predictor serves.
    std::erase_if(specs, [](const modelgen::ModelSpec& s) {
        return !s.input_shape.empty() && s.input_shape.front() != 1;
    });
    report_line(options.control,
                "writing " + std::to_string(specs.size()) + " benchmark networks and " +
                    std::to_string(options.simulation_models) + " of each simulation space into " +
                    (options.work_folder / "models").string());
    auto pool = generated(options, specs);
    auto simulated = more_simulation_models(options, 0, options.simulation_models);
    pool.insert(pool.end(), std::make_move_iterator(simulated.begin()),
                std::make_move_iterator(simulated.end()));
    if (options.decoders > 0) {
        report_line(options.control, "writing " + std::to_string(options.decoders) +
                                         " decoders, each measured at prefills and decode steps");
        auto steps = more_decoder_steps(options, 0, options.decoders);
        pool.insert(pool.end(), std::make_move_iterator(steps.begin()),
                    std::make_move_iterator(steps.end()));
    }
    for (const auto& path : options.example_models) {
        const std::string name = graph::model_name(path);
        graph::Model model = graph::load_model(path);
        pool.push_back(pool_network(name, profile::model_family(name), path, std::move(model),
                              *options.method, true));
        checkpoint(options.control);
    }
    report_line(options.control, std::to_string(pool.size()) + " networks to choose from (" +
                                     std::to_string(options.example_models.size()) +
                                     " example models)");
    return pool;
}

std::vector<PoolNetwork> more_simulation_models(const PoolOptions& options, int first, int count) {
    if (!options.method)
        throw std::invalid_argument("more_simulation_models: no fusion method");
    std::vector<modelgen::ModelSpec> specs;
    for (const auto& space : modelgen::kSimulationSpaces) {
        auto models = modelgen::simulation_models(first + count, options.seed, space);
        specs.insert(specs.end(), std::make_move_iterator(models.begin() + first),
                     std::make_move_iterator(models.end()));
    }
    return generated(options, specs);
}

std::vector<PoolNetwork> more_decoder_steps(const PoolOptions& options, int first, int count) {
    if (!options.method)
        throw std::invalid_argument("more_decoder_steps: no fusion method");
    std::vector<PoolNetwork> pool;
    for (const auto& decoder : modelgen::decoder_models(first, count, options.seed)) {
        const fs::path folder = options.work_folder / "models" / decoder.config.name;
        const auto written =
            modelgen::write_llm(decoder.config, decoder.precision, decoder.form, folder);
        std::vector<graph::DimBindings> steps;
        for (const auto length : decoder.prefill_lengths)
            steps.emplace_back().prefill = length;
        for (const auto context : decoder.decode_contexts)
            steps.emplace_back().decode = context;
        for (const auto& step : steps) {
            graph::LoadOptions load;
            load.dims = step;
            auto network = pool_network(
                decoder.config.name, profile::model_family(decoder.config.name),
                folder / written.model_file, graph::load_model(folder / written.model_file, load),
                *options.method, false);
            network.dims = step;
            pool.push_back(std::move(network));
            checkpoint(options.control);
        }
    }
    return pool;
}

std::string pool_label(const PoolNetwork& network) {
    return network.dims.empty() ? network.name
                                : network.name + "@" + graph::dim_bindings_text(network.dims);
}

} // namespace cleave::calibration
