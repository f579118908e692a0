#include "mapping_costs.hpp"

#include "core/fusion/rule_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::partition {

namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

std::int64_t known_bytes(const graph::Tensor& tensor) {
    return std::max<std::int64_t>(tensor.bytes(), 0);
}

} // namespace

MappingCosts::MappingCosts(const graph::Model& model, const fusion::KernelGraph& kernels,
                           const device::Cluster& cluster,
                           const std::vector<std::vector<double>>& kernel_ms)
    : kernel_count_(static_cast<int>(kernels.kernels.size())),
      pe_count_(static_cast<int>(cluster.pes.size())) {
    sum_prefixes(kernels, kernel_ms);
    collect_carried_tensors(model, kernels);
    index_live_tensors(model);
    take_links_and_power(cluster);
}

// Per PE the latency of kernels [0, k), and the weights and outputs of kernels [0, k).
void MappingCosts::sum_prefixes(const fusion::KernelGraph& kernels,
                                const std::vector<std::vector<double>>& kernel_ms) {
    const auto K = static_cast<std::size_t>(kernel_count_);
    const auto P = static_cast<std::size_t>(pe_count_);
    prefix_ms_.assign(P * (K + 1), 0.0);
    has_latencies_.assign(P, false);
    for (std::size_t pe = 0; pe < P && pe < kernel_ms.size(); ++pe) {
        if (kernel_ms[pe].size() != K)
            continue;
        has_latencies_[pe] = true;
        double* prefix = &prefix_ms_[pe * (K + 1)];
        for (std::size_t k = 0; k < K; ++k)
            prefix[k + 1] = prefix[k] + kernel_ms[pe][k];
    }
    weight_prefix_.assign(K + 1, 0);
    output_prefix_.assign(K + 1, 0);
    for (std::size_t k = 0; k < K; ++k) {
        weight_prefix_[k + 1] = weight_prefix_[k] + kernels.kernels[k].weight_bytes;
        output_prefix_[k + 1] = output_prefix_[k] + kernels.kernels[k].bytes_out;
    }
}

// Every activation read outside the kernel that produces it, and every graph input.
void MappingCosts::collect_carried_tensors(const graph::Model& model,
                                           const fusion::KernelGraph& kernels) {
    std::vector<int> reading;
    for (std::size_t t = 0; t < model.tensors.size(); ++t) {
        const auto& tensor = model.tensors[t];
        if (tensor.kind == graph::Tensor::Kind::Initializer || tensor.consumers.empty())
            continue;
        const int producer =
            tensor.producer >= 0 ? kernels.kernel_of_node[static_cast<std::size_t>(tensor.producer)]
                                 : -1;
        if (tensor.producer >= 0 && producer < 0)
            continue;
        reading.clear();
        for (const int node : tensor.consumers) {
            const int k = kernels.kernel_of_node[static_cast<std::size_t>(node)];
            if (k >= 0 && k != producer)
                reading.push_back(k);
        }
        std::sort(reading.begin(), reading.end());
        reading.erase(std::unique(reading.begin(), reading.end()), reading.end());
        if (reading.empty())
            continue;
        CarriedTensor carried{static_cast<int>(t), producer, known_bytes(tensor),
                              static_cast<int>(consumers_.size()), 0};
        consumers_.insert(consumers_.end(), reading.begin(), reading.end());
        carried.consumers_end = static_cast<int>(consumers_.size());
        (producer >= 0 ? carried_ : graph_inputs_).push_back(carried);
    }
    std::stable_sort(carried_.begin(), carried_.end(),
                     [](const CarriedTensor& a, const CarriedTensor& b) {
                         return a.producer < b.producer;
                     });
}

