// The DSE tab's charts of the document's result: the front as a scatter, as parallel coordinates
// and as a 3-D scatter (one tab each) with the evaluated points off it drawn as chosen, and the
// hypervolume over evaluations; with the choices of what they show (axes, colour, dominated and
// infeasible points, the view). Hovering a point or line shows its summary; a click asks for its
// mapping. A decoder's exact optima are stars on the scatter. The page lays out the widgets made
// here (and so owns them).
#pragma once

#include "ui/charts/pareto_front_chart.hpp"
#include "ui/dse/dse_view_state.hpp"

#include <QObject>
#include <vector>

class QComboBox;
class QTabWidget;

namespace cleave::ui {

class DseDocument;
class DseFrontModel;
class Front3dChart;
class HypervolumeChart;
class ParallelCoordinatesChart;

class DseCharts : public QObject {
    Q_OBJECT

public:
    // Draws `document`'s result, its front as `front` holds it (table order).
    DseCharts(const DseDocument* document, const DseFrontModel* front, QObject* parent);

    QComboBox* xAxisBox() const { return xAxis_; }
    QComboBox* yAxisBox() const { return yAxis_; }
    QComboBox* zAxisBox() const { return zAxis_; }
    QComboBox* colourBox() const { return colour_; }
    QComboBox* dominatedBox() const { return dominated_; }
    QComboBox* infeasibleBox() const { return infeasible_; }
    QTabWidget* views() const { return views_; }
    ParetoFrontChart* frontChart() const { return frontView_; }
    ParallelCoordinatesChart* parallelChart() const { return parallelView_; }
    Front3dChart* front3dChart() const { return front3dView_; }
    HypervolumeChart* hypervolumeChart() const { return hypervolumeView_; }

    // The evaluated points drawn under the front: indices into the document's evaluated(), in
    // drawing order.
    const std::vector<int>& cloud() const { return cloud_; }

    // The search's quantities become the axis and colour choices; those made so far are kept
    // where they still exist. No redraw.
    void updateAxisChoices();
    bool hasAxisChoices() const;
    // Four objectives do not fit one scatter: parallel coordinates show them all.
    void showEveryObjective();
    DseViewState viewState() const;
    // Shows `state`'s choices where the boxes offer them, in order; each one that changes says
    // choicesChanged.
    void showViewState(const DseViewState& state);

    // The front and the evaluated points as chosen. `live` (a search runs): the views not on show
    // wait for their tab (or the search's end).
    void drawFront(bool live);
    // The hypervolume history on an axis of `budget` evaluations.
    void drawHypervolume(double budget);

signals:
    void choicesChanged();            // an axis, the colour, a display or the view
    void solutionClicked(int index);  // of the front, table order
    void evaluatedClicked(int index); // into the document's evaluated()
    void exactClicked(int index);     // into the document's exact()

private:
    void createChoices();
    void createViews();
    std::vector<ParetoFrontChart::CloudPoint> drawScatter(const DseAxisModel& axes);
    void drawParallel(const DseAxisModel& axes,
                      const std::vector<ParetoFrontChart::CloudPoint>& cloud);
    void draw3d(const DseAxisModel& axes);
    QString solutionSummary(int index) const;
    QString evaluatedSummary(int index) const;
    QString exactSummary(int index) const;

    const DseDocument* dse_;
    const DseFrontModel* front_;
    QComboBox* xAxis_;
    QComboBox* yAxis_;
    QComboBox* zAxis_;
    QComboBox* colour_;
    QComboBox* dominated_;
    QComboBox* infeasible_;
    QTabWidget* views_;
    ParetoFrontChart* frontView_;
    ParallelCoordinatesChart* parallelView_;
    Front3dChart* front3dView_;
    HypervolumeChart* hypervolumeView_;
    std::vector<int> cloud_;
};

} // namespace cleave::ui
