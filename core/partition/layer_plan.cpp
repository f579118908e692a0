#include "layer_plan.hpp"

#include "core/input_error.hpp"
#include "layer_split.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace cleave::partition {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Per initializer the layers reading it, ascending and each once; then the weights of every
// range [a, b) as a table.
std::vector<std::int64_t> range_weights(const graph::Model& model,
                                        const fusion::KernelGraph& kernels,
                                        const std::vector<int>& layer_of_kernel, int layers) {
    const auto L1 = static_cast<std::size_t>(layers + 1);
    std::vector<std::int64_t> table(L1 * L1, 0);
    for (std::size_t t = 0; t < model.tensors.size(); ++t) {
        const auto& tensor = model.tensors[t];
        if (tensor.kind != graph::Tensor::Kind::Initializer || tensor.bytes() <= 0)
            continue;
        std::vector<int> readers;
        for (const int n : tensor.consumers)
            readers.push_back(layer_of_kernel[static_cast<std::size_t>(
                kernels.kernel_of_node[static_cast<std::size_t>(n)])]);
        std::sort(readers.begin(), readers.end());
        readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
        // Range [a, b) holds it when its first reader at or after a is before b.
        for (int a = 0; a < layers; ++a) {
            const auto first = std::lower_bound(readers.begin(), readers.end(), a);
            if (first == readers.end())
                break;
            table[static_cast<std::size_t>(a) * L1 + static_cast<std::size_t>(*first) + 1] +=
                tensor.bytes();
        }
    }
    for (std::size_t a = 0; a < L1; ++a)
        for (std::size_t b = a + 1; b < L1; ++b)
            table[a * L1 + b] += table[a * L1 + b - 1];
    return table;
}

// Per cut c, the activations a stage ending before layer c sends on, each tensor apart as
// MappingCosts sends them: those made in layer c - 1 and read at or after c (the hidden state; at
// cut 1 also what the embedding's layer makes for every layer).
std::vector<std::vector<std::int64_t>> cut_tensors(const MappingCosts& costs,
                                                   const std::vector<int>& cuts) {
    const int layers = static_cast<int>(cuts.size()) - 1;
    std::vector<std::vector<std::int64_t>> bytes(cuts.size());
    for (const auto& t : costs.carried_tensors()) {
        const auto at = std::upper_bound(cuts.begin(), cuts.end(), t.producer) - cuts.begin();
        const int c = static_cast<int>(at); // the cut after the producer's layer
        if (c < 1 || c >= layers)
            continue;
        const auto readers = costs.readers(t);
        if (!readers.empty() && readers.back() >= cuts[static_cast<std::size_t>(c)])
            bytes[static_cast<std::size_t>(c)].push_back(t.bytes);
    }
    return bytes;
}

// The first PE of each host in the input, for its links.
std::vector<int> host_representatives(const device::Cluster& cluster) {
    std::vector<int> first(cluster.hosts.size(), -1);
    for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe) {
        auto& f = first[cluster.pes[pe].host_index];
        if (f < 0)
            f = static_cast<int>(pe);
    }
    return first;
}

} // namespace

std::int64_t LayerPlanInput::memory_bytes(int a, int b) const {
    std::int64_t activations = 0;
    for (int i = a; i < b; ++i)
        activations = std::max(activations, activation_bytes[static_cast<std::size_t>(i)]);
    return weights(a, b) +
           (kv_token_prefix[static_cast<std::size_t>(b)] -
            kv_token_prefix[static_cast<std::size_t>(a)]) *
               context +
           activations;
}

