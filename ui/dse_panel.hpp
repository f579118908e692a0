// The studio's DSE tab: the multi-stage NSGA-II search of core/dse over the Partition tab's
// kernels and cluster. Settings (checked with dse::check_settings before a run), Run, Pause and
// Cancel, a progress bar over the evaluation budget; the live Pareto front as a scatter with a
// choice of axes and the third objective as colour, the hypervolume over evaluations, and a table
// of the front. Hovering a point shows its mapping; clicking a point or a row applies its mapping
// to the Partition tab as one undo step. The search runs on a worker thread (DseRunner).
#pragma once

#include "dse_runner.hpp"

#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace cleave::ui {

class DseFrontModel;
class HypervolumeChart;
class ParetoFrontChart;
class PartitionDocument;

class DsePanel : public QWidget {
    Q_OBJECT

public:
    // Searches over `document`'s inputs and applies solutions to it.
    explicit DsePanel(PartitionDocument* document, QWidget* parent = nullptr);

    // The quantities the front's axes and colour may show.
    enum class Quantity { none, throughput, memory, energy, latency };

    // The settings on show; why they cannot run (the check's message), or empty.
    dse::SearchSettings settings() const;
    QString settingsError() const;
    // Starts a search with the settings on show; false (and the reason on show) when the
    // settings are refused, there are no inputs or a search runs.
    bool run();
    void pause();
    void resume();
    void cancel();
    bool isRunning() const { return runner_->isRunning(); }
    // Applies the front's solution `index` (table order: fastest first) to the Partition tab.
    bool applySolution(int index);

    const std::vector<dse::Solution>& front() const;
    const std::vector<dse::HypervolumeStep>& history() const { return history_; }
    DseRunner* runner() const { return runner_; }
    QSpinBox* populationBox() const { return population_; }
    QSpinBox* generationsBox() const { return generations_; }
    QComboBox* encodingBox() const { return encoding_; }
    QComboBox* stagesBox() const { return stages_; }
    QComboBox* levelsBox() const { return levels_; }
    QSpinBox* seedBox() const { return seed_; }
    QComboBox* xAxisBox() const { return xAxis_; }
    QComboBox* yAxisBox() const { return yAxis_; }
    QComboBox* colourBox() const { return colour_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* pauseButton() const { return pauseButton_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    QProgressBar* progressBar() const { return progress_; }
    QTableView* table() const { return table_; }
    DseFrontModel* frontModel() const { return frontModel_; }
    ParetoFrontChart* frontChart() const { return frontView_; }
    HypervolumeChart* hypervolumeChart() const { return hypervolumeView_; }
    QString statusText() const;
    QString errorText() const;
    // The tooltip of the front's solution `index`: its mapping and objectives.
    QString solutionSummary(int index) const;

signals:
    void finished(); // a search ended: done, cancelled or failed
    void solutionApplied(int index);

private:
    void inputsChanged();
    void checkSettings();
    void updateButtons();
    void showStep(const DseStep& step);
    void showResult();
    void setFront(std::vector<dse::Solution> front);
    void updateAxisChoices();
    void drawFront();
    void drawHypervolume();
    double valueOf(const dse::Solution& solution, Quantity quantity) const;
    QString nameOf(Quantity quantity) const;

    PartitionDocument* document_;
    DseRunner* runner_;
    QComboBox* encoding_;
    QSpinBox* population_;
    QSpinBox* generations_;
    QComboBox* stages_;
    QComboBox* levels_;
    QSpinBox* seed_;
    QCheckBox* latency_;
    QPushButton* runButton_;
    QPushButton* pauseButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* error_;
    QLabel* notes_;
    QComboBox* xAxis_;
    QComboBox* yAxis_;
    QComboBox* colour_;
    ParetoFrontChart* frontView_;
    HypervolumeChart* hypervolumeView_;
    DseFrontModel* frontModel_;
    QTableView* table_;

    dse::ObjectiveSet objectives_; // of the front on show
    std::vector<dse::HypervolumeStep> history_;
    PartitionInputsPtr frontInputs_; // what the front on show was searched over
    QString settingsError_;
};

} // namespace cleave::ui
