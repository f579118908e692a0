#include "ui/document/partition_inputs.hpp"

#include "core/partition/pe_latencies.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace cleave::ui {

PartitionInputs prepare_partition(const PartitionRequest& request) {
    const auto& cluster = *request.cluster;
    PartitionInputs inputs;
    inputs.request = request;
    for (const auto& pe : cluster.pes)
        inputs.capacity_bytes.push_back(device::capacity_bytes(cluster.hosts[pe.host_index].device));
    inputs.blocks = layout::block_kernel_runs(*request.model, *request.kernels);
    auto latencies =
        partition::predict_pe_latencies(*request.model, *request.kernels, cluster, request.rules);
    const bool any = !latencies.usable().empty();
    inputs.kernel_ms = std::move(latencies.kernel_ms);
    inputs.pe_errors = std::move(latencies.missing);
    for (const auto& row : inputs.kernel_ms)
        for (const double ms : row)
            inputs.max_kernel_ms = std::max(inputs.max_kernel_ms, ms);
    if (any)
        inputs.costs = std::make_shared<const partition::MappingCosts>(
            *request.model, *request.kernels, cluster, inputs.kernel_ms);
    return inputs;
}

} // namespace cleave::ui
