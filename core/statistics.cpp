#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cleave {

double quantile(std::vector<double> values, double q) {
    if (values.empty())
        return 0;
    const double at = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const auto lower = values.begin() + static_cast<std::ptrdiff_t>(below);
    std::nth_element(values.begin(), lower, values.end());
    const double low = *lower;
    if (below + 1 >= values.size())
        return low;
    const double high = *std::min_element(lower + 1, values.end());
    return low + (at - static_cast<double>(below)) * (high - low);
}

double median(std::vector<double> values) {
    return quantile(std::move(values), 0.5);
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

} // namespace cleave