void MappingCosts::index_live_tensors(const graph::Model& model) {
    const auto K = static_cast<std::size_t>(kernel_count_);
    // Cut b carries the tensors with producer < b <= last consumer; listed producer descending
    // so a segment [a, b) stops at the first producer below a.
    std::vector<int> count(K + 1, 0);
    for (const auto& t : carried_)
        for (int b = t.producer + 1; b <= consumers_[static_cast<std::size_t>(t.consumers_end - 1)]; ++b)
            ++count[static_cast<std::size_t>(b)];
    live_begin_.assign(K + 2, 0);
    for (std::size_t b = 0; b <= K; ++b)
        live_begin_[b + 1] = live_begin_[b] + count[b];
    live_.assign(static_cast<std::size_t>(live_begin_[K + 1]), 0);
    std::vector<int> fill(live_begin_.begin(), live_begin_.end() - 1);
    for (std::size_t i = carried_.size(); i-- > 0;) {
        const auto& t = carried_[i];
        for (int b = t.producer + 1; b <= consumers_[static_cast<std::size_t>(t.consumers_end - 1)]; ++b)
            live_[static_cast<std::size_t>(fill[static_cast<std::size_t>(b)]++)] = static_cast<int>(i);
    }
    // What crosses each cut: its live tensors less those computed at load time.
    const auto constant = fusion::load_time_constants(model);
    crossing_.assign(K + 1, 0);
    for (std::size_t b = 0; b <= K; ++b)
        for (int i = live_begin_[b]; i < live_begin_[b + 1]; ++i) {
            const auto& t = carried_[static_cast<std::size_t>(live_[static_cast<std::size_t>(i)])];
            crossing_[b] += !constant[static_cast<std::size_t>(
                model.tensors[static_cast<std::size_t>(t.tensor)].producer)];
        }
}

// Per pair of PEs the transfer time of a byte and the link's latency; per PE its power and host.
void MappingCosts::take_links_and_power(const device::Cluster& cluster) {
    const auto P = static_cast<std::size_t>(pe_count_);
    ms_per_byte_.assign(P * P, 0.0);
    link_ms_.assign(P * P, 0.0);
    for (std::size_t a = 0; a < P; ++a)
        for (std::size_t b = 0; b < P; ++b) {
            const auto& from = cluster.pes[a];
            const auto& to = cluster.pes[b];
            if (from.host == to.host)
                continue; // one host: the tensor stays in its memory
            const auto link = cluster.link(from.host, to.host);
            ms_per_byte_[a * P + b] = 8.0 / (link.bandwidth_gbps * 1e9) * 1e3;
            link_ms_[a * P + b] = link.latency_us / 1e3;
        }
    for (const auto& pe : cluster.pes) {
        power_.push_back(device::pe_power(cluster.hosts[pe.host_index].device, pe.spec));
        host_of_pe_.push_back(static_cast<int>(pe.host_index));
    }
    host_count_ = static_cast<int>(cluster.hosts.size());
}

double MappingCosts::transfer_ms(int from_pe, int to_pe, std::int64_t bytes) const {
    const auto i = static_cast<std::size_t>(from_pe) * static_cast<std::size_t>(pe_count_) +
                   static_cast<std::size_t>(to_pe);
    return static_cast<double>(bytes) * ms_per_byte_[i] + link_ms_[i];
}

void MappingCosts::reset(Evaluation& out) const {
    out.pes.assign(static_cast<std::size_t>(pe_count_), PeCosts{});
    out.transfers.clear();
    out.bottleneck_ms = 0;
    out.throughput_per_s = 0;
    out.latency_ms = 0;
}

void MappingCosts::finish(Evaluation& out) const {
    for (std::size_t pe = 0; pe < out.pes.size(); ++pe) {
        auto& costs = out.pes[pe];
        if (costs.kernels == 0 && costs.communication_ms() == 0)
            continue;
        costs.energy_mj =
            power_[pe].busy_w * costs.compute_ms + power_[pe].communication_w * costs.communication_ms();
        out.bottleneck_ms = std::max(out.bottleneck_ms, costs.time_ms());
        out.latency_ms += costs.compute_ms + costs.send_ms;
    }
    out.throughput_per_s = out.bottleneck_ms > 0 ? 1e3 / out.bottleneck_ms : 0;
}

