// Each cluster PE's predicted latency for every kernel, the input MappingCosts is built from, and
// why a PE has none. A device with a shipped predictor (resources/predictors/<id>) uses it for
// every one of its PEs; any other device gets a roofline per PE from that PE's own figures. The
// DSE, the CLI's mapping commands and the studio's Partition tab all predict through here.
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

struct PeLatencies {
    std::vector<std::vector<double>> kernel_ms; // [pe]: per kernel; empty when the PE has none
    std::vector<std::string> missing;           // [pe]: why it has none; empty when it has
    // "left out nx01_arm012345 (arm012345 of jetson-xavier-nx): ...": the one wording of a PE
    // that cannot take kernels.
    std::vector<std::string> left_out_notes(const device::Cluster& cluster) const;
    std::vector<int> usable() const; // the PEs with latencies, in cluster order
    bool has(int pe) const { return missing[static_cast<std::size_t>(pe)].empty(); }
};

// Predicts the PEs in `needed` (indices into cluster.pes; empty: every PE); the others get empty
// rows and no reason. PEs with the same device and PE name are predicted once. `given`, when set,
// serves every PE of its device (a predictor the user trained, `--predictor FILE`). A PE whose
// device has no predictor and no peak figures for a roofline is missing, the rest stay usable.
PeLatencies predict_pe_latencies(const graph::Model& model, const fusion::KernelGraph& kernels,
                                 const device::Cluster& cluster, const std::string& rules,
                                 const std::vector<int>& needed = {},
                                 const predict::Predictor* given = nullptr);

// predict_pe_latencies for PEs a mapping uses, which all must have latencies: throws InputError
// naming the first PE that has none.
std::vector<std::vector<double>>
pe_kernel_latencies_ms(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const device::Cluster& cluster, const std::string& rules,
                       const std::vector<int>& needed, const predict::Predictor* given = nullptr);

} // namespace cleave::partition
