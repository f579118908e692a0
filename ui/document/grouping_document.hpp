// The Grouping tab's work as the studio document keeps it: the settings of `cleave group` (G, the
// feature set, the device vectors file and its benchmarks, a workload with its serving options,
// the seed) and the grouping found for the cluster editor's hosts. The tab edits the settings,
// runs groupings and draws the result; a project saves and restores this (core/grouping's
// settings and result formats), never the tab's widgets. A result goes when the hosts or their
// devices change (a link edit leaves it).
#pragma once

#include "core/grouping/grouping_run.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace cleave::ui {

class ClusterDocument;

using GroupingOutcomePtr = std::shared_ptr<const grouping::GroupingOutcome>;

class GroupingDocument : public QObject {
    Q_OBJECT

public:
    // Groups `cluster`'s hosts.
    explicit GroupingDocument(ClusterDocument* cluster, QObject* parent = nullptr);

    ClusterDocument* cluster() const { return cluster_; }

    // The request the settings make for the hosts on show (no cluster without hosts).
    grouping::GroupingRequest request() const;
    // `edit`: the user changed the settings (a change the project keeps), else the tab only
    // reports the ones it starts from. The vectors file is opened, not set.
    void setSettings(const grouping::GroupingRequest& settings, bool edit);

    // A device vectors file (cleave device-vector --out): hp, he and ha become choices and its
    // benchmarks the workloads. Why it cannot be read (nothing changes then), or empty.
    QString openVectors(const QString& path);
    const QString& vectorsFile() const { return vectors_; }
    const std::vector<std::string>& benchmarks() const { return benchmarks_; }
    int vectorDevices() const { return vectorDevices_; } // the devices the file describes

    // The grouping on show; null: none.
    const GroupingOutcomePtr& outcome() const { return outcome_; }
    // A grouping found for the hosts on show: a change the project keeps.
    void setOutcome(GroupingOutcomePtr outcome);
    // Counts the times a result stopped applying (restored, hosts changed): a grouping started
    // before is stale when it ends.
    int generation() const { return generation_; }

    // {"groups", "features", "vectors", "workload", "rate_per_s", "batch", "duration_s",
    //  "seed", "result": {"hosts", "group_of", "comparison"} or null}.
    nlohmann::json saveState() const;
    // The settings (a field left out keeps its value), and the result when the hosts on show
    // have the same names and devices it was found for. An error message (a vectors file that no
    // longer reads, a state that does not), or empty; restored() tells the views either way.
    QString restoreState(const nlohmann::json& state);

signals:
    void vectorsChanged();
    void outcomeChanged();
    // The result went: why, for the tab to say.
    void outcomeDropped(const QString& why);
    // A state was restored (error empty; note: what of it could not be used) or refused.
    void restored(const QString& error, const QString& note);
    void changed(); // a change the project keeps

private:
    void clusterChanged();
    void dropOutcome();

    ClusterDocument* cluster_;
    grouping::GroupingRequest settings_; // without the cluster and the vectors file
    QString vectors_;
    std::vector<std::string> benchmarks_;
    int vectorDevices_ = 0;
    GroupingOutcomePtr outcome_;
    // The hosts and devices the result was found for.
    std::vector<std::pair<std::string, std::string>> outcomeHosts_;
    int generation_ = 0;
};

} // namespace cleave::ui
