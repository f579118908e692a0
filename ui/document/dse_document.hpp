// The DSE tab's search as the studio document keeps it: the settings the next search runs with,
// the tab's chart choices (kept as given), and the result on show (the front, the mappings
// evaluated beyond it, the hypervolume history, a decoder's exact optima, what it was searched
// over). The tab runs searches
// and draws; a project saves and restores this (core/dse/search_state), never the tab's widgets.
// A restored result waits for the mapping's inputs it was searched over.
#pragma once

#include "core/dse/nsga2_search.hpp"
#include "ui/document/dse_evaluated_points.hpp"
#include "ui/document/partition_inputs.hpp"

#include <QObject>
#include <QString>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace cleave::ui {

class PartitionDocument;

class DseDocument : public QObject {
    Q_OBJECT

public:
    // Searches over `mapping`'s inputs; solutions apply to it.
    explicit DseDocument(PartitionDocument* mapping, QObject* parent = nullptr);

    PartitionDocument* mapping() const { return mapping_; }

    const dse::SearchSettings& settings() const { return settings_; }
    bool latencyObjective() const { return latency_; }
    // `edit`: the user changed the settings (a change the project keeps), else the tab only
    // reports the ones it starts from.
    void setSettings(const dse::SearchSettings& settings, bool latencyObjective, bool edit);
    // The front end's chart choices (an object). `edit`: the user made them (a change the project
    // keeps), else the tab only reports what it shows.
    const nlohmann::json& view() const { return view_; }
    void setView(nlohmann::json view, bool edit);

    // The result on show; inputs() null: none.
    const PartitionInputsPtr& inputs() const { return inputs_; }
    const dse::ObjectiveSet& objectives() const { return objectives_; }
    const std::vector<dse::Solution>& front() const { return front_; }
    // The evaluated mappings kept (at most DseEvaluatedPoints::kDefaultCapacity).
    const std::vector<dse::Solution>& evaluated() const { return evaluated_.points(); }
    const std::vector<dse::HypervolumeStep>& history() const { return history_; }
    // A decoder's exact optima of its layer plans (least time per token, least slowest stage),
    // scored as the front; empty for other searches.
    const std::vector<dse::Solution>& exact() const { return exact_; }
    std::int64_t evaluations() const { return evaluations_; }
    std::int64_t budget() const { return budget_; }
    bool cancelled() const { return cancelled_; }
    // A restored result waits for its kernels and cluster.
    bool isWaiting() const { return pending_.is_object(); }

    // An evaluated mapping against the front: on it, dominated by one of its solutions (better or
    // equal in every objective, better in one), neither (evaluated at another level), or
    // infeasible (over a device's memory, or PEs that would wait on each other).
    enum class PointKind { front, dominated, undominated, infeasible };
    PointKind kindOf(int evaluatedIndex) const;

    // Writes the front: CSV for a path ending in .csv, else JSON (cleave dse --json's keys, with
    // the model, cluster, rules and kernel count), atomically. Why it cannot, or empty.
    QString exportFront(const QString& path) const;

    // A search over `inputs` starts: the result before it goes.
    void startSearch(PartitionInputsPtr inputs, const dse::ObjectiveSet& objectives,
                     std::int64_t budget);
    // A generation reported: its front, the mappings evaluated since the last and the history.
    void addStep(const std::vector<dse::Solution>& front,
                 const std::vector<dse::Solution>& evaluated,
                 const std::vector<dse::HypervolumeStep>& history, std::int64_t evaluations,
                 std::int64_t budget);
    // The search ended: its complete history, its front, the evaluated mappings not yet reported
    // and a decoder's exact optima. A change the project keeps.
    void finishSearch(const dse::SearchResult& result, const std::vector<dse::Solution>& tail,
                      std::vector<dse::Solution> exact = {});
    // The result no longer applies (other kernels or cluster).
    void clearResult();

    // Settings, view and result as JSON (docs/studio.md, core/dse/search_state).
    nlohmann::json saveState() const;
    // Reads what saveState wrote: the settings and view at once, the result once the mapping's
    // inputs are the ones it was searched over. Why it cannot be read (nothing changes then), or
    // empty; restored() tells the views either way.
    QString restoreState(const nlohmann::json& state);

signals:
    void resultChanged(); // the front, the evaluated mappings or the history
    // A state was restored (error empty; withResult: a front came with it) or refused: the tab
    // shows the settings and view anew.
    void restored(const QString& error, bool withResult);
    void changed(); // a change the project keeps

private:
    QString apply(const nlohmann::json& state);
    void inputsChanged();
    void resetResult(PartitionInputsPtr inputs, std::int64_t budget);
    void resultMoved(); // classifies the evaluated mappings, then says the result changed

    PartitionDocument* mapping_;
    dse::SearchSettings settings_;
    bool latency_ = false;
    nlohmann::json view_ = nlohmann::json::object();
    PartitionInputsPtr inputs_; // what the result was searched over
    dse::ObjectiveSet objectives_;
    std::vector<dse::Solution> front_;
    DseEvaluatedPoints evaluated_;
    std::vector<dse::HypervolumeStep> history_;
    std::vector<dse::Solution> exact_;
    std::int64_t evaluations_ = 0;
    std::int64_t budget_ = 0;
    bool cancelled_ = false;
    nlohmann::json pending_;       // a restored state waiting for its kernels and cluster
    std::vector<PointKind> kinds_; // per evaluated mapping
};

} // namespace cleave::ui
