#include "ui/document/dse_document.hpp"

#include "core/atomic_file.hpp"
#include "core/dse/front_output.hpp"
#include "core/dse/pareto_front.hpp"
#include "core/dse/search_state.hpp"
#include "core/input_error.hpp"
#include "ui/document/partition_document.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace cleave::ui {

namespace {

// The front in the order the tab lists it: fastest first, ties as the search left them.
std::vector<dse::Solution> fastestFirst(std::vector<dse::Solution> front) {
    std::stable_sort(front.begin(), front.end(), [](const auto& a, const auto& b) {
        return a.throughput_per_s > b.throughput_per_s;
    });
    return front;
}

} // namespace

DseDocument::DseDocument(PartitionDocument* mapping, QObject* parent)
    : QObject(parent), mapping_(mapping) {
    connect(mapping_, &PartitionDocument::inputsChanged, this, &DseDocument::inputsChanged);
}

void DseDocument::setSettings(const dse::SearchSettings& settings, bool latencyObjective,
                              bool edit) {
    settings_ = settings;
    latency_ = latencyObjective;
    if (edit)
        emit changed();
}

void DseDocument::setView(nlohmann::json view, bool edit) {
    if (view == view_)
        return;
    view_ = std::move(view);
    if (edit)
        emit changed();
}

// No front, evaluated mappings or history; `inputs` searched over with `budget`.
void DseDocument::resetResult(PartitionInputsPtr inputs, std::int64_t budget) {
    inputs_ = std::move(inputs);
    front_.clear();
    evaluated_.clear();
    history_.clear();
    exact_.clear();
    evaluations_ = 0;
    budget_ = budget;
    cancelled_ = false;
    resultMoved();
}

void DseDocument::startSearch(PartitionInputsPtr inputs, const dse::ObjectiveSet& objectives,
                              std::int64_t budget) {
    pending_ = nullptr;
    objectives_ = objectives;
    resetResult(std::move(inputs), budget);
}

void DseDocument::addStep(const std::vector<dse::Solution>& front,
                          const std::vector<dse::Solution>& evaluated,
                          const std::vector<dse::HypervolumeStep>& history,
                          std::int64_t evaluations, std::int64_t budget) {
    front_ = fastestFirst(front);
    evaluated_.merge(evaluated);
    history_.insert(history_.end(), history.begin(), history.end());
    evaluations_ = evaluations;
    budget_ = budget;
    resultMoved();
}

void DseDocument::finishSearch(const dse::SearchResult& result,
                               const std::vector<dse::Solution>& tail,
                               std::vector<dse::Solution> exact) {
    // The result's history is complete; the steps may have left out the last generations.
    front_ = fastestFirst(result.front);
    evaluated_.merge(tail);
    history_ = result.history;
    exact_ = std::move(exact);
    evaluations_ = result.evaluations;
    cancelled_ = result.cancelled;
    resultMoved();
    emit changed();
}

void DseDocument::clearResult() {
    if (!inputs_ && front_.empty() && evaluated_.size() == 0 && history_.empty())
        return;
    resetResult(nullptr, 0);
}

// A result searched over other kernels or another cluster no longer applies; a restored one
// waiting for these inputs comes in.
void DseDocument::inputsChanged() {
    const auto& inputs = mapping_->inputs();
    if (inputs_ && inputs_ != inputs)
        clearResult();
    if (pending_.is_object() && inputs && inputs->costs) {
        auto state = std::exchange(pending_, nullptr);
        const QString error = apply(state);
        emit restored(error, error.isEmpty());
    }
}

void DseDocument::resultMoved() {
    std::unordered_set<std::string> onFront;
    for (const auto& s : front_)
        onFront.insert(dse::mapping_id(s.mapping));
    const auto& points = evaluated_.points();
    kinds_.assign(points.size(), PointKind::undominated);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        if (!p.feasible) {
            kinds_[i] = PointKind::infeasible;
            continue;
        }
        if (onFront.count(dse::mapping_id(p.mapping))) {
            kinds_[i] = PointKind::front;
            continue;
        }
        for (const auto& f : front_)
            if (dse::dominates(f.objectives, p.objectives)) {
                kinds_[i] = PointKind::dominated;
                break;
            }
    }
    emit resultChanged();
}

