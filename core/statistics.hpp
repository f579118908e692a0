// The project's statistics of repeated values: one quantile definition for every median, 5th and
// 95th percentile it reports or fits with, and the spread that decides whether a measurement
// round is repeated.
#pragma once

#include <vector>

namespace cleave {

// Linear interpolation between the order statistics (Hyndman and Fan's type 7, the default of R
// and NumPy): at (n - 1) q, so q = 0.5 is the median (the mean of the two middle values of an
// even count), 0 and 1 the extremes. q is clamped to [0, 1]; 0 for no values.
double quantile(std::vector<double> values, double q);

double median(std::vector<double> values); // quantile(values, 0.5)

// Sample standard deviation over the mean; 0 for fewer than two values or a zero mean.
double coefficient_of_variation(const std::vector<double>& values);

} // namespace cleave
