#include "export_menus.hpp"

#include "charts/hypervolume_chart.hpp"
#include "charts/latency_breakdown_chart.hpp"
#include "charts/measured_scatter_chart.hpp"
#include "charts/pareto_front_chart.hpp"
#include "dse_panel.hpp"
#include "graph_view.hpp"
#include "latency_breakdown_dock.hpp"
#include "main_window.hpp"
#include "measured_comparison_dock.hpp"
#include "partition_page.hpp"
#include "partition_view.hpp"
#include "pe_figures_view.hpp"
#include "view_export.hpp"

namespace cleave::ui {

void installExportMenus(MainWindow& window) {
    installExportMenu(window.graphView(), "graph");
    // The strip has a menu of its own (splits, segments); it adds the entry there.
    installExportMenu(window.partitionPage()->view(), "partition", true);
    installExportMenu(window.partitionPage()->figures(), "pe-figures");
    installExportMenu(window.breakdownDock()->chart(), "latency-breakdown");
    installExportMenu(window.comparisonDock()->chart(), "predicted-vs-measured");
    installExportMenu(window.dsePanel()->frontChart(), "pareto-front");
    installExportMenu(window.dsePanel()->hypervolumeChart(), "hypervolume");
}

} // namespace cleave::ui
