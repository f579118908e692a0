// cleave-render (run by `cleave render`, which links no Qt): the studio's charts and views drawn
// headless to a PNG or SVG file, laid out and computed synchronously: the fused graph, the
// partition strip with its per-PE figures, a search's Pareto front and hypervolume (a file of
// cleave dse --out) and the latency breakdown. Needs no display: Qt runs on its offscreen platform
// unless QT_QPA_PLATFORM says otherwise. Exit codes as cleave's: 0 success, 2 bad input or usage,
// 1 internal failure.
#include "core/dse/front_output.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/layout/graph_layout.hpp"
#include "cli_main.hpp"
#include "mapping_options.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "ui/charts/chart_colours.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/latency_breakdown_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/latency/latency_by_type_model.hpp"
#include "ui/latency/latency_legend.hpp"
#include "ui/document/latency_report.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_view.hpp"
#include "ui/partition/pe_figures_view.hpp"
#include "ui/shell/theme.hpp"
#include "ui/shell/translations.hpp"
#include "ui/export/view_export.hpp"

#include <QApplication>
#include <QChart>
#include <QStyleFactory>
#include <QVBoxLayout>
#include <algorithm>
#include <cleave/version.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace cleave::cli {

namespace {

const std::vector<std::string> kViews{"graph", "partition", "front", "hypervolume", "breakdown"};
constexpr double kMiB = 1024.0 * 1024.0;
constexpr qreal kGraphMargin = 16;

struct RenderOptions {
    std::string view;
    std::string input;
    std::string out;
    bool json = false;
    ModelOptions model; // its shapes and dim bindings; the path is `input`
    std::string rules = "ort-cpu";
    std::string cluster;
    MappingOptions mapping;
    std::string device;
    bool collapse = false;
    bool fold_blocks = false;
    double scale = 2.0;
    int width = 900;
    int height = 560;
    std::string x = "throughput";
    std::string y = "memory";
    std::string colour = "auto";
    std::string theme = "light";
};

// Flags that only some views read: given to another view, they are a mistake worth naming.
void refuse(bool given, const char* flag, const RenderOptions& options) {
    if (given)
        throw InputError("", flag, "the " + options.view + " view does not take it");
}

graph::Model loadModel(const RenderOptions& options) {
    ModelOptions model = options.model;
    model.model = options.input;
    return model.load();
}

// A widget drawn as it would be on screen: polished, laid out and sized, never shown.
void settle(QWidget& widget, QSize size) {
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QApplication::processEvents();
}

ui::ExportResult renderGraph(const RenderOptions& options, const ui::ExportOptions& exporting) {
    auto model = std::make_shared<const graph::Model>(loadModel(options));
    auto kernels = std::make_shared<const fusion::KernelGraph>(
        fusion::detect_kernels(*model, fusion::find_fusion_method(options.rules)));
    ui::GraphScene scene;
    layout::LayoutOptions layout;
    layout.kernels = kernels.get();
    layout.node_sizes = scene.nodeSizes(*model);
    auto graph = std::make_shared<ui::LaidOutGraph>();
    graph->model = model;
    graph->kernels = kernels;
    graph->layout = layout::layout_graph(*model, layout);
    scene.setGraph(graph);
    if (options.fold_blocks && scene.blockItems().isEmpty())
        throw InputError(options.input, "--fold-blocks",
                         "a model laid out in blocks (more than " +
                             std::to_string(layout.flat_node_limit) +
                             " nodes, or layers that repeat under name scopes); this one is "
                             "laid out whole");
    scene.setBlocksCollapsed(options.fold_blocks);
    scene.setKernelsCollapsed(options.collapse);
    std::unique_ptr<ui::LatencyLegend> legend;
    if (!options.device.empty()) {
        // Nodes in their kernel's latency colours, as the studio shows a prediction.
        const auto report =
            ui::predict_latency({model, kernels, options.device, options.rules, {}});
        if (!report.hasFigures())
            throw InputError("", "--device", report.error);
        std::vector<double> ms;
        for (const auto& kernel : report.latency.kernels)
            ms.push_back(kernel.us / 1000);
        const ui::LatencyRamp ramp(ms);
        const QString device = QString::fromStdString(report.request.device);
        scene.setKernelLatency(ms, ramp, device);
        legend = std::make_unique<ui::LatencyLegend>();
        legend->setRamp(ramp, device);
        settle(*legend, legend->sizeHint());
    }
    const QRectF bounds =
        scene.graphBounds().adjusted(-kGraphMargin, -kGraphMargin, kGraphMargin, kGraphMargin);
    return ui::exportScene(&scene, bounds, QString::fromStdString(options.out), exporting,
                           legend.get());
}

// The mapping given, shown in place of the one the studio opens with.
void showMapping(ui::PartitionDocument& document, const cli::ChosenMapping& chosen,
                 const device::Cluster& cluster) {
    partition::Mapping mapping;
    if (chosen.split) {
        mapping = *chosen.split;
    } else { // runs of kernels on one PE become segments, as the studio shows a mapping.json
        mapping = partition::runs_of(chosen.assignment);
    }
    const auto& inputs = *document.inputs();
    for (const int pe : mapping.pes)
        if (!inputs.hasLatencies(pe))
            throw InputError(chosen.source, cluster.pes[static_cast<std::size_t>(pe)].key,
                             "this PE runs kernels but has no predicted latencies: " +
                                 inputs.pe_errors[static_cast<std::size_t>(pe)]);
    document.replaceMapping(mapping, "cleave render");
}

ui::ExportResult renderPartition(const RenderOptions& options, const ui::ExportOptions& exporting) {
    if (options.cluster.empty())
        throw InputError("", "--cluster",
                         "the partition view needs a cluster file or platform.txt");
    const bool mapped = !options.mapping.mapping.empty() || !options.mapping.pes.empty() ||
                        !options.mapping.points.empty();
    if (mapped)
        options.mapping.check();
    auto cluster = std::make_shared<const device::Cluster>(device::load_cluster(options.cluster));
    auto model = std::make_shared<const graph::Model>(loadModel(options));
    const auto method = fusion::find_fusion_method(options.rules);
    std::optional<cli::ChosenMapping> chosen;
    if (mapped) // its kernels: a mapping.json may cut some, and each PE fuses its part apart
        chosen = options.mapping.resolve(*model, fusion::detect_kernels(*model, method), method,
                                         *cluster);
    auto kernels = std::make_shared<const fusion::KernelGraph>(
        chosen ? std::move(chosen->kernels) : fusion::detect_kernels(*model, method));
    auto inputs = std::make_shared<const ui::PartitionInputs>(
        ui::prepare_partition({model, kernels, cluster, options.rules}));
    if (!inputs->costs) {
        std::string why;
        for (const auto& error : inputs->pe_errors)
            if (!error.empty()) {
                why = error;
                break;
            }
        throw InputError(options.cluster, "",
                         "no PE of the cluster has predicted latencies: " + why);
    }
    ui::PartitionDocument document;
    document.setInputs(inputs);
    if (chosen)
        showMapping(document, *chosen, *cluster);

    QWidget page;
    auto* layout = new QVBoxLayout(&page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* strip = new ui::PartitionView(&document, &page);
    auto* figures = new ui::PeFiguresView(
        &document, [strip](int pe) { return strip->peColor(pe); }, &page);
    layout->addWidget(strip);
    layout->addWidget(figures);
    page.setBackgroundRole(QPalette::Base);
    page.setAutoFillBackground(true);
    const int height = strip->sizeHint().height() + figures->sizeHint().height();
    settle(page, QSize(std::max(options.width, 400), height));
    return ui::exportView(&page, QString::fromStdString(options.out), exporting);
}

// One solution's value of a quantity named on the command line, as the DSE tab plots it.
struct Quantity {
    std::string name; // throughput, memory, energy, latency
    std::string key;  // in the front's entries
    QString title;
    QString unit;
    double factor = 1;
};

std::optional<Quantity> quantity(const std::string& name) {
    if (name == "throughput")
        return Quantity{name, "throughput_per_s", "throughput (1/s)", "/s", 1};
    if (name == "memory")
        return Quantity{name, "max_memory_bytes", "max memory (MiB)", " MiB", 1 / kMiB};
    if (name == "energy")
        return Quantity{name, "max_energy_mj", "max energy (mJ)", " mJ", 1};
    if (name == "latency")
        return Quantity{name, "latency_ms", "latency (ms)", " ms", 1};
    return std::nullopt;
}

// The array `key` of a search written by cleave dse --out.
const nlohmann::json& array(const JsonReader& reader, const nlohmann::json& document,
                            const char* key) {
    reader.expect_object(document, "", "a search written by cleave dse --out");
    return *reader.array(document, "", key, true,
                         "an array: the file should be written by cleave dse --out");
}

ui::ExportResult renderFront(const RenderOptions& options, const ui::ExportOptions& exporting) {
    const std::string& file = options.input;
    const auto document = read_json_file(file, "a search written by cleave dse --out");
    const JsonReader reader(file);
    const auto& front = array(reader, document, "front");
    const auto choose = [&](const std::string& name, const char* flag) {
        auto q = quantity(name);
        if (!q)
            throw InputError("", flag,
                             "'" + name + "' is not one of throughput, memory, energy, latency");
        return *q;
    };
    const Quantity x = choose(options.x, "--x");
    const Quantity y = choose(options.y, "--y");
    std::optional<Quantity> colour;
    if (options.colour == "auto") {
        if (!front.empty() && front[0].contains("max_energy_mj"))
            colour = quantity("energy");
    } else if (options.colour != "none") {
        colour = choose(options.colour, "--colour");
    }
    std::vector<QPointF> points;
    std::vector<double> colours;
    for (std::size_t i = 0; i < front.size(); ++i) {
        const std::string place = child_pointer("/front", i);
        reader.expect_object(front[i], place, "a solution");
        const auto value = [&](const Quantity& q, const char* flag) {
            if (!front[i].contains(q.key))
                reader.fail(place + "/" + q.key, "missing: this search has no " + q.name +
                                                     " objective (" + flag + " " + q.name + ")");
            return reader.finite(front[i], place, q.key) * q.factor;
        };
        points.emplace_back(value(x, "--x"), value(y, "--y"));
        if (colour)
            colours.push_back(value(*colour, "--colour"));
    }
    ui::ParetoFrontChart chart;
    chart.setPoints(points, colours, x.title, y.title, colour ? colour->unit : QString());
    ui::applyPaletteToChart(&chart);
    settle(chart, QSize(options.width, options.height));
    return ui::exportView(&chart, QString::fromStdString(options.out), exporting);
}

ui::ExportResult renderHypervolume(const RenderOptions& options,
                                   const ui::ExportOptions& exporting) {
    const std::string& file = options.input;
    const auto document = read_json_file(file, "a search written by cleave dse --out");
    const JsonReader reader(file);
    QList<QPointF> points;
    for (const auto& step :
         dse::history_from_json(array(reader, document, "hypervolume"), file, "/hypervolume"))
        points.append(QPointF(static_cast<double>(step.evaluations), step.hypervolume));
    double budget = points.isEmpty() ? 1.0 : points.back().x();
    if (document.contains("evaluations") && document["evaluations"].is_number())
        budget = std::max(budget, document["evaluations"].get<double>());
    ui::HypervolumeChart chart;
    chart.setHistory(points, budget);
    ui::applyPaletteToChart(&chart);
    settle(chart, QSize(options.width, options.height));
    return ui::exportView(&chart, QString::fromStdString(options.out), exporting);
}

ui::ExportResult renderBreakdown(const RenderOptions& options, const ui::ExportOptions& exporting) {
    auto model = std::make_shared<const graph::Model>(loadModel(options));
    auto kernels = std::make_shared<const fusion::KernelGraph>(
        fusion::detect_kernels(*model, fusion::find_fusion_method(options.rules)));
    auto report = std::make_shared<const ui::LatencyReport>(
        ui::predict_latency({model, kernels, options.device, options.rules, {}}));
    if (!report->hasFigures())
        throw InputError("", options.device.empty() ? "the default device" : "--device",
                         report->error);
    ui::LatencyByTypeModel byType;
    byType.setReport(report);
    ui::LatencyBreakdownChart chart(&byType, ui::LatencyByTypeModel::Type,
                                    ui::LatencyByTypeModel::LatencyMs);
    chart.chart()->setTitle(QString::fromStdString(report->summary()));
    ui::applyPaletteToChart(&chart);
    settle(chart, QSize(options.width, options.height));
    return ui::exportView(&chart, QString::fromStdString(options.out), exporting);
}

int run_render(const RenderOptions& options) {
    // Everything that needs no drawing is checked first: the output's name and folder, the input.
    const QString out = QString::fromStdString(options.out);
    const auto format = ui::exportFormatOf(out);
    if (!std::filesystem::exists(options.input))
        throw InputError(options.input, "", "no such file");
    const bool graphs =
        options.view == "graph" || options.view == "partition" || options.view == "breakdown";
    refuse(!graphs && options.model.gives_shapes(),
           "--input-shape/--dim/--batch/--prefill/--decode", options);
    refuse(!graphs && options.rules != "ort-cpu", "--rules", options);
    refuse(options.view != "partition" && !options.cluster.empty(), "--cluster", options);
    refuse(options.view != "partition" &&
               !(options.mapping.mapping.empty() && options.mapping.points.empty() &&
                 options.mapping.pes.empty()),
           "--mapping/--points/--pes", options);
    refuse(options.view != "graph" && options.collapse, "--collapse", options);
    refuse(options.view != "graph" && options.fold_blocks, "--fold-blocks", options);
    refuse(options.view != "graph" && options.view != "breakdown" && !options.device.empty(),
           "--device", options);
    if (!(options.scale > 0 && options.scale <= 16))
        throw InputError("", "--scale", "expected a scale above 0 and at most 16");
    if (options.width < 100 || options.width > 10000 || options.height < 100 ||
        options.height > 10000)
        throw InputError("", "--width/--height", "expected 100 to 10000 pixels");

    // Qt's notes on the offscreen platform (it "does not support propagateSizeHints()", there is
    // no XDG_RUNTIME_DIR) are no news to a user of the CLI; its critical messages still show.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::fprintf(stderr, "cleave: Qt: %s\n", qPrintable(message));
    });
    // A display is not needed, nor wanted: under ssh or in CI there is none.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "cleave-render";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    cleave::ui::installTranslations(app);
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    QApplication::setPalette(
        ui::themePalette(ui::themeFromKey(QString::fromStdString(options.theme))));

