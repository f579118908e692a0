// The studio's DSE tab: the multi-stage NSGA-II search of core/dse over the Partition tab's
// kernels and cluster, shown from and kept in the document's DseDocument. Settings (checked with
// dse::check_settings before a run), Run, Pause and Cancel, a progress bar over the evaluation
// budget; the live Pareto front as a scatter with a choice of axes and the third objective as
// colour, the hypervolume over evaluations, and a table of the front. Hovering a point shows its
// mapping; clicking a point or a row applies its mapping to the Partition tab as one undo step. The
// search runs on a worker thread (DseRunner). Exploring the front: the points the search evaluated
// besides the front (dominated, infeasible) hidden, shown or marked; colour by generation; parallel
// coordinates and a 3-D scatter; the front exported as CSV or JSON, a solution as an AutoDiCE
// package. A project saves and restores the DseDocument; the tab shows what it holds. The tab
// lays out its settings form (DseSettingsForm), its charts (DseCharts) and the table, and runs.
#pragma once

#include "ui/document/dse_runner.hpp"
#include "ui/dse/dse_charts.hpp"
#include "ui/dse/dse_settings_form.hpp"

#include <QWidget>
#include <nlohmann/json.hpp>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace cleave::ui {

class DseDocument;
class DseFrontModel;
class PartitionDocument;

class DsePage : public QWidget {
    Q_OBJECT

public:
    // Runs and shows `document`'s search (over its mapping's inputs; solutions apply to that).
    explicit DsePage(DseDocument* document, QWidget* parent = nullptr);
    DseDocument* document() const { return dse_; }

    // Starts a search with the settings on show; false (and the reason on show) when the
    // settings are refused, there are no inputs or a search runs.
    bool run();
    void pause();
    void resume();
    void cancel();
    bool isRunning() const { return runner_->isRunning(); }
    // Applies the front's solution `index` (table order: fastest first) to the Partition tab.
    bool applySolution(int index);

    // The evaluated points drawn under the front: indices into the document's evaluated(), in
    // drawing order.
    const std::vector<int>& cloud() const { return charts_->cloud(); }

    // Writes the front (DseDocument::exportFront); false with the reason in errorText() when it
    // cannot.
    bool exportFront(const QString& path);

    DseRunner* runner() const { return runner_; }
    QSpinBox* populationBox() const { return settingsForm_->populationBox(); }
    QSpinBox* generationsBox() const { return settingsForm_->generationsBox(); }
    QComboBox* encodingBox() const { return settingsForm_->encodingBox(); }
    QComboBox* stagesBox() const { return settingsForm_->stagesBox(); }
    QComboBox* levelsBox() const { return settingsForm_->levelsBox(); }
    QSpinBox* seedBox() const { return settingsForm_->seedBox(); }
    QComboBox* colourBox() const { return charts_->colourBox(); }
    QComboBox* xAxisBox() const { return charts_->xAxisBox(); }
    QComboBox* yAxisBox() const { return charts_->yAxisBox(); }
    QComboBox* zAxisBox() const { return charts_->zAxisBox(); }
    QComboBox* dominatedBox() const { return charts_->dominatedBox(); }
    QComboBox* infeasibleBox() const { return charts_->infeasibleBox(); }
    QTabWidget* views() const { return charts_->views(); }
    ParallelCoordinatesChart* parallelChart() const { return charts_->parallelChart(); }
    Front3dChart* front3dChart() const { return charts_->front3dChart(); }
    QPushButton* exportFrontButton() const { return exportFrontButton_; }
    QPushButton* exportPackageButton() const { return exportPackageButton_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* pauseButton() const { return pauseButton_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    QProgressBar* progressBar() const { return progress_; }
    QTableView* table() const { return table_; }
    ParetoFrontChart* frontChart() const { return charts_->frontChart(); }
    HypervolumeChart* hypervolumeChart() const { return charts_->hypervolumeChart(); }
    QString statusText() const;
    QString errorText() const;
    // The tooltip of the front's solution `index`: its mapping and objectives.
    QString solutionSummary(int index) const;

signals:
    void finished(); // a search ended: done, cancelled or failed
    void solutionApplied(int index);
    // The solution selected was applied; MainWindow asks where to export it.
    void exportPackageRequested();

private:
    void createRunControls();
    void createFrontControls();
    QWidget* layOutRunControls();
    QWidget* layOutFront();
    void connectControls();
    void connectDocument();

    dse::SearchSettings settings() const; // on show
    void inputsChanged();
    void checkSettings();
    void updateButtons();
    void showStep(const DseStep& step);
    void showOutcome();
    QString exactText() const;
    void showResult(); // the document's result: front, table, charts, progress
    void showRestored(const QString& error, bool withResult);
    void pushView();
    void drawFront();
    bool applyMapping(const dse::Solution& solution);
    // Applies point `index` of `points`, off the front's table (an evaluated point of any kind,
    // an exact optimum), to the Partition tab as one undo step.
    bool applyOffFront(const std::vector<dse::Solution>& points, int index);
    void exportFrontDialog();

    DseDocument* dse_;
    PartitionDocument* mapping_;
    DseRunner* runner_;
    DseSettingsForm* settingsForm_;
    QPushButton* runButton_;
    QPushButton* pauseButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* error_;
    QLabel* notes_;
    DseFrontModel* frontModel_;
    DseCharts* charts_;
    QPushButton* exportFrontButton_;
    QPushButton* exportPackageButton_;
    QTableView* table_;

    QString settingsError_;
    bool applying_ = false;   // showing the document's settings and view: no edit
    bool discardRun_ = false; // a state was restored while a search ran: drop what it reports
};

} // namespace cleave::ui
