#include "mapping_problem.hpp"

#include <utility>

namespace cleave::dse {

MappingProblem::MappingProblem(const MappingSpace& space, GeneLayout layout,
                               std::vector<int> stage_pes, Level level)
    : space_(&space), layout_(layout), stage_pes_(std::move(stage_pes)), level_(level) {}

MappingFigures MappingProblem::figures(const std::vector<double>& genes) const {
    if (layout_.encoding == Encoding::naive)
        return space_->figures(decode_naive(layout_, genes, stage_pes_), level_, scratch_);
    return space_->figures(decode_spe(layout_, genes, stage_pes_), level_, scratch_);
}

std::vector<double> MappingProblem::fitness(const std::vector<double>& genes) const {
    const auto figures_of = figures(genes);
    auto objectives = space_->normalised(space_->raw_objectives(figures_of));
    if (!figures_of.feasible())
        for (auto& value : objectives)
            value +=
                kInfeasiblePenalty * (1.0 + figures_of.memory_excess + figures_of.surplus_segments);
    return objectives;
}

std::pair<std::vector<double>, std::vector<double>> MappingProblem::get_bounds() const {
    return layout_.bounds();
}

std::vector<double>::size_type MappingProblem::get_nobj() const {
    return static_cast<std::vector<double>::size_type>(space_ ? space_->objectives().count() : 2);
}

std::vector<double>::size_type MappingProblem::get_nix() const {
    return static_cast<std::vector<double>::size_type>(layout_.size());
}

partition::Mapping MappingProblem::mapping(const std::vector<double>& genes) const {
    if (layout_.encoding == Encoding::naive)
        return mapping_of(decode_naive(layout_, genes, stage_pes_));
    return decode_spe(layout_, genes, stage_pes_);
}

} // namespace cleave::dse
