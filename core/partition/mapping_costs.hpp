// The analytical objectives of a mapping (AutoDiCE's multi-stage DSE): per-PE compute and
// communication time, throughput 1 / max_i t_i, per-PE memory (weights + output buffers + input
// buffers) and per-PE energy, every formula in docs/partition.md. Built once per model, kernel
// graph, cluster and kernel latencies, in O(kernels + tensor lifetimes); evaluating an SPE
// mapping then costs O(segments + crossing tensors), a naive assignment O(kernels + tensors).
#pragma once

#include "core/device/cluster.hpp"
#include "core/device/pe_power.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "mapping.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cleave::partition {

struct PeCosts {
    int kernels = 0;
    double compute_ms = 0;         // sum of its kernels' latencies
    double send_ms = 0;            // tensors it sends to other PEs
    double receive_ms = 0;         // tensors it receives from other PEs
    std::int64_t weight_bytes = 0; // coefficients of its kernels
    std::int64_t output_bytes = 0; // tensors its kernels produce
    std::int64_t input_bytes = 0;  // tensors it receives, and graph inputs it reads
    double energy_mj = 0;          // NaN when the device has no power figure

    double communication_ms() const { return send_ms + receive_ms; }
    double time_ms() const { return compute_ms + send_ms + receive_ms; }
    std::int64_t memory_bytes() const { return weight_bytes + output_bytes + input_bytes; }
};

// One tensor sent from the PE that produces it to one PE that reads it.
struct Transfer {
    int tensor = -1; // index into Model::tensors
    int from_pe = -1;
    int to_pe = -1;
    std::int64_t bytes = 0;
    double ms = 0; // bytes / bandwidth + latency; 0 between PEs of one host
};

struct Evaluation {
    std::vector<PeCosts> pes; // one per cluster PE; PEs without kernels stay zero
    std::vector<Transfer> transfers;
    double bottleneck_ms = 0;    // max_i t_i
    double throughput_per_s = 0; // 1 / max_i t_i
    double latency_ms = 0;       // one input through every PE: sum of compute and send times
    std::vector<int> scratch;    // reused between evaluations
};

class MappingCosts {
public:
    // kernel_ms[pe][k]: kernel k's latency on cluster PE pe; an empty row marks a PE without
    // latencies, which mappings must not use.
    MappingCosts(const graph::Model& model, const fusion::KernelGraph& kernels,
                 const device::Cluster& cluster, const std::vector<std::vector<double>>& kernel_ms);

    int kernel_count() const { return kernel_count_; }
    // Per kernel boundary b (0 .. kernel_count()): the activations a split there would carry,
    // made before b and read at b or later (graph inputs and load-time constants aside).
    const std::vector<int>& crossing_tensors() const { return crossing_; }
    int pe_count() const { return pe_count_; }
    bool has_latencies(int pe) const { return has_latencies_[static_cast<std::size_t>(pe)]; }
    const device::PePower& power(int pe) const { return power_[static_cast<std::size_t>(pe)]; }
    // Transfer time between two PEs, in ms; 0 on one host (they share memory).
    double transfer_ms(int from_pe, int to_pe, std::int64_t bytes) const;

    // A tensor produced by one kernel and read by later ones (or a graph input: producer -1).
    struct CarriedTensor {
        int tensor = -1;
        int producer = -1;
        std::int64_t bytes = 0;
        int consumers_begin = 0; // its distinct reading kernels, ascending: readers()
        int consumers_end = 0;
    };

