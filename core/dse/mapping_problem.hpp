// The pagmo2 user-defined problem over mappings: integer genes (split_point_encoding.hpp), the
// objectives of MappingSpace normalised by the best single PE, all minimised (throughput as its
// inverse, the bottleneck time). pagmo's nsga2 takes no constraints, so a mapping that overflows
// a device's memory is penalised instead: every objective gets kInfeasiblePenalty x (1 + its
// summed relative excess), which puts it behind every feasible mapping and still ranks it by how
// far it overflows.
#pragma once

#include "mapping_space.hpp"
#include "split_point_encoding.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cleave::dse {

inline constexpr double kInfeasiblePenalty = 1e6;

class MappingProblem {
public:
    MappingProblem() = default; // pagmo needs a default-constructible problem
    // `space` must outlive every copy; `stage_pes` are cluster PEs (the first n of space.pes()).
    MappingProblem(const MappingSpace& space, GeneLayout layout, std::vector<int> stage_pes,
                   Level level);

    // pagmo's interface.
    std::vector<double> fitness(const std::vector<double>& genes) const;
    std::pair<std::vector<double>, std::vector<double>> get_bounds() const;
    std::vector<double>::size_type get_nobj() const;
    std::vector<double>::size_type get_nix() const;
    std::string get_name() const { return "Cleave mapping problem"; }

    const GeneLayout& layout() const { return layout_; }
    const std::vector<int>& stage_pes() const { return stage_pes_; }
    Level level() const { return level_; }
    // The mapping genes stand for, as split points and a PE per segment (naive genes too).
    partition::Mapping mapping(const std::vector<double>& genes) const;
    // Its raw figures, not counted as an evaluation.
    MappingFigures figures(const std::vector<double>& genes) const;

private:
    const MappingSpace* space_ = nullptr;
    GeneLayout layout_;
    std::vector<int> stage_pes_;
    Level level_ = Level::analytical;
    // Each copy pagmo makes gets its own buffers (pagmo's "basic" thread safety).
    mutable MappingSpace::Scratch scratch_;
};

} // namespace cleave::dse
