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
                                          int to_pes) {
    const auto& costs = space.costs();
    const int kernels = costs.kernel_count();
    std::vector<Segment> segments;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s)
        segments.push_back({s == 0 ? 0 : mapping.points[s - 1],
                            s < mapping.points.size() ? mapping.points[s] : kernels,
                            mapping.pes[s]});
    const auto time = [&](const Segment& g) { return costs.kernels_ms(g.pe, g.begin, g.end); };
    std::vector<std::size_t> longest(segments.size());
    std::iota(longest.begin(), longest.end(), std::size_t{0});
    std::stable_sort(longest.begin(), longest.end(), [&](std::size_t a, std::size_t b) {
        return time(segments[a]) > time(segments[b]);
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
        double best = 0;
        bool found = false;
        Segment first, second;
        for (int cut = g.begin + 1; cut < g.end; ++cut)
            for (const auto& [a, b] : {std::pair{stays, moves}, std::pair{moves, stays}}) {
                const double t =
                    std::max(costs.kernels_ms(a, g.begin, cut), costs.kernels_ms(b, cut, g.end));
                if (!found || t < best) {
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
