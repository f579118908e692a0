// Benchmark: the studio's DSE front with many evaluated points. A real search (the DSE tab's
// NSGA-II, two levels, population 800 x 300 generations: a population keeps its survivors, so it
// takes a large one to meet 10,000 distinct mappings) runs over MODEL on CLUSTER; the panel's state
// is then cut to exactly N evaluated points (default 10,000) and restored, so the scatter shows the
// front over N points. Measured, at 1366x768 offscreen: a redraw (a new colour choice: the points
// re-binned, the scatter, parallel coordinates and 3-D series refilled, the scatter painted), the
// parallel-coordinates view painted, and a hover (a mouse move over a point: the hit test, the
// tooltip). Median and max (goal: redraw under 50 ms).
// Usage: dse_front_view_bench MODEL.onnx CLUSTER [--points N] [--repeat R] [--json FILE]
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "ui/charts/parallel_coordinates_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

using namespace cleave;

namespace {

double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

struct Timing {
    double median = 0, max = 0;
};

Timing summarise(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

} // namespace

int main(int argc, char** argv) try {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: dse_front_view_bench MODEL.onnx CLUSTER [--points N] "
                             "[--repeat R] [--json FILE]\n");
        return 2;
    }
    const std::string model_file = argv[1], cluster_file = argv[2];
    std::size_t points = 10000;
    int repeat = 30;
    std::string json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--points")
            points = static_cast<std::size_t>(std::stoul(argv[i + 1]));
        else if (flag == "--repeat")
            repeat = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_file = argv[i + 1];
    }
    const auto model = std::make_shared<const graph::Model>(graph::load_model(model_file));
    const auto kernels = std::make_shared<const fusion::KernelGraph>(
        fusion::detect_kernels(*model, fusion::find_fusion_method("ort-cpu")));
    const auto cluster =
        std::make_shared<const device::Cluster>(device::load_cluster(cluster_file));
    auto inputs = std::make_shared<const ui::PartitionInputs>(
        ui::prepare_partition({model, kernels, cluster, "ort-cpu"}));

    ui::PartitionDocument mapping;
    ui::PartitionPage page{&mapping};
    page.document()->setInputs(inputs);
    ui::DseDocument search(page.document());
    ui::DsePage panel(&search);
    panel.resize(1366, 768);
    panel.show();
    QApplication::processEvents();

    // A real search, long enough to evaluate the points asked for.
    panel.populationBox()->setValue(800);
    panel.generationsBox()->setValue(300);
    auto start = std::chrono::steady_clock::now();
    QSignalSpy finished(&panel, &ui::DsePage::finished);
    if (!panel.run())
        throw std::runtime_error("the search did not start: " + panel.errorText().toStdString());
    if (!finished.wait(600000))
        throw std::runtime_error("the search did not finish in 10 minutes");
    const std::size_t kept = search.evaluated().size();
    const double search_ms = since_ms(start);
    auto state = search.saveState();
    auto& evaluated = state["result"]["evaluated"];
    if (evaluated.size() < points)
        throw std::runtime_error("the search evaluated " + std::to_string(evaluated.size()) +
                                 " distinct mappings, fewer than " + std::to_string(points));
    evaluated.erase(evaluated.begin(),
                    evaluated.begin() + static_cast<std::ptrdiff_t>(evaluated.size() - points));
    state["view"]["dominated"] = "shown";
    state["view"]["infeasible"] = "shown";
    state["view"]["tab"] = 0;
    if (!search.restoreState(state).isEmpty())
        throw std::runtime_error(panel.statusText().toStdString());
    auto* chart = panel.frontChart();
    (void)panel.grab();
    const std::size_t drawn = chart->cloud()->points().size() + search.front().size();

    // Redraw: alternate the colour between two quantities; each change recomputes every view's
    // data and paints the scatter.
    auto* colour = panel.colourBox();
    const int a = colour->findText("generation"), b = colour->findText("max energy (mJ)");
    std::vector<double> redraw, parallel, hover;
    for (int r = 0; r < repeat + 3; ++r) {
        start = std::chrono::steady_clock::now();
        colour->setCurrentIndex(r % 2 == 0 ? a : b);
        (void)chart->grab();
        if (r >= 3)
            redraw.push_back(since_ms(start));
    }
    // Parallel coordinates: the lines redrawn into their cache and painted.
    panel.views()->setCurrentWidget(panel.parallelChart());
    QApplication::processEvents();
    for (int r = 0; r < repeat + 3; ++r) {
        colour->setCurrentIndex(r % 2 == 0 ? a : b);
        start = std::chrono::steady_clock::now();
        (void)panel.parallelChart()->grab();
        if (r >= 3)
            parallel.push_back(since_ms(start));
    }
    panel.views()->setCurrentWidget(chart);
    QApplication::processEvents();
    (void)chart->grab();
    // Hover: mouse moves onto random points of the cloud, through the view and the scene.
    std::mt19937 random(1);
    auto* cloud = chart->cloud();
    int hits = 0;
    std::uniform_int_distribution<int> pick(0, static_cast<int>(cloud->points().size()) - 1);
    for (int r = 0; r < repeat * 10; ++r) {
        const int index = pick(random);
        const QPoint at = chart->mapFromScene(cloud->mapToScene(cloud->positionOf(index)));
        QMouseEvent move(QEvent::MouseMove, QPointF(at),
                         chart->viewport()->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        start = std::chrono::steady_clock::now();
        QApplication::sendEvent(chart->viewport(), &move);
        hover.push_back(since_ms(start));
        hits += cloud->indexAt(cloud->positionOf(index)) >= 0 ? 1 : 0;
    }
    const auto hit_test = [&] {
        std::vector<double> ms;
        const QRectF area = chart->chart()->plotArea();
        std::uniform_real_distribution<double> x(area.left(), area.right()),
            y(area.top(), area.bottom());
        for (int r = 0; r < repeat * 10; ++r) {
            const QPointF p(x(random), y(random));
            start = std::chrono::steady_clock::now();
            (void)cloud->indexAt(p);
            ms.push_back(since_ms(start));
        }
        return summarise(ms);
    }();
    // The state a project file keeps (B's autosave calls it): 10,000 evaluated points as JSON.
    std::vector<double> save;
    std::size_t state_bytes = 0;
    for (int k = 0; k < 5; ++k) {
        start = std::chrono::steady_clock::now();
        state_bytes = search.saveState().dump().size();
        save.push_back(since_ms(start));
    }
    const auto r = summarise(redraw), p = summarise(parallel), h = summarise(hover),
               st = summarise(save);
    std::printf("%s on %s: search %.0f ms, %zu distinct mappings kept; %zu points drawn (front "
                "%zu + %zu evaluated)\n",
                model_file.c_str(), cluster_file.c_str(), search_ms, kept, drawn,
                search.front().size(), cloud->points().size());
    std::printf("  redraw (recolour, refill every view, paint the scatter): median %.1f ms, max "
                "%.1f ms (goal < 50 ms)\n",
                r.median, r.max);
    std::printf("  parallel coordinates paint (%zu lines): median %.1f ms, max %.1f ms\n",
                panel.parallelChart()->lines().size(), p.median, p.max);
    std::printf("  hover (mouse move over a point: hit test, tooltip): median %.3f ms, max %.3f "
                "ms; hit test alone median %.3f ms, max %.3f ms\n",
                h.median, h.max, hit_test.median, hit_test.max);
    std::printf("  saveState + dump: median %.1f ms, %.1f MB of JSON\n", st.median,
                static_cast<double>(state_bytes) / 1e6);
    if (hits != repeat * 10)
        throw std::runtime_error("a hover missed its point");
    if (!json_file.empty()) {
        const nlohmann::ordered_json out{{"model", model_file},
                                         {"cluster", cluster_file},
                                         {"points", drawn},
                                         {"front", search.front().size()},
                                         {"search_ms", search_ms},
                                         {"redraw_median_ms", r.median},
                                         {"redraw_max_ms", r.max},
                                         {"parallel_median_ms", p.median},
                                         {"parallel_max_ms", p.max},
                                         {"hover_median_ms", h.median},
                                         {"hover_max_ms", h.max},
                                         {"hit_test_median_ms", hit_test.median},
                                         {"hit_test_max_ms", hit_test.max},
                                         {"save_state_median_ms", st.median},
                                         {"save_state_bytes", state_bytes},
                                         {"goal_ms", 50}};
        std::ofstream(json_file) << out.dump(2) << '\n';
    }
    return r.median < 50 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "dse_front_view_bench: %s\n", e.what());
    return 2;
}
