#include "replay.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace cleave::partition {

namespace {

// One step of one input: a kernel on `pe`, or a tensor sent from `pe` to `peer`. A transfer is a
// blocking send/receive (AutoDiCE's MPI): both PEs and the link are held for its whole time.
struct Op {
    int pe = -1;
    int peer = -1; // -1: a kernel
    int link = -1; // -1: no network (a kernel, or PEs of one host)
    double ms = 0;
};

// The ops of one input in a single global order: every kernel in topological order, each
// followed by the transfers of its outputs. Every PE runs the subsequence it takes part in, so
// the data a kernel reads has always arrived before it starts, and no two PEs can wait on each
// other (each waits only for an op earlier in the order). Kernels that follow each other on a PE
// with no transfer of that PE between them are one op of their summed time: the PE runs them
// back to back either way, so the times are the same with far fewer events.
class OpsBuilder {
public:
    explicit OpsBuilder(const MappingCosts& costs)
        : costs_(costs), open_(static_cast<std::size_t>(costs.pe_count()), -1) {}

    void kernels(int pe, double ms) {
        int& open = open_[static_cast<std::size_t>(pe)];
        if (open >= 0) {
            ops_[static_cast<std::size_t>(open)].ms += ms;
            return;
        }
        open = static_cast<int>(ops_.size());
        ops_.push_back({pe, -1, -1, ms});
    }

    void transfer(int from, int to, std::int64_t bytes) {
        open_[static_cast<std::size_t>(from)] = open_[static_cast<std::size_t>(to)] = -1;
        const int H = costs_.host_count();
        const int a = costs_.host_of(from), b = costs_.host_of(to);
        const int link = a == b ? -1 : std::min(a, b) * H + std::max(a, b);
        ops_.push_back({from, to, link, costs_.transfer_ms(from, to, bytes)});
    }

