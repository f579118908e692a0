#include "waiting_cycle.hpp"

#include <algorithm>

namespace cleave::partition {

std::vector<int> waiting_cycle(int count, const std::vector<std::pair<int, int>>& waits,
                               WaitingScratch& s) {
    const auto n = static_cast<std::size_t>(count);
    // Kahn's algorithm: a part is done once every part it waits on is done.
    s.pending.assign(n, 0);
    for (const auto& [r, q] : waits)
        ++s.pending[static_cast<std::size_t>(r)];
    s.ready.clear();
    for (std::size_t r = 0; r < n; ++r)
        if (s.pending[r] == 0)
            s.ready.push_back(static_cast<int>(r));
    s.done.assign(n, 0);
    std::size_t finished = 0;
    while (!s.ready.empty()) {
        const int q = s.ready.back();
        s.ready.pop_back();
        s.done[static_cast<std::size_t>(q)] = 1;
        ++finished;
        for (const auto& [r, on] : waits)
            if (on == q && --s.pending[static_cast<std::size_t>(r)] == 0)
                s.ready.push_back(r);
    }
    if (finished == n)
        return {};
    // Every part left waits on another part left: walk back until one repeats.
    s.path.assign(1, static_cast<int>(std::find(s.done.begin(), s.done.end(), 0) - s.done.begin()));
    while (true) {
        const int r = s.path.back();
        const auto before = std::find_if(waits.begin(), waits.end(), [&](const auto& w) {
            return w.first == r && !s.done[static_cast<std::size_t>(w.second)];
        });
        const int q = before->second;
        const auto seen = std::find(s.path.begin(), s.path.end(), q);
        if (seen != s.path.end()) {
            std::vector<int> cycle(seen, s.path.end());
            std::reverse(cycle.begin(), cycle.end());
            return cycle;
        }
        s.path.push_back(q);
    }
}

std::vector<int> waiting_cycle(int count, const std::vector<std::pair<int, int>>& waits) {
    WaitingScratch scratch;
    return waiting_cycle(count, waits, scratch);
}

} // namespace cleave::partition
