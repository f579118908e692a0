// What the partition view needs before a split point can move: the cluster, every kernel's
// predicted latency on each PE that has a predictor (partition::pe_kernel_latencies_ms), why the
// others have none, each PE's memory capacity, and the MappingCosts built from them. Predicting
// takes a while, so PartitionDocument computes it off the UI thread; the newest request wins.
#pragma once

#include "core/device/cluster.hpp"
#include "core/graph/dim_bindings.hpp"
#include "core/graph/model.hpp"
#include "core/layout/graph_layout.hpp"
#include "core/partition/mapping.hpp"
#include "core/partition/mapping_costs.hpp"
#include "ui/document/core_ptrs.hpp"

#include <QMetaType>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cleave::ui {

struct PartitionRequest {
    ModelPtr model;
    KernelGraphPtr kernels;
    ClusterPtr cluster;
    std::string rules; // the fusion method the kernels came from; predictors are made for it
    // How the model was read (a decoder's prefill is read again from its file with these, bound
    // for the prompt instead).
    std::map<std::string, graph::Shape> inputShapes = {};
    graph::DimBindings dims = {};
};

struct PartitionInputs {
    PartitionRequest request;
    std::vector<std::vector<double>> kernel_ms; // [pe][kernel]; empty row: no latencies
    std::vector<std::string> pe_errors;         // [pe]: why it has no latencies; empty if it has
    std::vector<std::optional<std::int64_t>> capacity_bytes; // [pe]: its device's memory
    std::shared_ptr<const partition::MappingCosts> costs;    // null when no PE has latencies
    double max_kernel_ms = 0; // the slowest kernel on any PE: the strip's full height
    // The model's blocks as runs of kernels (layout::block_kernel_runs): a transformer's layers,
    // banded and named along the strip; empty for a model laid out whole.
    std::vector<layout::KernelRun> blocks;

    int kernelCount() const { return static_cast<int>(request.kernels->kernels.size()); }
    int peCount() const { return static_cast<int>(request.cluster->pes.size()); }
    bool hasLatencies(int pe) const { return pe_errors[static_cast<std::size_t>(pe)].empty(); }
};
using PartitionInputsPtr = std::shared_ptr<const PartitionInputs>;

// Predicts every PE, one device and PE name at a time, so that one PE without a predictor leaves
// the others usable.
PartitionInputs prepare_partition(const PartitionRequest& request);


} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::PartitionInputsPtr)
