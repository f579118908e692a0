#include "equal_node_points.hpp"

#include "core/input_error.hpp"

#include <cstdlib>

namespace cleave::partition {

std::vector<int> equal_node_points(const fusion::KernelGraph& kernels, int parts) {
    const int count = static_cast<int>(kernels.kernels.size());
    if (parts < 1 || parts > count)
        throw InputError("", "--parts",
                         std::to_string(parts) + " parts: expected 1 to " + std::to_string(count) +
                             " (the model has " + std::to_string(count) + " kernels)");
    // before[j]: nodes in kernels [0, j).
    std::vector<long long> before(static_cast<std::size_t>(count) + 1, 0);
    for (int k = 0; k < count; ++k)
        before[static_cast<std::size_t>(k) + 1] =
            before[static_cast<std::size_t>(k)] +
            static_cast<long long>(kernels.kernels[static_cast<std::size_t>(k)].nodes.size());
    const long long nodes = before.back();
    std::vector<int> points;
    for (int s = 1; s < parts; ++s) {
        // Leave room for the cuts still to come and stay after the previous one.
        const int low = points.empty() ? 1 : points.back() + 1;
        const int high = count - (parts - s);
        int best = low;
        for (int j = low; j <= high; ++j)
            if (std::llabs(before[static_cast<std::size_t>(j)] * parts - nodes * s) <
                std::llabs(before[static_cast<std::size_t>(best)] * parts - nodes * s))
                best = j;
        points.push_back(best);
    }
    return points;
}

} // namespace cleave::partition