LayerPlanInput layer_plan_input(const graph::Model& model, const fusion::KernelGraph& kernels,
                                const MappingCosts& costs, const device::Cluster& cluster,
                                const std::vector<int>& usable_pes, const LlmWorkload& workload) {
    const auto layer_of_kernel = kernel_layers(model, kernels);
    const int highest = *std::max_element(layer_of_kernel.begin(), layer_of_kernel.end());
    if (highest < 0)
        throw InputError(model.file, "--exact",
                         "a decoder whose node names give their layer (\"/model/layers.N/...\"); "
                         "none do");
    LayerPlanInput in;
    in.layers = highest + 1;
    const auto L = static_cast<std::size_t>(in.layers);
    const auto points = layer_split_points(model, layer_of_kernel, std::vector<int>(L, 1));
    in.cuts.push_back(0);
    in.cuts.insert(in.cuts.end(), points.begin(), points.end());
    in.cuts.push_back(costs.kernel_count());
    // Layer of every kernel as the cuts give it: the embedding's kernels with layer 0, the
    // head's with the last.
    KernelAssignment by_layer;
    for (std::size_t i = 0; i < L; ++i)
        by_layer.pe_of_kernel.insert(by_layer.pe_of_kernel.end(),
                                     static_cast<std::size_t>(in.cuts[i + 1] - in.cuts[i]),
                                     static_cast<int>(i));
    in.weight_bytes = range_weights(model, kernels, by_layer.pe_of_kernel, in.layers);
    const auto per_layer = llm_pe_memory(model, kernels, by_layer, L, workload);
    in.context = workload.cached_context();
    in.kv_token_prefix.assign(L + 1, 0);
    for (std::size_t i = 0; i < L; ++i) {
        in.kv_token_prefix[i + 1] = in.kv_token_prefix[i] + per_layer[i].kv_bytes_per_token;
        in.activation_bytes.push_back(per_layer[i].activation_bytes);
    }
    std::vector<std::int64_t> room(cluster.pes.size(), std::numeric_limits<std::int64_t>::max());
    for (const auto& pool : memory_pools(cluster))
        if (pool.capacity_bytes)
            for (const int pe : pool.pes)
                room[static_cast<std::size_t>(pe)] = *pool.capacity_bytes - pool.reserve_bytes;
    in.hosts = static_cast<int>(cluster.hosts.size());
    for (const int pe : usable_pes) {
        LayerPlanInput::Pe p;
        p.cluster_pe = pe;
        p.host = static_cast<int>(cluster.pes[static_cast<std::size_t>(pe)].host_index);
        for (const int cut : in.cuts)
            p.prefix_ms.push_back(costs.kernels_ms(pe, 0, cut));
        p.room_bytes = room[static_cast<std::size_t>(pe)];
        in.pes.push_back(std::move(p));
    }
    std::stable_sort(in.pes.begin(), in.pes.end(),
                     [](const auto& x, const auto& y) { return x.host < y.host; });
    const auto tensors = cut_tensors(costs, in.cuts);
    const auto first = host_representatives(cluster);
    const auto H = static_cast<std::size_t>(in.hosts);
    in.hop_ms.assign(H * H * (L + 1), 0.0);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t r = 0; r < H; ++r)
            if (h != r)
                for (std::size_t c = 0; c <= L; ++c)
                    for (const auto bytes : tensors[c])
                        in.hop_ms[(h * H + r) * (L + 1) + c] +=
                            costs.transfer_ms(first[h], first[r], bytes);
    return in;
}

namespace {

// The program's tables: a state is (hosts used, the last of them, the layers covered, the next
// host's class), its value the objective over the stages so far, each stage's send included:
// class 0 means no next stage, otherwise (links all alike) 1 means some next host, or (links
// differing) host + 1.
class Program {
public:
    Program(const LayerPlanInput& input, PlanObjective objective)
        : in_(input), objective_(objective), H_(input.hosts), L_(input.layers) {
        uniform_ = links_alike();
        N_ = uniform_ ? 2 : H_ + 1;
        const std::size_t states = (std::size_t{1} << H_) * static_cast<std::size_t>(H_) *
                                   static_cast<std::size_t>(L_ + 1) * static_cast<std::size_t>(N_);
        value_.assign(states, kInf);
        from_.assign(states, -1);
        pe_.assign(states, -1);
        host_pes_.resize(static_cast<std::size_t>(H_));
        for (std::size_t p = 0; p < in_.pes.size(); ++p)
            host_pes_[static_cast<std::size_t>(in_.pes[p].host)].push_back(static_cast<int>(p));
    }

