#include "ui/shell/export_menus.hpp"

#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/latency_breakdown_chart.hpp"
#include "ui/charts/measured_scatter_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/latency/measured_comparison_dock.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/partition/partition_view.hpp"
#include "ui/partition/pe_figures_view.hpp"
#include "ui/export/view_export.hpp"

namespace cleave::ui {

void installExportMenus(MainWindow& window) {
    installExportMenu(window.graphView(), "graph");
    // The strip has a menu of its own (splits, segments); it adds the entry there.
    installExportMenu(window.partitionPage()->view(), "partition", true);
    installExportMenu(window.partitionPage()->figures(), "pe-figures");
    installExportMenu(window.breakdownDock()->chart(), "latency-breakdown");
    installExportMenu(window.comparisonDock()->chart(), "predicted-vs-measured");
    installExportMenu(window.dsePage()->frontChart(), "pareto-front");
    installExportMenu(window.dsePage()->hypervolumeChart(), "hypervolume");
}

} // namespace cleave::ui
