// The mapping options evaluate-mapping and export-autodice share: an AutoDiCE mapping.json
// (--mapping), split points with a PE per segment (--points, --pes), or a decoder's layers split
// over the PEs by a runtime's rule (--layers-by, --pes), registered, checked and turned into a
// kernel assignment in one place.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/partition/mapping.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace cleave::cli {

struct ChosenMapping {
    std::optional<partition::Mapping> split; // given as --points/--pes
    // The kernels the mapping runs: the model's, or, where a mapping.json cuts through kernels,
    // each PE's nodes fused apart (autodice::mapped_kernels).
    fusion::KernelGraph kernels;
    partition::KernelAssignment assignment;
    std::string source;                   // the mapping.json, "--points/--pes" or the rule
    std::vector<int> layers;              // --layers-by: the decoder layers of each segment
    std::vector<std::string> cut_kernels; // one line per kernel a mapping.json cuts
};

struct MappingOptions {
    std::string mapping;
    std::string points;
    std::string pes;
    std::string layers_by; // "equal" or "memory"

    void add_to(CLI::App& command);
    // Exactly one of the two forms (InputError naming the flag); call before any loading.
    void check() const;
    // A mapping.json that cuts kernels is taken, with a warning per cut kernel (unless quiet).
    ChosenMapping resolve(const graph::Model& model, fusion::KernelGraph kernels,
                          const fusion::FusionMethod& method, const device::Cluster& cluster) const;
};

} // namespace cleave::cli
