// Each cluster PE's predicted latency for every kernel, the input MappingCosts is built from.
// A device with a shipped predictor (resources/predictors/<id>) uses it for every one of its
// PEs; any other device gets a roofline per PE from that PE's own figures.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/predict/predictor.hpp"

#include <string>
#include <vector>

namespace cleave::partition {

// A predictor file (cleave train) given for a cluster (`--predictor FILE`). Throws InputError
// naming the file when no host of the cluster runs the predictor's device.
predict::Predictor load_cluster_predictor(const std::string& file, const device::Cluster& cluster);

// Rows for the PEs in `needed` (indices into cluster.pes), empty rows for the others; PEs of
// one host with the same device and PE name are predicted once. `given`, when set, serves every
// PE of its device (a predictor the user trained, `--predictor FILE`). Throws InputError naming
// the device and the PE when a PE has no predictor and no peak figures for a roofline.
std::vector<std::vector<double>>
pe_kernel_latencies_ms(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const device::Cluster& cluster, const std::string& rules,
                       const std::vector<int>& needed, const predict::Predictor* given = nullptr);

} // namespace cleave::partition
