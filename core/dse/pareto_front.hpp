// Pareto fronts of minimised objective vectors and their hypervolume (pagmo's hypervolume,
// exact: hv2d / hv3d / WFG by dimension) against a fixed reference point.
#pragma once

#include <cstddef>
#include <vector>

namespace cleave::dse {

// Whether `a` dominates `b`: the same objectives, `a` no worse in any and better in one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// Indices of the points no other point dominates (<= in every objective, < in one); of equal
// points only the first is kept.
std::vector<std::size_t> non_dominated(const std::vector<std::vector<double>>& points);

// The volume dominated by the points and bounded by `reference`; points that do not strictly
// dominate the reference in every objective add nothing and are left out. 0 for none.
double hypervolume(const std::vector<std::vector<double>>& points,
                   const std::vector<double>& reference);

} // namespace cleave::dse
