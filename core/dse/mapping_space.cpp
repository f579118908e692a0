#include "mapping_space.hpp"

#include "core/input_error.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/partition/replay.hpp"
#include "split_point_encoding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace cleave::dse {

namespace {

// Segments (runs of kernels on one PE, the PE of each in `runs`) beyond one per PE used; sorts
// `runs`.
int surplus_segments(std::vector<int>& runs) {
    const auto segments = static_cast<int>(runs.size());
    std::sort(runs.begin(), runs.end());
    return segments - static_cast<int>(std::unique(runs.begin(), runs.end()) - runs.begin());
}

} // namespace

SearchablePes predict_searchable_pes(const graph::Model& model, const fusion::KernelGraph& kernels,
                                     const device::Cluster& cluster, const std::string& rules,
                                     const std::string& predictor_file) {
    std::optional<predict::Predictor> given;
    if (!predictor_file.empty())
        given = partition::load_cluster_predictor(predictor_file, cluster);
    auto latencies =
        partition::predict_pe_latencies(model, kernels, cluster, rules, {}, given ? &*given : nullptr);
    SearchablePes result;
    result.pes = latencies.usable();
    result.notes = latencies.left_out_notes(cluster);
    result.kernel_ms = std::move(latencies.kernel_ms);
    return result;
}

int ObjectiveSet::index(Objective objective) const {
    int at = 0;
    for (const auto& [o, searched] :
         {std::pair{Objective::bottleneck_ms, true}, std::pair{Objective::max_memory_bytes, memory},
          std::pair{Objective::max_energy_mj, energy}, std::pair{Objective::latency_ms, latency}}) {
        if (o == objective)
            return searched ? at : -1;
        at += searched ? 1 : 0;
    }
    return -1;
}

ObjectiveSet parse_objectives(const std::string& list, const std::string& place) {
    ObjectiveSet set{false, false, false};
    struct Name {
        const char* name;
        bool* flag; // null: the bottleneck, always searched
        const char* canonical;
    };
    const Name names[] = {
        {"bottleneck", nullptr, "bottleneck"}, {"tokens-per-s", nullptr, "bottleneck"},
        {"memory", &set.memory, "memory"},     {"energy", &set.energy, "energy"},
        {"latency", &set.latency, "latency"},  {"time-per-token", &set.latency, "latency"}};
    std::vector<std::string> seen;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        const std::string name = list.substr(start, comma - start);
        start = comma + 1;
        const auto* found = std::find_if(std::begin(names), std::end(names),
                                         [&](const Name& n) { return name == n.name; });
        if (found == std::end(names))
            throw InputError("", place,
                             "objectives among bottleneck (tokens-per-s), memory, energy, latency "
                             "(time-per-token), comma-separated, not '" +
                                 name + "'");
        if (std::find(seen.begin(), seen.end(), found->canonical) != seen.end())
            throw InputError("", place, "each objective once, found '" + name + "' twice");
        seen.emplace_back(found->canonical);
        if (found->flag)
            *found->flag = true;
    }
    return set;
}

std::vector<std::string> objective_names(const ObjectiveSet& objectives) {
    std::vector<std::string> names;
    for (const auto& [objective, name] :
         {std::pair{Objective::bottleneck_ms, "bottleneck_ms"},
          std::pair{Objective::max_memory_bytes, "max_memory_bytes"},
          std::pair{Objective::max_energy_mj, "max_energy_mj"},
          std::pair{Objective::latency_ms, "latency_ms"}})
        if (objectives.index(objective) >= 0)
            names.emplace_back(name);
    return names;
}

double ObjectiveSet::value(const std::vector<double>& values, Objective objective) const {
    const int at = index(objective);
    return at >= 0 && static_cast<std::size_t>(at) < values.size()
               ? values[static_cast<std::size_t>(at)]
               : std::numeric_limits<double>::quiet_NaN();
}

MappingSpace::MappingSpace(const partition::MappingCosts& costs, std::vector<int> pes,
                           std::vector<std::optional<std::int64_t>> capacity_bytes,
                           ObjectiveSet objectives, int replay_inputs)
    : costs_(&costs), pes_(std::move(pes)), capacity_(std::move(capacity_bytes)),
      objectives_(objectives), replay_inputs_(replay_inputs) {
    if (pes_.empty())
        throw InputError("", "--cluster", "the search needs at least one PE with kernel latencies");
    for (const int pe : pes_)
        if (pe < 0 || pe >= costs.pe_count() || !costs.has_latencies(pe))
            throw InputError("", "--cluster",
                             "PE " + std::to_string(pe) + " has no kernel latencies");
    capacity_.resize(static_cast<std::size_t>(costs.host_count()));
    if (replay_inputs_ < 2)
        throw InputError("", "--replay-inputs", "the replay needs at least 2 inputs");
    if (objectives_.energy)
        for (const int pe : pes_)
            if (std::isnan(costs.power(pe).busy_w) || std::isnan(costs.power(pe).communication_w))
                throw InputError("", "--cluster",
                                 "PE " + std::to_string(pe) +
                                     " has no power figure, so energy cannot be an objective");
    find_best_single();
}