    std::optional<LayerPlan> solve() {
        for (int r = 0; r < H_; ++r)
            extend(-1, 0, -1, 0, r);
        for (std::size_t mask = 1; mask < (std::size_t{1} << H_); ++mask)
            for (int h = 0; h < H_; ++h) {
                if (!(mask >> h & 1))
                    continue;
                for (int a = 1; a < L_; ++a)
                    for (int n = 1; n < N_; ++n) {
                        const auto s = index(mask, h, a, n);
                        if (value_[s] == kInf)
                            continue;
                        if (uniform_) {
                            for (int r = 0; r < H_; ++r)
                                if (!(mask >> r & 1))
                                    extend(static_cast<std::ptrdiff_t>(s), mask, h, a, r);
                        } else if (!(mask >> (n - 1) & 1)) {
                            extend(static_cast<std::ptrdiff_t>(s), mask, h, a, n - 1);
                        }
                    }
            }
        std::ptrdiff_t best = -1;
        for (std::size_t mask = 1; mask < (std::size_t{1} << H_); ++mask)
            for (int h = 0; h < H_; ++h) {
                const auto s = index(mask, h, L_, 0);
                if (value_[s] < kInf &&
                    (best < 0 || value_[s] < value_[static_cast<std::size_t>(best)]))
                    best = static_cast<std::ptrdiff_t>(s);
            }
        if (best < 0)
            return std::nullopt;
        return trace(best);
    }

private:
    // Whether every pair of hosts has host 0 and 1's link, cut by cut.
    bool links_alike() const {
        for (int h = 0; h < H_; ++h)
            for (int r = 0; r < H_; ++r)
                for (int c = 0; c <= L_ && h != r; ++c)
                    if (in_.hop(h, r, c) != in_.hop(0, 1, c))
                        return false;
        return true;
    }

    std::size_t index(std::size_t mask, int h, int a, int n) const {
        return ((mask * static_cast<std::size_t>(H_) + static_cast<std::size_t>(h)) *
                    static_cast<std::size_t>(L_ + 1) +
                static_cast<std::size_t>(a)) *
                   static_cast<std::size_t>(N_) +
               static_cast<std::size_t>(n);
    }

    // Host r's stage from layer a on, after host h's (h < 0: r's is the first) in state `from`.
    void extend(std::ptrdiff_t from, std::size_t mask, int h, int a, int r) {
        const double before = from < 0 ? 0.0 : value_[static_cast<std::size_t>(from)];
        const double receive = h < 0 ? 0.0 : in_.hop(h, r, a);
        const std::size_t next_mask = mask | (std::size_t{1} << r);
        const auto& pes = host_pes_[static_cast<std::size_t>(r)];
        std::int64_t largest_activations = 0;
        for (int b = a + 1; b <= L_; ++b) {
            largest_activations = std::max(largest_activations,
                                           in_.activation_bytes[static_cast<std::size_t>(b - 1)]);
            const std::int64_t memory = in_.weights(a, b) +
                                        (in_.kv_token_prefix[static_cast<std::size_t>(b)] -
                                         in_.kv_token_prefix[static_cast<std::size_t>(a)]) *
                                            in_.context +
                                        largest_activations;
            int pe = -1;
            double compute = kInf;
            for (const int p : pes) {
                const auto& q = in_.pes[static_cast<std::size_t>(p)];
                if (memory > q.room_bytes)
                    continue;
                const double ms = q.prefix_ms[static_cast<std::size_t>(b)] -
                                  q.prefix_ms[static_cast<std::size_t>(a)];
                if (ms < compute) {
                    compute = ms;
                    pe = p;
                }
            }
            if (pe < 0)
                return; // more layers hold more: no PE of r takes any longer range
            if (b == L_) {
                settle(from, before, receive, compute, 0.0, index(next_mask, r, b, 0), pe);
                return;
            }
            if (uniform_) {
                if (next_mask + 1 < (std::size_t{1} << H_)) // some host is left to follow
                    settle(from, before, receive, compute, in_.hop(0, 1, b),
                           index(next_mask, r, b, 1), pe);
                continue;
            }
            for (int s = 0; s < H_; ++s)
                if (!(next_mask >> s & 1))
                    settle(from, before, receive, compute, in_.hop(r, s, b),
                           index(next_mask, r, b, s + 1), pe);
        }
    }

