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

// The slowest segment's compute time.
double bottleneck_ms(const std::vector<std::vector<double>>& kernel_ms, const Mapping& mapping) {
    const auto& any = kernel_ms[static_cast<std::size_t>(mapping.pes.front())];
    double worst = 0;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s) {
        const auto& row = kernel_ms[static_cast<std::size_t>(mapping.pes[s])];
        const int begin = s == 0 ? 0 : mapping.points[s - 1];
        const int end =
            s + 1 < mapping.pes.size() ? mapping.points[s] : static_cast<int>(any.size());
        worst = std::max(worst, std::accumulate(row.begin() + begin, row.begin() + end, 0.0));
    }
    return worst;
}

// The balanced mapping with splits only where `allowed` (per kernel boundary; empty: anywhere).
std::optional<Mapping> balanced_over(const std::vector<std::vector<double>>& kernel_ms,
                                     const std::vector<int>& pes,
                                     const std::vector<bool>& allowed) {
    const int kernel_count = static_cast<int>(kernel_ms[static_cast<std::size_t>(pes.front())].size());
    // Each PE in turn takes kernels while its compute stays within `limit`, back to the last
    // allowed boundary; a PE that cannot take the next kernels at all is skipped.
    const auto fill = [&](double limit) -> std::optional<Mapping> {
        Mapping mapping;
        int start = 0;
        for (const int pe : pes) {
            const auto& row = kernel_ms[static_cast<std::size_t>(pe)];
            int end = start;
            double sum = 0;
            while (end < kernel_count && sum + row[static_cast<std::size_t>(end)] <= limit)
                sum += row[static_cast<std::size_t>(end++)];
            if (!allowed.empty())
                while (end > start && end < kernel_count && !allowed[static_cast<std::size_t>(end)])
                    --end;
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
    return fill(high);
}

} // namespace

Mapping balanced_mapping(const std::vector<std::vector<double>>& kernel_ms,
                         const std::vector<int>& pes, std::span<const int> crossing) {
    if (pes.empty() || kernel_ms[static_cast<std::size_t>(pes.front())].empty())
        return {};
    const Mapping anywhere = *balanced_over(kernel_ms, pes, {});
    const auto kernel_count = kernel_ms[static_cast<std::size_t>(pes.front())].size();
    if (anywhere.points.empty() || crossing.size() != kernel_count + 1 || kernel_count < 2)
        return anywhere;
    // Where the fewest tensors cross; failing that (BERT's mask crosses every layer), where one
    // or two more do.
    const int fewest = *std::min_element(crossing.begin() + 1, crossing.end() - 1);
    const double slowest = bottleneck_ms(kernel_ms, anywhere) * (1 + kBlockSplitSlack);
    std::vector<bool> allowed(kernel_count + 1, false);
    for (int most = fewest; most <= fewest + 2; ++most) {
        for (std::size_t b = 1; b < kernel_count; ++b)
            allowed[b] = crossing[b] <= most;
        const auto between_blocks = balanced_over(kernel_ms, pes, allowed);
        if (between_blocks && bottleneck_ms(kernel_ms, *between_blocks) <= slowest)
            return *between_blocks;
    }
    return anywhere;
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
    const auto crossing = costs.crossing_tensors();
    Mapping best;
    double best_throughput = -1;
    Evaluation evaluation;
    for (std::size_t n = 1; n <= fastest.size(); ++n) {
        const auto mapping = balanced_mapping(
            kernel_ms,
            std::vector<int>(fastest.begin(), fastest.begin() + static_cast<std::ptrdiff_t>(n)),
            crossing);
        costs.evaluate(mapping, evaluation);
        if (evaluation.throughput_per_s > best_throughput * (1 + 1e-9)) {
            best = mapping;
            best_throughput = evaluation.throughput_per_s;
        }
    }
    return best;
}

} // namespace cleave::partition
