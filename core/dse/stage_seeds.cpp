#include "stage_seeds.hpp"

#include <algorithm>
#include <numeric>

namespace cleave::dse {

namespace {

struct Segment {
    int begin = 0;
    int end = 0;
    int pe = 0; // cluster PE
};

} // namespace

partition::Mapping split_longest_segments(const MappingSpace& space,
                                          const partition::Mapping& mapping, int from_pes,
                                          int to_pes, Balance balance) {
    const auto& costs = space.costs();
    const int kernels = costs.kernel_count();
    // Bytes a run of kernels holds: coefficients and the tensors it produces.
    std::vector<double> bytes_prefix(static_cast<std::size_t>(kernels) + 1, 0.0);
    for (int k = 0; k < kernels; ++k)
        bytes_prefix[static_cast<std::size_t>(k) + 1] =
            bytes_prefix[static_cast<std::size_t>(k)] +
            static_cast<double>(costs.weight_bytes(k) + costs.output_bytes(k));
    const auto load = [&](int pe, int begin, int end) {
        return balance == Balance::compute ? costs.kernels_ms(pe, begin, end)
                                           : bytes_prefix[static_cast<std::size_t>(end)] -
                                                 bytes_prefix[static_cast<std::size_t>(begin)];
    };
    std::vector<Segment> segments;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s)
        segments.push_back({s == 0 ? 0 : mapping.points[s - 1],
                            s < mapping.points.size() ? mapping.points[s] : kernels,
                            mapping.pes[s]});
    const auto length = [&](const Segment& g) { return load(g.pe, g.begin, g.end); };
    std::vector<std::size_t> longest(segments.size());
    std::iota(longest.begin(), longest.end(), std::size_t{0});
    std::stable_sort(longest.begin(), longest.end(), [&](std::size_t a, std::size_t b) {
        return length(segments[a]) > length(segments[b]);
    });

    std::vector<Segment> out = segments;
    int added = from_pes;
    for (const std::size_t s : longest) {
        if (added >= to_pes)
            break;
        const Segment& g = segments[s];
        if (g.end - g.begin < 2)
            continue;
        const int stays = g.pe;
        const int moves = space.pes()[static_cast<std::size_t>(added)];
        double best = 0, best_tie = 0;
        bool found = false;
        Segment first, second;
        for (int cut = g.begin + 1; cut < g.end; ++cut)
            for (const auto& [a, b] : {std::pair{stays, moves}, std::pair{moves, stays}}) {
                const double t = std::max(load(a, g.begin, cut), load(b, cut, g.end));
                // Ties (memory does not depend on the PE): the way round that is faster.
                const double tie =
                    std::max(costs.kernels_ms(a, g.begin, cut), costs.kernels_ms(b, cut, g.end));
                if (!found || t < best || (t == best && tie < best_tie)) {
                    best_tie = tie;
                    found = true;
                    best = t;
                    first = {g.begin, cut, a};
                    second = {cut, g.end, b};
                }
            }
        out[s] = first;
        out.push_back(second);
        ++added;
    }
    std::sort(out.begin(), out.end(),
              [](const Segment& a, const Segment& b) { return a.begin < b.begin; });
    partition::Mapping refined;
    for (const auto& g : out) {
        if (!refined.pes.empty() && refined.pes.back() == g.pe)
            continue; // adjacent segments on one PE are one segment
        if (!refined.pes.empty())
            refined.points.push_back(g.begin);
        refined.pes.push_back(g.pe);
    }
    return refined;
}

} // namespace cleave::dse
