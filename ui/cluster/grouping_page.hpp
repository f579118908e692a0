// The studio's Grouping tab: the Cluster tab's hosts split into G groups with balanced feature
// totals, as `cleave group` does (ui/grouping_job, core/grouping). Settings: G, the feature set
// (flops, config; hp, he, ha once a device vectors file is open), a workload of that file with a
// task rate for Arch2End's Case 2 serving simulation, the seed. The result (GroupingResultView):
// groups in colour (a legend, and the Cluster tab's host table), per-group bars of the feature
// sums and the serving latency, a table of the groups and one of the spread across groups for
// every feature set. The grouping runs off the UI thread. Settings and result are the studio
// document's GroupingDocument; the tab edits and shows them.
#pragma once

#include "ui/document/grouping_document.hpp"
#include "ui/cluster/grouping_result_view.hpp"

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
class QTableView;

namespace cleave::ui {

class ClusterDocument;
class TaskRunner;

class GroupingPage : public QWidget {
    Q_OBJECT

public:
    // Edits and runs `document`'s grouping (of its cluster editor's hosts).
    explicit GroupingPage(GroupingDocument* document, QWidget* parent = nullptr);
    GroupingDocument* document() const { return grouping_; }

    // Opens a device vectors file (GroupingDocument::openVectors); an error message naming the
    // file and place (also on show), or empty.
    QString openVectors(const QString& path);
    // Starts grouping the cluster on show off the UI thread; false, with the reason on show,
    // when it cannot start.
    bool run();
    bool isRunning() const;
    // The groups (from 0) of the result on show, by host name; empty without one.
    QHash<QString, int> groupOfHost() const;

    // Settings from a JSON file (GroupingDocument::saveState's fields; those left out keep their
    // value), then a grouping with them, unless the file holds a result. An error message, or
    // empty.
    QString runSettingsFile(const QString& path);

    QSpinBox* groupsBox() const { return groups_; }
    QComboBox* featuresBox() const { return features_; }
    QComboBox* workloadBox() const { return workload_; }
    GroupBarsChart* featureChart() const { return result_->featureChart(); }
    GroupBarsChart* servingChart() const { return result_->servingChart(); }
    QTableView* comparisonTable() const { return result_->comparisonTable(); }
    QString statusText() const;
    QString errorText() const;
    QString legendText() const { return result_->legendText(); }

signals:
    void finished(); // a grouping ended, with a result or an error
    void groupsChanged(const QHash<QString, int>& groups, const QList<QColor>& colours);

private:
    void createFields();
    QWidget* layOutSettings();
    void connectSignals();
    void clusterChanged();
    void workloadChanged();
    void updateChoices();
    grouping::GroupingRequest requestOnShow() const;
    void pushSettings();
    void showRestored(const QString& error, const QString& note);
    void showOutcome();
    void showError(const QString& message);
    void clearShown();

    GroupingDocument* grouping_;
    ClusterDocument* cluster_;
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
    GroupingResultView* result_;

    TaskRunner* runner_;
    bool applying_ = false; // showing the document's settings: no edit
    double seconds_ = 0;    // how long the grouping on show took; 0: not timed here
};

} // namespace cleave::ui