    std::vector<Op> take() { return std::move(ops_); }

private:
    const MappingCosts& costs_;
    std::vector<int> open_; // per PE: its kernel op that the next kernel joins, or -1
    std::vector<Op> ops_;
};

std::vector<Op> ops_of(const MappingCosts& costs, const KernelAssignment& assignment) {
    const int K = costs.kernel_count();
    const auto& pe_of = assignment.pe_of_kernel;
    const auto& carried = costs.carried_tensors();
    OpsBuilder ops(costs);
    std::vector<int> seen;
    std::size_t t = 0;
    for (int k = 0; k < K; ++k) {
        const int q = pe_of[static_cast<std::size_t>(k)];
        ops.kernels(q, costs.kernel_ms(q, k));
        // Each tensor to every other PE that reads it, in the order of their first readers.
        for (; t < carried.size() && carried[t].producer == k; ++t) {
            seen.clear();
            for (const int reader : costs.readers(carried[t])) {
                const int r = pe_of[static_cast<std::size_t>(reader)];
                if (r == q || std::find(seen.begin(), seen.end(), r) != seen.end())
                    continue;
                seen.push_back(r);
                ops.transfer(q, r, carried[t].bytes);
            }
        }
    }
    return ops.take();
}

// The same ops from a split-point mapping, segment by segment: a segment's kernels between the
// producers of tensors it sends are one op, from the latency prefix sums, so the ops cost
// O(segments + crossing tensors), not O(kernels).
std::vector<Op> ops_of(const MappingCosts& costs, const Mapping& mapping) {
    const int segments = static_cast<int>(mapping.pes.size());
    const auto& carried = costs.carried_tensors();
    OpsBuilder ops(costs);
    std::vector<int> seen;
    std::vector<std::pair<int, int>> sends; // (carried tensor, receiving PE)
    int a = 0;
    for (int s = 0; s < segments; ++s) {
        const int b = s + 1 < segments ? mapping.points[static_cast<std::size_t>(s)]
                                       : costs.kernel_count();
        const int q = mapping.pes[static_cast<std::size_t>(s)];
        sends.clear();
        costs.segment_sends(mapping, s, seen, [&](int c, int r) { sends.emplace_back(c, r); });
        // In producer order, as the kernel-by-kernel ops have them; a tensor's receivers as found.
        std::stable_sort(sends.begin(), sends.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        int done = a;
        for (const auto& [c, r] : sends) {
            const auto& t = carried[static_cast<std::size_t>(c)];
            if (t.producer + 1 > done) {
                ops.kernels(q, costs.kernels_ms(q, done, t.producer + 1));
                done = t.producer + 1;
            }
            ops.transfer(q, r, t.bytes);
        }
        if (b > done)
            ops.kernels(q, costs.kernels_ms(q, done, b));
        a = b;
    }
    return ops.take();
}

class Simulation {
public:
    Simulation(const MappingCosts& costs, std::vector<Op> ops, const ReplayOptions& options)
        : ops_(std::move(ops)), inputs_(options.inputs), interval_ms_(options.interval_ms) {
        const auto P = static_cast<std::size_t>(costs.pe_count());
        const auto H = static_cast<std::size_t>(costs.host_count());
        programs_.resize(P);
        for (std::size_t o = 0; o < ops_.size(); ++o) {
            programs_[static_cast<std::size_t>(ops_[o].pe)].push_back(static_cast<int>(o));
            if (ops_[o].peer >= 0)
                programs_[static_cast<std::size_t>(ops_[o].peer)].push_back(static_cast<int>(o));
        }
        pes_.resize(P);
        link_busy_.assign(H * H, false);
        link_queue_.resize(H * H);
        link_ms_.assign(H * H, 0.0);
        link_transfers_.assign(H * H, 0);
        done_ms_.assign(static_cast<std::size_t>(inputs_), 0.0);
    }

    Replay run(const MappingCosts& costs) {
        for (int n = 0; n < inputs_; ++n)
            events_.push({n * interval_ms_, sequence_++, -1, n});
        while (!events_.empty()) {
            const Event e = events_.top();
            events_.pop();
            if (e.op < 0) {
                arrived_ = e.input + 1;
                for (std::size_t pe = 0; pe < pes_.size(); ++pe)
                    try_start(static_cast<int>(pe), e.ms);
            } else {
                finish(e);
            }
        }
        for (std::size_t pe = 0; pe < pes_.size(); ++pe)
            if (!programs_[pe].empty() && pes_[pe].input != inputs_)
                throw std::logic_error("replay: PE " + std::to_string(pe) + " stopped at input " +
                                       std::to_string(pes_[pe].input));
        return report(costs);
    }

private:
    enum class State { idle, waiting, busy };
    struct PeState {
        State state = State::idle;
        int input = 0; // the input it works on
        int next = 0;  // index into its program
        double compute_ms = 0;
        double busy_ms = 0;
    };
    struct Event {
        double ms;
        long sequence;
        int op; // -1: input `input` arrives
        int input;
        bool operator>(const Event& o) const {
            return std::tie(ms, sequence) > std::tie(o.ms, o.sequence);
        }
    };
    struct Waiting { // a transfer whose PEs are ready, waiting for its link
        double since_ms;
        int input;
        int op;
        bool operator>(const Waiting& o) const {
            return std::tie(since_ms, input, op) > std::tie(o.since_ms, o.input, o.op);
        }
    };

    bool at(int pe, int input, int op) const {
        const auto& s = pes_[static_cast<std::size_t>(pe)];
        return s.state == State::idle && s.input == input &&
               programs_[static_cast<std::size_t>(pe)][static_cast<std::size_t>(s.next)] == op;
    }

    void try_start(int pe, double now) {
        const auto& s = pes_[static_cast<std::size_t>(pe)];
        const auto& program = programs_[static_cast<std::size_t>(pe)];
        if (s.state != State::idle || s.input >= arrived_ || program.empty())
            return;
        const int o = program[static_cast<std::size_t>(s.next)];
        const Op& op = ops_[static_cast<std::size_t>(o)];
        if (op.peer >= 0) {
            const int other = op.pe == pe ? op.peer : op.pe;
            if (!at(other, s.input, o))
                return; // the other end starts it when it gets here
            if (op.link >= 0 && link_busy_[static_cast<std::size_t>(op.link)]) {
                pes_[static_cast<std::size_t>(op.pe)].state = State::waiting;
                pes_[static_cast<std::size_t>(op.peer)].state = State::waiting;
                link_queue_[static_cast<std::size_t>(op.link)].push({now, s.input, o});
                return;
            }
        }
        start(o, s.input, now);
    }

    void start(int o, int input, double now) {
        const Op& op = ops_[static_cast<std::size_t>(o)];
        for (const int pe : {op.pe, op.peer}) {
            if (pe < 0)
                continue;
            auto& s = pes_[static_cast<std::size_t>(pe)];
            s.state = State::busy;
            s.busy_ms += op.ms;
            if (op.peer < 0)
                s.compute_ms += op.ms;
        }
        if (op.link >= 0) {
            link_busy_[static_cast<std::size_t>(op.link)] = true;
            link_ms_[static_cast<std::size_t>(op.link)] += op.ms;
            ++link_transfers_[static_cast<std::size_t>(op.link)];
        }
        events_.push({now + op.ms, sequence_++, o, input});
    }

    void finish(const Event& e) {
        const Op& op = ops_[static_cast<std::size_t>(e.op)];
        auto& done = done_ms_[static_cast<std::size_t>(e.input)];
        done = std::max(done, e.ms);
        for (const int pe : {op.pe, op.peer}) {
            if (pe < 0)
                continue;
            auto& s = pes_[static_cast<std::size_t>(pe)];
            s.state = State::idle;
            if (++s.next == static_cast<int>(programs_[static_cast<std::size_t>(pe)].size())) {
                s.next = 0;
                ++s.input;
            }
        }
        if (op.link >= 0) {
            const auto link = static_cast<std::size_t>(op.link);
            link_busy_[link] = false;
            if (!link_queue_[link].empty()) {
                const Waiting w = link_queue_[link].top();
                link_queue_[link].pop();
                start(w.op, w.input, e.ms);
            }
        }
        for (const int pe : {op.pe, op.peer})
            if (pe >= 0)
                try_start(pe, e.ms);
    }

    Replay report(const MappingCosts& costs) const {
        Replay out;
        out.inputs = inputs_;
        out.interval_ms = interval_ms_;
        out.pes.resize(pes_.size());
        for (int n = 0; n < inputs_; ++n) {
            const double done = done_ms_[static_cast<std::size_t>(n)];
            out.latency_ms.push_back(done - n * interval_ms_);
            out.mean_latency_ms += out.latency_ms.back() / inputs_;
            out.makespan_ms = std::max(out.makespan_ms, done);
        }
        if (inputs_ > 0)
            out.first_latency_ms = out.latency_ms.front();
        // Steady state: inputs finished per second between the middle and the last input.
        if (inputs_ >= 2) {
            const int from = std::min(inputs_ / 2, inputs_ - 2);
            const double span = done_ms_.back() - done_ms_[static_cast<std::size_t>(from)];
            out.throughput_per_s = span > 0 ? 1e3 * (inputs_ - 1 - from) / span : 0;
        } else if (inputs_ == 1 && out.first_latency_ms > 0) {
            out.throughput_per_s = 1e3 / out.first_latency_ms;
        }
        const auto share = [&](double ms) {
            return out.makespan_ms > 0 ? ms / out.makespan_ms : 0;
        };
        for (std::size_t pe = 0; pe < pes_.size(); ++pe)
            out.pes[pe] = {pes_[pe].compute_ms, pes_[pe].busy_ms, share(pes_[pe].busy_ms)};
        const int H = costs.host_count();
        for (int a = 0; a < H; ++a)
            for (int b = a + 1; b < H; ++b) {
                const auto link = static_cast<std::size_t>(a * H + b);
                if (link_transfers_[link] > 0)
                    out.links.push_back(
                        {a, b, link_transfers_[link], link_ms_[link], share(link_ms_[link])});
            }
        return out;
    }

    std::vector<Op> ops_;
    int inputs_ = 0;
    double interval_ms_ = 0;
    std::vector<std::vector<int>> programs_; // per PE: its ops for one input, in order
    std::vector<PeState> pes_;
    std::vector<bool> link_busy_; // [host_a * H + host_b], host_a < host_b
    std::vector<std::priority_queue<Waiting, std::vector<Waiting>, std::greater<>>> link_queue_;
    std::vector<double> link_ms_;
    std::vector<int> link_transfers_;
    std::vector<double> done_ms_; // per input: when its last op ended
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    long sequence_ = 0; // ties in time go in the order the events were made
    int arrived_ = 0;   // inputs [0, arrived_) have arrived
};

} // namespace

Replay replay(const MappingCosts& costs, const KernelAssignment& assignment,
              const ReplayOptions& options) {
    Simulation simulation(costs, ops_of(costs, assignment), options);
    return simulation.run(costs);
}

Replay replay(const MappingCosts& costs, const Mapping& mapping, const ReplayOptions& options) {
    Simulation simulation(costs, ops_of(costs, mapping), options);
    return simulation.run(costs);
}

std::vector<std::int64_t> peak_live_bytes(const MappingCosts& costs,
                                          const KernelAssignment& assignment) {
    const int K = costs.kernel_count();
    const auto P = static_cast<std::size_t>(costs.pe_count());
    const auto row = static_cast<std::size_t>(K + 1);
    const auto& pe_of = assignment.pe_of_kernel;
    // delta[pe * (K + 1) + k]: bytes that become live on pe at kernel k (negative: freed).
    std::vector<std::int64_t> delta(P * row, 0);
    std::vector<std::pair<int, int>> last; // (PE, its last reader of the tensor)
    for (const auto* list : {&costs.carried_tensors(), &costs.graph_inputs()})
        for (const auto& t : *list) {
            last.clear();
            for (const int reader : costs.readers(t)) {
                const int r = pe_of[static_cast<std::size_t>(reader)];
                auto it = std::find_if(last.begin(), last.end(),
                                       [&](const auto& l) { return l.first == r; });
                if (it == last.end())
                    last.emplace_back(r, reader);
                else
                    it->second = reader; // readers ascend
            }
            // Produced or received right after its producer (graph inputs: from the start); the
            // producer's own step counts it among the producer's outputs.
            const int from = t.producer + 1;
            for (const auto& [r, until] : last) {
                delta[static_cast<std::size_t>(r) * row + static_cast<std::size_t>(from)] +=
                    t.bytes;
                delta[static_cast<std::size_t>(r) * row + static_cast<std::size_t>(until) + 1] -=
                    t.bytes;
            }
        }
    std::vector<std::int64_t> weights(P, 0);
    for (int k = 0; k < K; ++k)
        weights[static_cast<std::size_t>(pe_of[static_cast<std::size_t>(k)])] +=
            costs.weight_bytes(k);
    std::vector<std::int64_t> peak(P, 0);
    for (std::size_t pe = 0; pe < P; ++pe) {
        std::int64_t live = 0;
        for (int k = 0; k < K; ++k) {
            live += delta[pe * row + static_cast<std::size_t>(k)];
            if (pe_of[static_cast<std::size_t>(k)] == static_cast<int>(pe))
                peak[pe] = std::max(peak[pe], weights[pe] + live + costs.output_bytes(k));
        }
    }
    return peak;
}

} // namespace cleave::partition
