// A language model on the Partition tab's document, as a person plans one: Llama-3.1-8B in fp16
// (its shape, sparse weights) bound at a decode step after 8,191 tokens, over an Orin NX 16GB,
// two Orin Nano 8GB and a Raspberry Pi 5 8GB, shown on the exact least-time-per-token plan.
#pragma once

#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/llm_configs.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "core/partition/decoder_plans.hpp"
#include "ui/document/partition_document.hpp"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <filesystem>
#include <memory>
#include <numeric>

namespace cleave::test {

struct LlmPartition {
    QTemporaryDir dir;
    std::filesystem::path model; // the ONNX file
    ui::PartitionDocument document;
};

// False (and a message) when the model cannot be written or the inputs are not predicted.
inline bool prepare_llm_partition(LlmPartition& p, QString& error) {
    const std::filesystem::path folder = p.dir.path().toStdString();
    const auto written = modelgen::write_llm(*modelgen::find_llm_config("llama-3.1-8b"),
                                             modelgen::LlmPrecision::Fp16,
                                             modelgen::LlmForm::Onnx, folder);
    graph::LoadOptions options;
    options.dims.decode = 8191;
    p.model = folder / written.model_file;
    const auto model = std::make_shared<const graph::Model>(graph::load_model(p.model, options));
    const auto kernels = std::make_shared<const fusion::KernelGraph>(
        fusion::detect_kernels(*model, fusion::find_fusion_method("ort-cpu")));
    std::vector<device::ClusterHost> hosts;
    int n = 0;
    for (const char* id :
         {"jetson-orin-nx-16gb", "jetson-orin-nano", "jetson-orin-nano", "raspberry-pi-5"}) {
        const auto device = *device::library_device(id);
        hosts.push_back({"h" + std::to_string(++n), device.id, device, ""});
    }
    const auto cluster =
        std::make_shared<const device::Cluster>(device::make_cluster("edge4.cluster.json", hosts));
    QSignalSpy prepared(&p.document, &ui::PartitionDocument::prepared);
    p.document.prepare({model, kernels, cluster, "ort-cpu", {}, options.dims});
    if (!prepared.wait(120000) || !p.document.inputs() || !p.document.inputs()->costs) {
        error = "not prepared: " + p.document.failure();
        return false;
    }
    partition::DecoderPlanContext context;
    context.decode = {model.get(), kernels.get(), p.document.inputs()->costs.get()};
    context.cluster = cluster.get();
    for (int pe = 0; pe < p.document.inputs()->peCount(); ++pe)
        if (p.document.inputs()->hasLatencies(pe))
            context.usable.push_back(pe);
    context.workload = p.document.workload();
    const auto plans = partition::decoder_plans(context);
    p.document.replaceMapping(plans.front().plan.mapping, "exact plan");
    return true;
}

} // namespace cleave::test
