// A decoder of the generated decoder space (modelgen::decoder_models), written to a temporary
// folder and loaded bound as a test asks, with its ort-cpu kernels: the model the partition tests
// of language models cost.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/llm_writer.hpp"

#include <QTemporaryDir>
#include <filesystem>

namespace cleave::test {

struct GeneratedDecoder {
    QTemporaryDir dir;
    graph::Model model;
    fusion::KernelGraph kernels;
};

// The space's `number`th decoder (seed 11), bound at `bindings`, with `layers` decoder layers
// (0: as sampled, 2 to 6).
inline void load_decoder(GeneratedDecoder& d, int number, const graph::DimBindings& bindings,
                         std::int64_t layers = 0) {
    auto sample = modelgen::decoder_models(number, 1, 11).front();
    if (layers > 0)
        sample.config.layers = layers;
    const std::filesystem::path folder = d.dir.path().toStdString();
    const auto written = modelgen::write_llm(sample.config, sample.precision, sample.form, folder);
    graph::LoadOptions options;
    options.dims = bindings;
    d.model = graph::load_model(folder / written.model_file, options);
    d.kernels = fusion::detect_kernels(d.model, fusion::find_fusion_method("ort-cpu"));
}

} // namespace cleave::test