    ui::ExportOptions exporting;
    exporting.scale = options.scale;
    exporting.title = QString::fromStdString(
        options.view + " of " + std::filesystem::path(options.input).filename().string());
    ui::ExportResult result;
    if (options.view == "graph")
        result = renderGraph(options, exporting);
    else if (options.view == "partition")
        result = renderPartition(options, exporting);
    else if (options.view == "front")
        result = renderFront(options, exporting);
    else if (options.view == "hypervolume")
        result = renderHypervolume(options, exporting);
    else
        result = renderBreakdown(options, exporting);

    if (options.json) {
        nlohmann::ordered_json document{{"view", options.view},
                                        {"out", options.out},
                                        {"width", result.size.width()},
                                        {"height", result.size.height()},
                                        {"format", ui::formatName(format).toStdString()},
                                        {"scale", result.scale},
                                        {"capped", result.capped}};
        emit_json(document, true, "");
        return 0;
    }
    std::printf("wrote %s: the %s view of %s, %d x %d %s%s\n", options.out.c_str(),
                options.view.c_str(), options.input.c_str(), result.size.width(),
                result.size.height(), format == ui::ExportFormat::png ? "pixels" : "points",
                result.capped ? " (scaled down to stay within the PNG size limit; SVG keeps "
                                "every detail)"
                              : "");
    return 0;
}

