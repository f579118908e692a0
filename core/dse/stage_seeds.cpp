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

// The kernels a segment [begin, end) may be cut before: any inside it, or held to a decoder's
// layers, a layer's first.
std::vector<int> cuts_inside(const std::vector<int>& layer_starts, int begin, int end) {
    std::vector<int> cuts;
    for (int cut = begin + 1; cut < end; ++cut)
        if (layer_starts.empty() ||
            std::binary_search(layer_starts.begin(), layer_starts.end(), cut))
            cuts.push_back(cut);
    return cuts;
}

} // namespace

partition::Mapping split_longest_segments(const MappingSpace& space,
                                          const partition::Mapping& mapping, int from_pes,
                                          int to_pes, Balance balance) {
    const auto& costs = space.costs();
    const int kernels = costs.kernel_count();
    // Bytes a run of kernels holds: coefficients and the tensors it produces.
    std::vector<std::int64_t> held_prefix(static_cast<std::size_t>(kernels) + 1, 0);
    for (int k = 0; k < kernels; ++k)
        held_prefix[static_cast<std::size_t>(k) + 1] = held_prefix[static_cast<std::size_t>(k)] +
                                                       costs.weight_bytes(k) +
                                                       costs.output_bytes(k);
    const auto held = [&](int begin, int end) {
        return held_prefix[static_cast<std::size_t>(end)] -
               held_prefix[static_cast<std::size_t>(begin)];
    };
    // Bytes of the tensors that cross the boundary before kernel c (produced before it, read at
    // or after it): what a cut there sends.
    std::vector<std::int64_t> crossing(static_cast<std::size_t>(kernels) + 2, 0);
    for (const auto& t : costs.carried_tensors()) {
        const auto readers = costs.readers(t);
        if (t.producer < 0 || readers.empty())
            continue;
        crossing[static_cast<std::size_t>(t.producer) + 1] += t.bytes;
        crossing[static_cast<std::size_t>(readers.back()) + 1] -= t.bytes;
    }
    for (std::size_t c = 1; c < crossing.size(); ++c)
        crossing[c] += crossing[c - 1];
    // A segment's size, and the larger half of it cut at `cut` (first half on a, second on b):
    // compute time, the transfer at the cut on both sides; or bytes held, the received tensors
    // with the second half.
    const auto size = [&](int pe, int begin, int end) {
        return balance == Balance::compute ? costs.kernels_ms(pe, begin, end)
                                           : static_cast<double>(held(begin, end));
    };
    const auto time_of = [&](int a, int b, int begin, int cut, int end) {
        return std::max(costs.kernels_ms(a, begin, cut), costs.kernels_ms(b, cut, end)) +
               costs.transfer_ms(a, b, crossing[static_cast<std::size_t>(cut)]);
    };
    const auto larger_half = [&](int a, int b, int begin, int cut, int end) {
        return balance == Balance::compute
                   ? time_of(a, b, begin, cut, end)
                   : static_cast<double>(
                         std::max(held(begin, cut),
                                  held(cut, end) + crossing[static_cast<std::size_t>(cut)]));
    };
    std::vector<Segment> segments;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s)
        segments.push_back({s == 0 ? 0 : mapping.points[s - 1],
                            s < mapping.points.size() ? mapping.points[s] : kernels,
                            mapping.pes[s]});
    const auto length = [&](const Segment& g) { return size(g.pe, g.begin, g.end); };
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
        const auto cuts = cuts_inside(space.layer_cuts(), g.begin, g.end);
        if (cuts.empty())
            continue;
        const int stays = g.pe;
        const int moves = space.pes()[static_cast<std::size_t>(added)];
        double best = 0, best_tie = 0;
        bool found = false;
        Segment first, second;
        for (const int cut : cuts)
            for (const auto& [a, b] : {std::pair{stays, moves}, std::pair{moves, stays}}) {
                const double t = larger_half(a, b, g.begin, cut, g.end);
                // Ties (memory does not depend on the PE): the way round that is faster.
                const double tie = time_of(a, b, g.begin, cut, g.end);
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
