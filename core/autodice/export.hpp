// AutoDiCE deployment packages: for a mapping of a model's nodes onto PEs, the files AutoDiCE's
// front end writes into its models/ folder (mapping.json, platform.txt, rankfile, hostfile,
// sender.json, receiver.json and one sub-model per PE key), in AutoDiCE's formats and naming.
// A package is planned in memory, then written all-or-nothing (docs/autodice.md).
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/sub_model.hpp"
#include "core/partition/mapping.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cleave::autodice {

// One rank of the package: a PE key and the nodes it runs.
struct PackagePart {
    std::string key;        // "nx01_gpu"
    std::vector<int> nodes; // node indices
};

// A buffer of a comm table: a tensor (by its AutoDiCE name) and the peer ranks.
struct CommEntry {
    int tensor = -1;
    std::vector<int> ranks; // ascending
};

struct Package {
    std::vector<PackagePart> parts;                // rank order
    std::vector<graph::SubModelPlan> sub_models;   // per rank
    std::vector<std::vector<CommEntry>> receivers; // per rank: inputs -> the rank producing each
    std::vector<std::vector<CommEntry>> senders;   // per rank: outputs -> the ranks reading each
    std::string mapping_json;
    std::string sender_json;
    std::string receiver_json;
    // Only with a cluster:
    std::optional<std::string> platform_txt;
    std::optional<std::string> rankfile;
    std::optional<std::string> hostfile;
};

// Parts: one per PE of the cluster that has kernels, in cluster PE order (as mapping.json
// lists them), nodes ascending.
std::vector<PackagePart> package_parts(const graph::Model& model,
                                       const fusion::KernelGraph& kernels,
                                       const partition::KernelAssignment& assignment,
                                       const device::Cluster& cluster);

// Plans the sub-models and comm tables and renders every text file. `cluster` may be null
// (no platform.txt, rankfile or hostfile then); with one, every key must be one of its PEs.
// Throws InputError (file `source`, place "mapping") when a node is mapped twice or not at all,
// or when sub-models would wait on each other (a cycle of tensors between PE keys).
Package make_package(const graph::Model& model, std::vector<PackagePart> parts,
                     const device::Cluster* cluster, const std::string& source);

// A rankfile line's slots for a PE: its core numbers ("0,1,2,3,4,5"; a range as "0-11"), and
// for a GPU the host's highest CPU core, as AutoDiCE pins a Jetson Xavier NX's GPU rank to 5.
std::string rank_slots(const device::Cluster& cluster, const device::ClusterPe& pe);

struct WrittenFile {
    std::string name; // inside the package folder
    std::uint64_t bytes = 0;
};

struct ExportOptions {
    bool sub_models = true;
};

// Writes the package into a new sibling of `folder`, syncs it, then puts it in place: an
// existing `folder` is replaced only after the new one is complete, and only when it is empty
// or an earlier export (holds a mapping.json). Nothing is left behind on failure. Throws
// InputError naming the folder or file.
std::vector<WrittenFile> write_package(const graph::Model& model, const Package& package,
                                       const std::filesystem::path& folder,
                                       const ExportOptions& options = {});

} // namespace cleave::autodice