void MappingCosts::evaluate(const Mapping& mapping, Evaluation& out) const {
    reset(out);
    const int segments = static_cast<int>(mapping.pes.size());
    const auto K = static_cast<std::size_t>(kernel_count_);
    const auto end_of = [&](int s) { return s + 1 < segments ? mapping.points[static_cast<std::size_t>(s)] : kernel_count_; };
    auto& seen = out.scratch;
    const auto send = [&](const CarriedTensor& t, int from, int to) {
        const double ms = transfer_ms(from, to, t.bytes);
        out.pes[static_cast<std::size_t>(from)].send_ms += ms;
        auto& receiver = out.pes[static_cast<std::size_t>(to)];
        receiver.receive_ms += ms;
        receiver.input_bytes += t.bytes;
        out.transfers.push_back({t.tensor, from, to, t.bytes, ms});
    };

    int a = 0;
    for (int s = 0; s < segments; ++s) {
        const int b = end_of(s);
        const int q = mapping.pes[static_cast<std::size_t>(s)];
        auto& pe = out.pes[static_cast<std::size_t>(q)];
        const double* prefix = &prefix_ms_[static_cast<std::size_t>(q) * (K + 1)];
        pe.kernels += b - a;
        pe.compute_ms += prefix[b] - prefix[a];
        pe.weight_bytes += weight_prefix_[static_cast<std::size_t>(b)] - weight_prefix_[static_cast<std::size_t>(a)];
        pe.output_bytes += output_prefix_[static_cast<std::size_t>(b)] - output_prefix_[static_cast<std::size_t>(a)];
        segment_sends(mapping, s, seen,
                      [&](int c, int r) { send(carried_[static_cast<std::size_t>(c)], q, r); });
        a = b;
    }
    for (const auto& t : graph_inputs_) {
        seen.clear();
        for (int i = t.consumers_begin; i < t.consumers_end; ++i) {
            const int c = consumers_[static_cast<std::size_t>(i)];
            const auto segment = std::upper_bound(mapping.points.begin(), mapping.points.end(), c) -
                                 mapping.points.begin();
            const int r = mapping.pes[static_cast<std::size_t>(segment)];
            if (std::find(seen.begin(), seen.end(), r) != seen.end())
                continue;
            seen.push_back(r);
            out.pes[static_cast<std::size_t>(r)].input_bytes += t.bytes;
        }
    }
    finish(out);
}

Evaluation MappingCosts::evaluate(const Mapping& mapping) const {
    Evaluation out;
    evaluate(mapping, out);
    return out;
}

Evaluation MappingCosts::evaluate(const KernelAssignment& assignment) const {
    Evaluation out;
    reset(out);
    const auto K = static_cast<std::size_t>(kernel_count_);
    const auto& pe_of = assignment.pe_of_kernel;
    for (std::size_t k = 0; k < K; ++k) {
        const auto q = static_cast<std::size_t>(pe_of[k]);
        auto& pe = out.pes[q];
        const double* prefix = &prefix_ms_[q * (K + 1)];
        ++pe.kernels;
        pe.compute_ms += prefix[k + 1] - prefix[k];
        pe.weight_bytes += weight_prefix_[k + 1] - weight_prefix_[k];
        pe.output_bytes += output_prefix_[k + 1] - output_prefix_[k];
    }
    std::vector<int> seen;
    for (const auto* list : {&carried_, &graph_inputs_})
        for (const auto& t : *list) {
            const int q = t.producer >= 0 ? pe_of[static_cast<std::size_t>(t.producer)] : -1;
            seen.clear();
            for (int i = t.consumers_begin; i < t.consumers_end; ++i) {
                const int r = pe_of[static_cast<std::size_t>(consumers_[static_cast<std::size_t>(i)])];
                if (r == q || std::find(seen.begin(), seen.end(), r) != seen.end())
                    continue;
                seen.push_back(r);
                auto& receiver = out.pes[static_cast<std::size_t>(r)];
                receiver.input_bytes += t.bytes;
                if (q < 0)
                    continue; // a graph input: read where it is, not sent
                const double ms = transfer_ms(q, r, t.bytes);
                out.pes[static_cast<std::size_t>(q)].send_ms += ms;
                receiver.receive_ms += ms;
                out.transfers.push_back({t.tensor, q, r, t.bytes, ms});
            }
        }
    finish(out);
    return out;
}

} // namespace cleave::partition