void MappingSpace::hold_to_layers(partition::LayerPlanInput input) {
    layer_pe_.assign(static_cast<std::size_t>(costs_->pe_count()), -1);
    for (std::size_t i = 0; i < input.pes.size(); ++i)
        layer_pe_[static_cast<std::size_t>(input.pes[i].cluster_pe)] = static_cast<int>(i);
    for (const int pe : pes_)
        if (layer_pe_[static_cast<std::size_t>(pe)] < 0)
            throw InputError("", "--cluster",
                             "PE " + std::to_string(pe) + " has no place in the layer plans");
    layers_ = std::move(input);
    find_best_single();
}

const std::vector<int>& MappingSpace::layer_cuts() const {
    static const std::vector<int> none;
    return layers_ ? layers_->cuts : none;
}

void MappingSpace::find_best_single() {
    Scratch scratch;
    best_single_.assign(static_cast<std::size_t>(objectives_.count()),
                        std::numeric_limits<double>::infinity());
    for (const int pe : pes_) {
        const auto raw =
            raw_objectives(figures(partition::Mapping{{}, {pe}}, Level::analytical, scratch));
        for (std::size_t j = 0; j < raw.size(); ++j)
            best_single_[j] = std::min(best_single_[j], raw[j]);
    }
    for (auto& best : best_single_)
        if (!(best > 0))
            best = 1; // a zero objective (a model without weights) is left unscaled
}

MappingFigures MappingSpace::sum_hosts(const partition::Evaluation& evaluation,
                                       Scratch& scratch) const {
    scratch.host_memory.assign(capacity_.size(), 0.0);
    scratch.host_energy.assign(capacity_.size(), 0.0);
    for (std::size_t pe = 0; pe < evaluation.pes.size(); ++pe) {
        const auto& c = evaluation.pes[pe];
        if (c.kernels == 0 && c.communication_ms() == 0)
            continue;
        const auto host = static_cast<std::size_t>(costs_->host_of(static_cast<int>(pe)));
        scratch.host_memory[host] += static_cast<double>(c.memory_bytes());
        scratch.host_energy[host] += c.energy_mj;
    }
    MappingFigures figures;
    double max_memory = 0;
    figures.max_energy_mj = 0;
    for (std::size_t host = 0; host < capacity_.size(); ++host) {
        max_memory = std::max(max_memory, scratch.host_memory[host]);
        if (std::isnan(scratch.host_energy[host]) || std::isnan(figures.max_energy_mj))
            figures.max_energy_mj = std::numeric_limits<double>::quiet_NaN();
        else
            figures.max_energy_mj = std::max(figures.max_energy_mj, scratch.host_energy[host]);
        if (capacity_[host] && scratch.host_memory[host] > static_cast<double>(*capacity_[host]))
            figures.memory_excess +=
                (scratch.host_memory[host] - static_cast<double>(*capacity_[host])) /
                static_cast<double>(*capacity_[host]);
    }
    scratch.waits.clear();
    for (const auto& t : evaluation.transfers)
        scratch.waits.emplace_back(t.to_pe, t.from_pe);
    figures.waits_on_each_other =
        !partition::waiting_cycle(costs_->pe_count(), scratch.waits, scratch.waiting).empty();
    figures.max_memory_bytes = static_cast<std::int64_t>(max_memory);
    figures.bottleneck_ms = evaluation.bottleneck_ms;
    figures.throughput_per_s = evaluation.throughput_per_s;
    figures.latency_ms = evaluation.latency_ms;
    return figures;
}

void MappingSpace::take_replay(const partition::Replay& replayed, MappingFigures& figures) {
    figures.throughput_per_s = replayed.throughput_per_s;
    figures.bottleneck_ms = 1000.0 / replayed.throughput_per_s;
    figures.latency_ms = replayed.first_latency_ms;
}