    // The per-kernel figures and tensor lifetimes behind the sums, for the replay (replay.hpp).
    double kernel_ms(int pe, int k) const { return kernels_ms(pe, k, k + 1); }
    // Kernels [begin, end) on pe, one after another.
    double kernels_ms(int pe, int begin, int end) const {
        const double* prefix =
            &prefix_ms_[static_cast<std::size_t>(pe) * static_cast<std::size_t>(kernel_count_ + 1)];
        return prefix[end] - prefix[begin];
    }
    std::int64_t weight_bytes(int k) const {
        return weight_prefix_[static_cast<std::size_t>(k) + 1] -
               weight_prefix_[static_cast<std::size_t>(k)];
    }
    std::int64_t output_bytes(int k) const {
        return output_prefix_[static_cast<std::size_t>(k) + 1] -
               output_prefix_[static_cast<std::size_t>(k)];
    }
    int host_of(int pe) const { return host_of_pe_[static_cast<std::size_t>(pe)]; }
    int host_count() const { return host_count_; }
    const std::vector<CarriedTensor>& carried_tensors() const { return carried_; } // by producer
    const std::vector<CarriedTensor>& graph_inputs() const { return graph_inputs_; }
    std::span<const int> readers(const CarriedTensor& t) const {
        return {consumers_.data() + t.consumers_begin, consumers_.data() + t.consumers_end};
    }
    // What segment `s` of `mapping` (which must pass check_mapping) sends: for each carried
    // tensor it produces that a later segment reads (producers descending), send(index into
    // carried_tensors(), receiving PE) once per other PE reading it, in the order of their first
    // readers. `seen` is scratch. O(tensors live across the segment's end + their readers).
    template <typename Send>
    void segment_sends(const Mapping& mapping, int s, std::vector<int>& seen, Send&& send) const {
        const int segments = static_cast<int>(mapping.pes.size());
        const auto end_of = [&](int segment) {
            return segment + 1 < segments ? mapping.points[static_cast<std::size_t>(segment)]
                                          : kernel_count_;
        };
        const int a = s > 0 ? mapping.points[static_cast<std::size_t>(s) - 1] : 0;
        const int b = end_of(s);
        if (b >= kernel_count_)
            return;
        const int q = mapping.pes[static_cast<std::size_t>(s)];
        for (int i = live_begin_[static_cast<std::size_t>(b)];
             i < live_begin_[static_cast<std::size_t>(b) + 1]; ++i) {
            const int c = live_[static_cast<std::size_t>(i)];
            const auto& t = carried_[static_cast<std::size_t>(c)];
            if (t.producer < a)
                break;
            seen.clear();
            int segment = s + 1;
            int segment_end = end_of(segment);
            const int* end = consumers_.data() + t.consumers_end;
            for (const int* reader = std::lower_bound(consumers_.data() + t.consumers_begin, end, b);
                 reader != end; ++reader) {
                while (*reader >= segment_end)
                    segment_end = end_of(++segment);
                const int r = mapping.pes[static_cast<std::size_t>(segment)];
                if (r == q || std::find(seen.begin(), seen.end(), r) != seen.end())
                    continue;
                seen.push_back(r);
                send(c, r);
            }
        }
    }

    // `mapping` must pass check_mapping. Reuses `out`'s buffers.
    void evaluate(const Mapping& mapping, Evaluation& out) const;
    Evaluation evaluate(const Mapping& mapping) const;
    Evaluation evaluate(const KernelAssignment& assignment) const;

private:
    void reset(Evaluation& out) const;
    void finish(Evaluation& out) const;
    // The construction's steps, in order.
    void sum_prefixes(const fusion::KernelGraph& kernels,
                      const std::vector<std::vector<double>>& kernel_ms);
    void collect_carried_tensors(const graph::Model& model, const fusion::KernelGraph& kernels);
    void index_live_tensors(const graph::Model& model);
    void take_links_and_power(const device::Cluster& cluster);

    int kernel_count_ = 0;
    int pe_count_ = 0;
    std::vector<double> prefix_ms_; // [pe * (K + 1) + k]: latency of kernels [0, k) on pe
    std::vector<std::int64_t> weight_prefix_;
    std::vector<std::int64_t> output_prefix_;
    std::vector<CarriedTensor> carried_; // by producer kernel
    std::vector<CarriedTensor> graph_inputs_;
    std::vector<int> consumers_;
    // Tensors live across cut b (producer < b <= last consumer), producer descending:
    // live_[live_begin_[b] .. live_begin_[b + 1]) index carried_.
    std::vector<int> live_begin_;
    std::vector<int> live_;
    std::vector<int> crossing_;       // crossing_tensors()
    std::vector<double> ms_per_byte_; // [from * P + to]
    std::vector<double> link_ms_;     // [from * P + to]
    std::vector<device::PePower> power_;
    std::vector<bool> has_latencies_;
    std::vector<int> host_of_pe_; // index into Cluster::hosts
    int host_count_ = 0;
};

} // namespace cleave::partition
