// The studio's Grouping tab: the Cluster tab's hosts split into G groups with balanced feature
// totals, as `cleave group` does (ui/grouping_job, core/grouping). Settings: G, the feature set
// (flops, config; hp, he, ha once a device vectors file is open), a workload of that file with a
// task rate for Arch2End's Case 2 serving simulation, the seed. The result: groups in colour (a
// legend, and the Cluster tab's host table), per-group bars of the feature sums and the serving
// latency, a table of the groups and one of the spread across groups for every feature set.
// The grouping runs off the UI thread. saveState()/restoreState() keep settings and result.
#pragma once

#include "core/grouping/grouping_run.hpp"

#include <QColor>
#include <QHash>
#include <QList>
#include <QWidget>
#include <memory>
#include <nlohmann/json.hpp>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStandardItemModel;
class QTableView;

namespace cleave::ui {

class ClusterDocument;
class GroupBarsChart;

using grouping::GroupingOutcome;
using grouping::GroupingRequest;
using GroupingOutcomePtr = std::shared_ptr<const GroupingOutcome>;

class GroupingPage : public QWidget {
    Q_OBJECT

public:
    explicit GroupingPage(ClusterDocument* document, QWidget* parent = nullptr);

    // Opens a device vectors file (cleave device-vector --out): hp, he and ha become choices and
    // its benchmarks the workloads. An error message naming the file and place, or empty.
    QString openVectors(const QString& path);
    QString vectorsFile() const { return vectors_; }
    // The request the settings on show make.
    GroupingRequest request() const;
    // Starts grouping the cluster on show off the UI thread; false, with the reason on show,
    // when it cannot start.
    bool run();
    bool isRunning() const { return running_; }
    const GroupingOutcomePtr& outcome() const { return outcome_; }
    // The groups (from 0) of the result on show, by host name; empty without one.
    QHash<QString, int> groupOfHost() const;
    // Qualitative colours (ColorBrewer Set2, then evenly spread hues), one per group.
    static QList<QColor> groupColours(int groups);

    // {"groups", "features", "vectors", "workload", "rate_per_s", "batch", "duration_s",
    //  "seed", "result": {"hosts", "group_of", "comparison"} or null}.
    nlohmann::json saveState() const;
    // The settings (a field left out keeps its value), and the result when the cluster on show has
    // the same hosts and devices it was found for. An error message (a vectors file that no longer
    // reads), or empty.
    QString restoreState(const nlohmann::json& state);
    // Settings from a JSON file (saveState's fields; those left out keep their value), then a
    // grouping with them, unless the file holds a result. An error message, or empty.
    QString runSettingsFile(const QString& path);

    QSpinBox* groupsBox() const { return groups_; }
    QComboBox* featuresBox() const { return features_; }
    QComboBox* workloadBox() const { return workload_; }
    QDoubleSpinBox* rateBox() const { return rate_; }
    QSpinBox* batchBox() const { return batch_; }
    QSpinBox* seedBox() const { return seed_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* vectorsButton() const { return vectorsButton_; }
    GroupBarsChart* featureChart() const { return featureChart_; }
    GroupBarsChart* servingChart() const { return servingChart_; }
    QTableView* groupTable() const { return groupTable_; }
    QTableView* comparisonTable() const { return comparisonTable_; }
    QString statusText() const;
    QString errorText() const;
    QString legendText() const;

signals:
    void finished(); // a grouping ended, with a result or an error
    void groupsChanged(const QHash<QString, int>& groups, const QList<QColor>& colours);

private:
    void clusterChanged();
    void workloadChanged();
    void updateChoices();
    void showOutcome(GroupingOutcomePtr outcome, double seconds);
    void showError(const QString& message);
    void clearResult();
    void fillGroupTable();
    void fillCharts();
    void fillComparison();

    ClusterDocument* document_;
    QSpinBox* groups_;
    QComboBox* features_;
    QLabel* vectorsLabel_;
    QPushButton* vectorsButton_;
    QComboBox* workload_;
    QDoubleSpinBox* rate_;
    QSpinBox* batch_;
    QDoubleSpinBox* duration_;
    QSpinBox* seed_;
    QLabel* capacity_;
    QPushButton* runButton_;
    QLabel* status_;
    QLabel* error_;
    QLabel* legend_;
    GroupBarsChart* featureChart_;
    GroupBarsChart* servingChart_;
    QStandardItemModel* groupModel_;
    QTableView* groupTable_;
    QStandardItemModel* comparisonModel_;
    QTableView* comparisonTable_;
    QLabel* comparisonNote_;

    QString vectors_;
    std::vector<std::string> benchmarks_;
    GroupingOutcomePtr outcome_;
    // The hosts and devices the result on show was found for.
    std::vector<std::pair<std::string, std::string>> outcomeHosts_;
    bool running_ = false;
    int generation_ = 0;
};

} // namespace cleave::ui
