// Parts of a split model that would wait on each other. Part r waits on part q when r reads a
// tensor q produces; parts that run each input once, each as a whole (AutoDiCE's sub-models, one
// per PE), can run only when no part waits, through others, on itself.
#pragma once

#include <utility>
#include <vector>

namespace cleave::partition {

// `waits`: (r, q) pairs, part r waits on part q, over parts 0..count-1; repeats allowed. Returns
// the parts of one cycle in the order the tensors flow (each feeds the next, the last the first),
// or nothing when there is none. `scratch` (optional) keeps buffers between calls.
struct WaitingScratch {
    std::vector<int> pending, ready, path;
    std::vector<char> done;
};
std::vector<int> waiting_cycle(int count, const std::vector<std::pair<int, int>>& waits,
                               WaitingScratch& scratch);
std::vector<int> waiting_cycle(int count, const std::vector<std::pair<int, int>>& waits);

} // namespace cleave::partition
