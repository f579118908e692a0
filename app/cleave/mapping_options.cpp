#include "mapping_options.hpp"

#include "core/autodice/mapping_file.hpp"
#include "core/input_error.hpp"
#include "progress.hpp"

namespace cleave::cli {

void MappingOptions::add_to(CLI::App& command) {
    command.add_option("--mapping", mapping, "AutoDiCE mapping.json");
    command.add_option("--points", points, "Split points: kernels before each cut, e.g. 12,40");
    command.add_option("--pes", pes, "PE key per segment, e.g. nx01_gpu,nx02_gpu,nx03_gpu");
}

void MappingOptions::check() const {
    if (mapping.empty() == pes.empty())
        throw InputError("", "--mapping",
                         "give either --mapping FILE (an AutoDiCE mapping.json) or --pes with "
                         "--points (split points, one PE per segment)");
    if (!points.empty() && pes.empty())
        throw InputError("", "--points", "split points need --pes, one PE key per segment");
}

ChosenMapping MappingOptions::resolve(const graph::Model& model, fusion::KernelGraph kernels,
                                      const fusion::FusionMethod& method,
                                      const device::Cluster& cluster) const {
    ChosenMapping chosen;
    const int kernel_count = static_cast<int>(kernels.kernels.size());
    if (!mapping.empty()) {
        auto mapped = autodice::mapped_kernels(autodice::read_mapping_file(mapping, model, cluster),
                                               model, kernels, method, cluster);
        for (const auto& cut : mapped.cut)
            warn(mapping + ": " + cut);
        chosen.cut_kernels = std::move(mapped.cut);
        chosen.kernels = std::move(mapped.kernels);
        chosen.assignment = std::move(mapped.assignment);
        chosen.source = mapping;
    } else {
        chosen.kernels = std::move(kernels);
        chosen.split = partition::parse_mapping(points, pes, cluster, kernel_count);
        chosen.assignment = partition::assignment_of(*chosen.split, kernel_count);
        chosen.source = "--points/--pes";
    }
    return chosen;
}

} // namespace cleave::cli