DseDocument::PointKind DseDocument::kindOf(int index) const {
    return index >= 0 && index < static_cast<int>(kinds_.size())
               ? kinds_[static_cast<std::size_t>(index)]
               : PointKind::undominated;
}

QString DseDocument::exportFront(const QString& path) const {
    if (!inputs_ || front_.empty())
        return tr("No front to export: run a search first.");
    const auto names = dse::objective_names(objectives_);
    const auto& cluster = *inputs_->request.cluster;
    std::string contents;
    if (path.endsWith(".csv", Qt::CaseInsensitive)) {
        contents = dse::front_csv(front_, names, cluster);
    } else {
        auto entries = nlohmann::ordered_json::array();
        for (const auto& s : front_) {
            auto entry = dse::solution_json(s, names, cluster);
            entry["generation"] = s.generation;
            entries.push_back(std::move(entry));
        }
        const nlohmann::ordered_json document{{"model", inputs_->request.model->file},
                                              {"cluster", cluster.file},
                                              {"rules", inputs_->request.rules},
                                              {"kernels", inputs_->kernelCount()},
                                              {"objectives", names},
                                              {"evaluations", evaluations_},
                                              {"cancelled", cancelled_},
                                              {"front", entries},
                                              {"hypervolume", dse::history_json(history_)}};
        contents = document.dump(2) + "\n";
    }
    try {
        write_file_atomically(path.toStdString(), contents);
    } catch (const std::exception& e) {
        return tr("Cannot export the front: %1").arg(QString::fromStdString(e.what()));
    }
    return {};
}

nlohmann::json DseDocument::saveState() const {
    dse::SearchState state;
    state.settings = settings_;
    state.latency = latency_;
    state.view = view_;
    // A pending state keeps its result until its kernels and cluster arrive.
    if (pending_.is_object() && pending_.contains("result")) {
        nlohmann::json json = dse::search_state_json(state, nullptr);
        json["result"] = pending_["result"];
        return json;
    }
    if (!inputs_ || front_.empty())
        return dse::search_state_json(state, nullptr);
    const auto& cluster = *inputs_->request.cluster;
    dse::SearchStateResult result;
    result.kernels = inputs_->kernelCount();
    result.cluster = cluster.file;
    result.objectives = objectives_;
    result.evaluations = evaluations_;
    result.budget = budget_;
    result.cancelled = cancelled_;
    result.front = front_;
    result.evaluated = evaluated_.points();
    result.history = history_;
    result.exact = exact_;
    state.result = std::move(result);
    return dse::search_state_json(state, &cluster);
}

QString DseDocument::restoreState(const nlohmann::json& state) {
    const auto& inputs = mapping_->inputs();
    QString error;
    const bool withResult = state.contains("result") && !state["result"].is_null();
    if (withResult && (!inputs || !inputs->costs)) {
        // Settings and choices now, the result once the kernels and cluster are there.
        auto settingsOnly = state;
        settingsOnly["result"] = nullptr;
        error = apply(settingsOnly);
        pending_ = error.isEmpty() ? state : nlohmann::json();
        emit restored(error, false);
        return error;
    }
    pending_ = nullptr;
    error = apply(state);
    emit restored(error, withResult && error.isEmpty());
    return error;
}

QString DseDocument::apply(const nlohmann::json& json) {
    dse::SearchState state;
    try {
        const auto& inputs = mapping_->inputs();
        dse::SearchStateTarget target;
        if (inputs && inputs->costs)
            target = {inputs->request.cluster.get(), inputs->kernelCount(),
                      [&inputs](int pe) { return inputs->hasLatencies(pe); }};
        state = dse::parse_search_state(json, target.cluster ? &target : nullptr, "DSE state");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    } catch (const nlohmann::json::exception& e) {
        return QString::fromStdString(e.what());
    }
    settings_ = state.settings;
    latency_ = state.latency;
    view_ = state.view;
    if (state.result) {
        auto& result = *state.result;
        inputs_ = mapping_->inputs();
        objectives_ = result.objectives;
        front_ = fastestFirst(std::move(result.front));
        evaluated_.clear();
        evaluated_.merge(result.evaluated);
        history_ = std::move(result.history);
        exact_ = std::move(result.exact);
        evaluations_ = result.evaluations;
        budget_ = result.budget;
        cancelled_ = result.cancelled;
        resultMoved();
    }
    return {};
}

} // namespace cleave::ui