    void settle(std::ptrdiff_t from, double before, double receive, double compute, double send,
                std::size_t to, int pe) {
        const double value = objective_ == PlanObjective::TimePerToken
                                 ? before + compute + send
                                 : std::max(before, receive + compute + send);
        if (value < value_[to]) {
            value_[to] = value;
            from_[to] = from;
            pe_[to] = pe;
        }
    }

    LayerPlan trace(std::ptrdiff_t last) const {
        std::vector<std::pair<int, int>> stages; // (input PE, end layer), last first
        for (std::ptrdiff_t s = last; s >= 0; s = from_[static_cast<std::size_t>(s)]) {
            const auto i = static_cast<std::size_t>(s);
            const int end = static_cast<int>((i / static_cast<std::size_t>(N_)) %
                                             static_cast<std::size_t>(L_ + 1));
            stages.emplace_back(pe_[i], end);
        }
        std::reverse(stages.begin(), stages.end());
        std::vector<int> pes, layers;
        int begin = 0;
        for (const auto& [pe, end] : stages) {
            pes.push_back(in_.pes[static_cast<std::size_t>(pe)].cluster_pe);
            layers.push_back(end - begin);
            begin = end;
        }
        return layer_plan_of(in_, pes, layers);
    }

    const LayerPlanInput& in_;
    PlanObjective objective_;
    int H_, L_, N_ = 2;
    bool uniform_ = true;
    std::vector<double> value_;
    std::vector<std::ptrdiff_t> from_; // the state before; -1 for a first stage
    std::vector<int> pe_;
    std::vector<std::vector<int>> host_pes_;
};

} // namespace

std::optional<LayerPlan> best_layer_plan(const LayerPlanInput& input, PlanObjective objective) {
    if (input.hosts > kMaxExactHosts)
        throw InputError("", "--exact",
                         "a cluster of at most " + std::to_string(kMaxExactHosts) +
                             " hosts for an exact plan, found " + std::to_string(input.hosts));
    if (input.hosts < 1 || input.layers < 1 || input.pes.empty())
        return std::nullopt;
    return Program(input, objective).solve();
}

LayerPlan layer_plan_of(const LayerPlanInput& input, const std::vector<int>& stage_pes,
                        const std::vector<int>& layers) {
    LayerPlan plan;
    plan.pes = stage_pes;
    plan.layers = layers;
    const auto input_pe = [&](int cluster_pe) -> const LayerPlanInput::Pe& {
        for (const auto& p : input.pes)
            if (p.cluster_pe == cluster_pe)
                return p;
        throw InputError("", "--pes", "a PE with latencies for every stage");
    };
    int a = 0;
    for (std::size_t s = 0; s < stage_pes.size(); ++s) {
        const int b = a + layers[s];
        const auto& p = input_pe(stage_pes[s]);
        const double compute =
            p.prefix_ms[static_cast<std::size_t>(b)] - p.prefix_ms[static_cast<std::size_t>(a)];
        const double receive = s > 0 ? input.hop(input_pe(stage_pes[s - 1]).host, p.host, a) : 0.0;
        const double send =
            s + 1 < stage_pes.size() ? input.hop(p.host, input_pe(stage_pes[s + 1]).host, b) : 0.0;
        plan.latency_ms += compute + send;
        plan.bottleneck_ms = std::max(plan.bottleneck_ms, receive + compute + send);
        plan.memory_bytes.push_back(input.memory_bytes(a, b));
        if (s > 0)
            plan.mapping.points.push_back(input.cuts[static_cast<std::size_t>(a)]);
        plan.mapping.pes.push_back(stage_pes[s]);
        a = b;
    }
    return plan;
}

std::int64_t largest_fitting_context(LayerPlanInput input, std::int64_t longest) {
    const auto fits = [&](std::int64_t context) {
        input.context = context;
        return best_layer_plan(input, PlanObjective::Bottleneck).has_value();
    };
    if (!fits(1))
        return 0;
    std::int64_t low = 1, high = longest; // fits(low); the answer is in [low, high]
    if (fits(high))
        return high;
    while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        (fits(middle) ? low : high) = middle;
    }
    return low;
}

} // namespace cleave::partition
