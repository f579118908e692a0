#include "balanced_mapping.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace cleave::partition {

namespace {

double total_ms(const std::vector<std::vector<double>>& kernel_ms, int pe) {
    const auto& row = kernel_ms[static_cast<std::size_t>(pe)];
    return std::accumulate(row.begin(), row.end(), 0.0);
}

} // namespace

Mapping balanced_mapping(const std::vector<std::vector<double>>& kernel_ms,
                         const std::vector<int>& pes) {
    if (pes.empty())
        return {};
    const int kernel_count = static_cast<int>(kernel_ms[static_cast<std::size_t>(pes.front())].size());
    if (kernel_count == 0)
        return {};
    // Each PE in turn takes kernels while its compute stays within `limit`; a PE that cannot take
    // the next kernel at all is skipped.
    const auto fill = [&](double limit) -> std::optional<Mapping> {
        Mapping mapping;
        int start = 0;
        for (const int pe : pes) {
            const auto& row = kernel_ms[static_cast<std::size_t>(pe)];
            int end = start;
            double sum = 0;
            while (end < kernel_count && sum + row[static_cast<std::size_t>(end)] <= limit)
                sum += row[static_cast<std::size_t>(end++)];
            if (end == start)
                continue;
            if (!mapping.pes.empty())
                mapping.points.push_back(start);
            mapping.pes.push_back(pe);
            start = end;
            if (start == kernel_count)
                return mapping;
        }
        return std::nullopt;
    };
    double low = 0;
    double high = total_ms(kernel_ms, pes.front()) * (1 + 1e-9) + 1e-12; // all on the first fits
    for (int step = 0; step < 64 && high - low > 1e-9 * high; ++step) {
        const double middle = (low + high) / 2;
        (fill(middle) ? high : low) = middle;
    }
    return *fill(high);
}

Mapping default_mapping(const MappingCosts& costs, const device::Cluster& cluster,
                        const std::vector<std::vector<double>>& kernel_ms) {
    std::vector<int> fastest; // the fastest PE of each host
    for (std::size_t host = 0; host < cluster.hosts.size(); ++host) {
        int best = -1;
        for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
            if (cluster.pes[pe].host_index == host && !kernel_ms[pe].empty() &&
                (best < 0 ||
                 total_ms(kernel_ms, static_cast<int>(pe)) < total_ms(kernel_ms, best)))
                best = static_cast<int>(pe);
        if (best >= 0)
            fastest.push_back(best);
    }
    std::stable_sort(fastest.begin(), fastest.end(), [&](int a, int b) {
        return total_ms(kernel_ms, a) < total_ms(kernel_ms, b);
    });
    Mapping best;
    double best_throughput = -1;
    Evaluation evaluation;
    for (std::size_t n = 1; n <= fastest.size(); ++n) {
        const auto mapping = balanced_mapping(
            kernel_ms,
            std::vector<int>(fastest.begin(), fastest.begin() + static_cast<std::ptrdiff_t>(n)));
        costs.evaluate(mapping, evaluation);
        if (evaluation.throughput_per_s > best_throughput * (1 + 1e-9)) {
            best = mapping;
            best_throughput = evaluation.throughput_per_s;
        }
    }
    return best;
}

} // namespace cleave::partition
