// Benchmark: one drag step in the studio's Partition tab. The model is split over every host of
// the cluster (one PE each), and a split handle is dragged by one kernel with mouse events; each
// step evaluates the mapping, updates the strip, the per-PE bars and the link table, and paints
// the whole page (grab() forces the paint offscreen); a model of many kernels is zoomed in around
// the split first. Median and max over the steps (goal: under 16 ms, one frame at 60 Hz, for
// densenet121 on nx8.cluster.json, and for decoder stacks of 10k and 50k nodes).
// Usage: partition_view_bench MODEL.onnx CLUSTER [--steps N] [--json FILE]
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/balanced_mapping.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/partition/partition_view.hpp"

#include <QApplication>
#include <QMouseEvent>
#include <QPixmap>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace cleave;

namespace {

double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

void send_mouse(QWidget* widget, QEvent::Type type, QPoint position) {
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    const Qt::MouseButtons held =
        type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, QPointF(position), widget->mapToGlobal(QPointF(position)), button, held,
                      Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
}

} // namespace

int main(int argc, char** argv) try {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: partition_view_bench MODEL.onnx CLUSTER [--steps N] [--json FILE]\n");
        return 2;
    }
    const std::string model_file = argv[1], cluster_file = argv[2];
    int steps = 200;
    std::string json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--steps")
            steps = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_file = argv[i + 1];
    }
    const auto model = std::make_shared<const graph::Model>(graph::load_model(model_file));
    const auto kernels = std::make_shared<const fusion::KernelGraph>(
        fusion::detect_kernels(*model, fusion::find_fusion_method("ort-cpu")));
    const auto cluster =
        std::make_shared<const device::Cluster>(device::load_cluster(cluster_file));
    auto start = std::chrono::steady_clock::now();
    auto inputs = std::make_shared<const ui::PartitionInputs>(
        ui::prepare_partition({model, kernels, cluster, "ort-cpu"}));
    const double prepare_ms = since_ms(start);

    ui::PartitionDocument mapping;
    ui::PartitionPage page{&mapping};
    start = std::chrono::steady_clock::now();
    page.document()->setInputs(inputs); // the opening mapping: splits between blocks, balanced
    const double open_ms = since_ms(start);
    // Split over every host, on its first PE with latencies (nx8: the eight GPUs).
    std::vector<int> pes;
    for (std::size_t host = 0; host < cluster->hosts.size(); ++host)
        for (int pe = 0; pe < inputs->peCount(); ++pe)
            if (cluster->pes[static_cast<std::size_t>(pe)].host_index == host &&
                inputs->hasLatencies(pe)) {
                pes.push_back(pe);
                break;
            }
    page.document()->replaceMapping(partition::balanced_mapping(inputs->kernel_ms, pes), "split over every host");
    page.resize(1366, 768);
    page.show();
    QApplication::processEvents();
    (void)page.grab();
    auto* view = page.view();
    const auto* document = page.document();
    if (document->mapping().points.size() < 2)
        throw std::runtime_error("the balanced mapping has fewer than three segments");
    const int split = static_cast<int>(document->mapping().points.size()) / 2;
    const int home = document->mapping().points[static_cast<std::size_t>(split)];

    // Kernels narrower than 4 pixels: zoom in around the split first, as a user would, to about
    // 8 pixels a kernel.
    const double shown = view->width() / 8.0;
    if (view->width() < 4 * document->kernelCount())
        view->showKernels(home - shown / 2, home + shown / 2);

    // Back and forth between two neighbouring kernel boundaries: each step moves it by one.
    send_mouse(view, QEvent::MouseButtonPress, view->handlePosition(split));
    std::vector<double> ms;
    const int warm_up = 10;
    for (int step = 0; step < steps + warm_up; ++step) {
        const int target = step % 2 == 0 ? home + 1 : home;
        start = std::chrono::steady_clock::now();
        send_mouse(view, QEvent::MouseMove, view->boundaryPosition(target));
        (void)page.grab();
        const double took = since_ms(start);
        if (document->mapping().points[static_cast<std::size_t>(split)] != target)
            throw std::runtime_error("the drag did not move split " + std::to_string(split) +
                                     " from " + std::to_string(home) + " to " +
                                     std::to_string(target) + " (view " +
                                     std::to_string(view->width()) + " px wide)");
        if (step >= warm_up)
            ms.push_back(took);
    }
    send_mouse(view, QEvent::MouseButtonRelease, view->boundaryPosition(home));
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double max = ms.back();
    std::printf("%s on %s: %d kernels, %zu segments, predicting every PE %.1f ms, the opening "
                "mapping %.1f ms\n",
                model_file.c_str(), cluster_file.c_str(), document->kernelCount(),
                document->mapping().pes.size(), prepare_ms, open_ms);
    std::printf("  drag step (evaluate + repaint the 1366x768 page): median %.2f ms, max %.2f ms "
                "over %zu steps (goal < 16 ms)\n",
                median, max, ms.size());
    if (!json_file.empty()) {
        const nlohmann::ordered_json document_json{{"model", model_file},
                                                   {"cluster", cluster_file},
                                                   {"kernels", document->kernelCount()},
                                                   {"segments", document->mapping().pes.size()},
                                                   {"prepare_ms", prepare_ms},
                                                   {"open_ms", open_ms},
                                                   {"steps", ms.size()},
                                                   {"median_ms", median},
                                                   {"max_ms", max},
                                                   {"goal_ms", 16}};
        std::ofstream(json_file) << document_json.dump(2) << '\n';
    }
    return median < 16 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "partition_view_bench: %s\n", e.what());
    return 2;
}
