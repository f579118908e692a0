// The networks a calibration may measure: the generated benchmark suite, simulation models of
// every space, steps of generated language-model decoders (prefills and decode steps, each a
// network of its own) and the example models, each loaded with its kernels (the calibration's
// fusion method) and a first guess of its cost. Generated models are written into the work folder;
// example models are read where they are, or unpacked there when shipped as .onnx.xz.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "core/graph/dim_bindings.hpp"
#include "core/graph/model.hpp"
#include "core/task_control.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace cleave::calibration {

struct PoolNetwork {
    std::string name; // the model's name, as its measured run names it
    // A decoder step's phase ("prefill=128", "decode=1024"), bound when it was loaded; the steps
    // of one decoder share its name and file. Empty for every other network.
    graph::DimBindings dims;
    // profile::model_family of its name: a generated network's space or category ("blocks",
    // "nas9", "affinity", ...; "swin", "vit", ... in the transformer space), an example model's
    // architecture: what a calibration holds out together.
    std::string family;
    bool example = false;                // one of the example models (a real architecture)
    std::filesystem::path source;        // .onnx, or .onnx.xz to unpack before it is measured
    std::shared_ptr<graph::Model> model; // loaded when the pool is built
    fusion::KernelGraph kernels;
    std::vector<std::vector<double>> features; // per kernel: predict::kernel_features, once
    double nominal_ms = 0; // its kernels at the nominal roofline (predict/baseline.hpp)
};

struct PoolOptions {
    std::filesystem::path work_folder;                 // generated models go to <work>/models
    std::vector<std::filesystem::path> example_models; // .onnx or .onnx.xz
    int simulation_models = 40;                        // per simulation space
    int decoders = 0; // decoders of the decoder space (modelgen/decoder_space.hpp), 6 steps each
    unsigned seed = 1;
    const fusion::FusionMethod* method = nullptr;
    const TaskControl* control = nullptr; // told a lasting line per step, checked per network
};

// The benchmark suite, `simulation_models` networks of each simulation space, the steps of
// `decoders` decoders and the example models. Throws InputError for an example model that does not
// load.
std::vector<PoolNetwork> build_pool(const PoolOptions& options);

// One network of a pool: its kernels under `method`, their features and nominal time.
PoolNetwork pool_network(std::string name, std::string family, const std::filesystem::path& source,
                         graph::Model model, const fusion::FusionMethod& method, bool example);

// `count` more networks of each simulation space, after the `first` the pool holds of each (the
// same seed gives the same sequence, so names and networks never repeat).
std::vector<PoolNetwork> more_simulation_models(const PoolOptions& options, int first, int count);

// The steps of `count` more decoders, after the `first` the pool holds: each decoder written once
// into <work>/models/NAME/ (its weights a sparse file), loaded at each of its prefill
// lengths and decode contexts.
std::vector<PoolNetwork> more_decoder_steps(const PoolOptions& options, int first, int count);

// "name" or "name@decode=1024", for people.
std::string pool_label(const PoolNetwork& network);

// Where the example models are: <the executable's folder>/../share/cleave/examples/models when
// installed, else the build tree's unpacked copies (<build>/examples/models); empty when
// neither exists.
std::filesystem::path installed_example_models();

// The .onnx file to measure: `network.source`, or for a compressed one its unpacked copy in
// `folder` (made once), which the calibration keeps with its data.
std::filesystem::path measurable_file(const PoolNetwork& network,
                                      const std::filesystem::path& folder);

} // namespace cleave::calibration
