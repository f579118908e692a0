// AutoDiCE's mapping.json: one object whose keys are PE keys (`nx01_gpu`, `nx01_arm012345`) and
// whose values list the ONNX nodes each PE runs, every node exactly once. Read with AutoDiCE's
// consistency check; node names are accepted as the model's own or in AutoDiCE's naming, and
// written in AutoDiCE's naming.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/partition/mapping.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace cleave::autodice {

// The cluster PE index of every model node. Throws InputError naming the file, the JSON pointer
// of the first problem and listing every unknown key, unknown node, repeated node and missing
// node.
std::vector<int> parse_mapping_file(const std::string& json_text, const std::string& file,
                                    const graph::Model& model, const device::Cluster& cluster);
std::vector<int> read_mapping_file(const std::string& path, const graph::Model& model,
                                   const device::Cluster& cluster);

// AutoDiCE maps nodes, so a mapping may cut through a kernel (a Conv on one PE, its Relu on the
// next); each PE's runtime then fuses its sub-model on its own. One line per kernel of `kernels`
// the mapping cuts, saying which of its nodes run where; empty when it cuts none.
std::vector<std::string> kernel_cuts(const std::vector<int>& pe_of_node, const graph::Model& model,
                                     const fusion::KernelGraph& kernels,
                                     const device::Cluster& cluster);

// The PE of each kernel: that of its first node (all its nodes' where kernel_cuts is empty).
partition::KernelAssignment kernel_assignment(const std::vector<int>& pe_of_node,
                                              const fusion::KernelGraph& kernels);

// A node-level mapping's kernels and the PE of each. Where the mapping keeps every kernel of
// `kernels` on one PE, those are the kernels; otherwise they are the model fused again, each
// PE's nodes apart (fusion::detect_kernels with the mapping as parts), and `cut` is kernel_cuts.
struct MappedKernels {
    fusion::KernelGraph kernels;
    partition::KernelAssignment assignment;
    std::vector<std::string> cut;
};
MappedKernels mapped_kernels(const std::vector<int>& pe_of_node, const graph::Model& model,
                             const fusion::KernelGraph& kernels,
                             const fusion::FusionMethod& method, const device::Cluster& cluster);

// A mapping's kernels as the studio shows them: each run of consecutive kernels on one PE a
// segment (partition::runs_of). `pe_errors` holds, per cluster PE, why it has no kernel
// latencies (empty where it has them); a PE without them that runs kernels is refused
// (InputError at `place` in `file`, naming the PE and why). `scattered` names each PE that runs
// more than one stretch of kernels ("nx01_gpu runs 2 separate stretches of kernels").
struct MappingSegments {
    partition::Mapping mapping;
    std::vector<std::string> scattered;
};
MappingSegments mapping_segments(const partition::KernelAssignment& assignment,
                                 const device::Cluster& cluster,
                                 const std::vector<std::string>& pe_errors,
                                 const std::string& file, const std::string& place = "");

// Keys in cluster PE order (PEs without kernels left out), nodes in topological order, named
// as AutoDiCE names them.
std::string mapping_file_json(const graph::Model& model, const fusion::KernelGraph& kernels,
                              const partition::KernelAssignment& assignment,
                              const device::Cluster& cluster);
// Written atomically.
void save_mapping_file(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const partition::KernelAssignment& assignment,
                       const device::Cluster& cluster, const std::filesystem::path& path);

} // namespace cleave::autodice
