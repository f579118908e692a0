#include "timing_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cleave::profile {

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1)
        return *middle;
    return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

double coefficient_of_variation(const std::vector<double>& values) {
    if (values.size() < 2)
        return 0;
    const double n = static_cast<double>(values.size());
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    if (mean == 0)
        return 0;
    double squares = 0;
    for (const double v : values)
        squares += (v - mean) * (v - mean);
    return std::sqrt(squares / (n - 1)) / mean;
}

} // namespace cleave::profile