MappingFigures MappingSpace::figures(const partition::Mapping& mapping, Level level,
                                     Scratch& scratch) const {
    if (level == Level::replay && measure_) // a measured run needs every kernel's PE
        return figures(partition::assignment_of(mapping, costs_->kernel_count()), level, scratch);
    costs_->evaluate(mapping, scratch.evaluation);
    auto result = sum_hosts(scratch.evaluation, scratch);
    if (layers_)
        hold_figures(mapping, result, scratch);
    if (result.waits_on_each_other) {
        scratch.runs.assign(mapping.pes.begin(), mapping.pes.end());
        result.surplus_segments = surplus_segments(scratch.runs);
    }
    if (level == Level::replay)
        take_replay(partition::replay(*costs_, mapping, {replay_inputs_, 0.0}), result);
    return result;
}

MappingFigures MappingSpace::figures(const partition::KernelAssignment& assignment, Level level,
                                     Scratch& scratch) const {
    scratch.evaluation = costs_->evaluate(assignment);
    auto result = sum_hosts(scratch.evaluation, scratch);
    if (layers_)
        hold_figures(mapping_of(assignment), result, scratch);
    if (result.waits_on_each_other) {
        scratch.runs.clear();
        for (const int pe : assignment.pe_of_kernel)
            if (scratch.runs.empty() || scratch.runs.back() != pe)
                scratch.runs.push_back(pe);
        result.surplus_segments = surplus_segments(scratch.runs);
    }
    if (level == Level::replay) {
        take_replay(partition::replay(*costs_, assignment, {replay_inputs_, 0.0}), result);
        if (measure_ && !result.waits_on_each_other) { // such a run could not start
            const auto measured = measure_(assignment);
            if (measured.failed || !(measured.throughput_per_s > 0)) {
                result.memory_excess = std::max(result.memory_excess, 1.0);
            } else {
                result.throughput_per_s = measured.throughput_per_s;
                result.bottleneck_ms = 1000.0 / measured.throughput_per_s;
            }
        }
    }
    return result;
}

void MappingSpace::hold_figures(const partition::Mapping& mapping, MappingFigures& figures,
                                Scratch& scratch) const {
    const auto& in = *layers_;
    figures.memory_excess = 0;
    figures.max_memory_bytes = 0;
    scratch.runs.clear(); // the hosts of the stages so far
    int first = 0;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s) {
        const int end = s < mapping.points.size() ? mapping.points[s] : costs_->kernel_count();
        const int last = in.layer_at(end);
        const int index = layer_pe_[static_cast<std::size_t>(mapping.pes[s])];
        if (last < 0 || index < 0) {
            figures.breaks_layer_plan = true;
            ++figures.surplus_segments;
            continue;
        }
        const auto& pe = in.pes[static_cast<std::size_t>(index)];
        const std::int64_t bytes = in.memory_bytes(first, last);
        figures.max_memory_bytes = std::max(figures.max_memory_bytes, bytes);
        if (bytes > pe.room_bytes)
            figures.memory_excess += pe.room_bytes > 0
                                         ? static_cast<double>(bytes - pe.room_bytes) /
                                               static_cast<double>(pe.room_bytes)
                                         : 1.0;
        if (std::find(scratch.runs.begin(), scratch.runs.end(), pe.host) != scratch.runs.end()) {
            figures.breaks_layer_plan = true;
            ++figures.surplus_segments;
        }
        scratch.runs.push_back(pe.host);
        first = last;
    }
}

std::vector<double> MappingSpace::raw_objectives(const MappingFigures& figures) const {
    std::vector<double> raw{figures.bottleneck_ms};
    if (objectives_.memory)
        raw.push_back(static_cast<double>(figures.max_memory_bytes));
    if (objectives_.energy)
        raw.push_back(figures.max_energy_mj);
    if (objectives_.latency)
        raw.push_back(figures.latency_ms);
    return raw;
}

std::vector<double> MappingSpace::normalised(const std::vector<double>& raw) const {
    std::vector<double> result(raw.size());
    for (std::size_t j = 0; j < raw.size(); ++j)
        result[j] = raw[j] / best_single_[j];
    return result;
}

std::string mapping_id(const partition::Mapping& mapping) {
    std::string key;
    for (const int p : mapping.points)
        key += std::to_string(p) + ',';
    key += '|';
    for (const int pe : mapping.pes)
        key += std::to_string(pe) + ',';
    return key;
}

std::string mapping_key(const partition::Mapping& mapping, const device::Cluster& cluster) {
    std::string key;
    for (std::size_t i = 0; i < mapping.points.size(); ++i)
        key += (i ? "," : "") + std::to_string(mapping.points[i]);
    key += '|';
    for (std::size_t i = 0; i < mapping.pes.size(); ++i)
        key += (i ? "," : "") + cluster.pes[static_cast<std::size_t>(mapping.pes[i])].key;
    return key;
}

} // namespace cleave::dse
