// The two figures every measurement reports: the median of repeated timings and their
// coefficient of variation, the spread that decides whether a round is measured again.
#pragma once

#include <vector>

namespace cleave::profile {

double median(std::vector<double> values); // 0 for no values

// Sample standard deviation over the mean; 0 for fewer than two values or a zero mean.
double coefficient_of_variation(const std::vector<double>& values);

} // namespace cleave::profile