void add_render_options(CLI::App& command, RenderOptions& options) {
    command.add_option("view", options.view, "graph, partition, front, hypervolume or breakdown")
        ->required()
        ->check(CLI::IsMember(kViews));
    command
        .add_option("input", options.input,
                     "ONNX model (graph, partition, breakdown) or a cleave dse --out file (front, "
                     "hypervolume)")
        ->required();
    command.add_option("--out", options.out, "The file to write: .png or .svg (atomically)")
        ->required();
    command.add_flag("--json", options.json,
                      "Print {view, out, width, height, format, scale, capped} as JSON");
    options.model.add_shape_options_to(command);
    command.add_option("--rules", options.rules, "Fusion method for the kernels")
        ->capture_default_str();
    command.add_option("--cluster", options.cluster,
                        "partition: cluster file (.cluster.json) or platform.txt");
    options.mapping.add_to(command);
    command.add_option("--device", options.device,
                        "breakdown: the device predicted (default: the studio's); graph: colour "
                        "nodes by their kernel's latency on it");
    command.add_flag("--collapse", options.collapse,
                     "graph: draw every fused kernel as one box over its nodes");
    command.add_flag("--fold-blocks", options.fold_blocks,
                     "graph: draw every block (a repeated layer's or a large model's name scope) "
                     "as one box");
    command.add_option("--scale", options.scale, "PNG pixels per point (capped for huge graphs)")
        ->capture_default_str();
    command.add_option("--width", options.width, "Width of charts and the partition view")
        ->capture_default_str();
    command.add_option("--height", options.height, "Height of charts")->capture_default_str();
    command.add_option("--x", options.x, "front: x axis (throughput, memory, energy, latency)")
        ->capture_default_str();
    command.add_option("--y", options.y, "front: y axis")->capture_default_str();
    command
        .add_option("--colour", options.colour,
                     "front: colour by (energy, latency, throughput, memory, none; auto: energy "
                     "when searched)")
        ->capture_default_str();
    command.add_option("--theme", options.theme, "Palette: light or dark")
        ->capture_default_str()
        ->check(CLI::IsMember({"light", "dark"}));
}

} // namespace

} // namespace cleave::cli

int main(int argc, char** argv) {
    using namespace cleave::cli;
    CLI::App app{"Draw a studio view (graph, partition, front, hypervolume, breakdown) to a PNG or "
                 "SVG file, with no display. `cleave render` runs this program.",
                 "cleave-render"};
    app.set_version_flag("--version", std::string("cleave-render ") + cleave::kVersion);
    app.footer("Exit codes: 0 success, 2 bad input or usage, 1 internal failure.");
    RenderOptions options;
    add_render_options(app, options);
    return parse_and_run(app, argc, argv, "cleave render", [&] { return run_render(options); });
}
