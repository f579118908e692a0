// Benchmark: the studio opening a model, offscreen. For each model a new main window opens the
// file and the clock runs until the graph view shows the laid-out graph and has painted it once
// (loading, fusion, layout on its worker thread, the scene); then the cost of a frame: the
// viewport painted after a pan of 100 pixels at 1:1, with the whole graph fitted into the window,
// and, for a model laid out in blocks, after folding or opening the middle block at 1:1 (median
// of 10 each), with the process's peak RSS so far.
// Usage: studio_open_bench MODEL... [--json FILE]
#include "ui/graph/graph_items.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/shell/main_window.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace cleave;

namespace {

double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

double peak_rss_mb() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

template <typename Step> double median_ms(int repeat, Step step) {
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        step(i);
        ms.push_back(since_ms(start));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv) try {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<std::string> models;
    std::string json_file;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            json_file = argv[++i];
        else
            models.push_back(a);
    }
    if (models.empty()) {
        std::fprintf(stderr, "usage: studio_open_bench MODEL... [--json FILE]\n");
        return 2;
    }
    std::printf("%-20s | %10s %12s %12s %12s %10s\n", "model", "shown s", "pan ms", "fitted ms",
                "fold ms", "peak MB");
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const auto& file : models) {
        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QEventLoop loop;
        bool failed = false;
        QObject::connect(window.graphView(), &ui::GraphView::layoutFinished, &loop,
                         &QEventLoop::quit);
        QObject::connect(window.graphView(), &ui::GraphView::layoutFailed, &loop, [&] {
            failed = true;
            loop.quit();
        });
        QObject::connect(&window, &ui::MainWindow::loadFailed, &loop, [&] {
            failed = true;
            loop.quit();
        });
        const auto start = std::chrono::steady_clock::now();
        window.openFile(QString::fromStdString(file));
        loop.exec();
        if (failed)
            throw std::runtime_error(file + ": the studio could not show it");
        auto* view = window.graphView();
        view->viewport()->grab();
        const double shown_s = since_ms(start) / 1000;
        view->zoomToActualSize();
        const double pan_ms = median_ms(10, [&](int i) {
            auto* bar = view->verticalScrollBar();
            bar->setValue(bar->value() + (i % 2 ? -100 : 100));
            view->viewport()->grab();
        });
        view->fitGraph();
        const double fitted_ms = median_ms(10, [&](int) { view->viewport()->grab(); });
        double fold_ms = 0;
        if (auto* scene = view->graphScene(); !scene->blockItems().isEmpty()) {
            const int middle = static_cast<int>(scene->blockItems().size()) / 2;
            view->zoomToActualSize();
            view->centerOn(scene->blockItems()[middle]->sceneBoundingRect().center());
            fold_ms = median_ms(10, [&](int i) {
                scene->setBlockCollapsed(middle, i % 2 == 0);
                view->viewport()->grab();
            });
        }
        const auto name = std::filesystem::path(file).stem().string();
        std::printf("%-20s | %10.2f %12.1f %12.1f %12.1f %10.0f\n", name.c_str(), shown_s, pan_ms,
                    fitted_ms, fold_ms, peak_rss_mb());
        std::fflush(stdout);
        results.push_back({{"model", name},
                           {"shown_s", shown_s},
                           {"pan_frame_ms", pan_ms},
                           {"fitted_frame_ms", fitted_ms},
                           {"fold_frame_ms", fold_ms},
                           {"peak_rss_mb", peak_rss_mb()}});
    }
    if (!json_file.empty())
        std::ofstream(json_file) << results.dump(1) << '\n';
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "studio_open_bench: %s\n", e.what());
    return 1;
}
