// cleave export-autodice: a mapping of a model onto a cluster (an AutoDiCE mapping.json, or
// split points with a PE per segment) as an AutoDiCE deployment package: mapping.json,
// platform.txt, rankfile, hostfile, sender.json, receiver.json and one sub-model per PE key.
#include "commands.hpp"
#include "core/autodice/export.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "mapping_options.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "package_report.hpp"

#include <chrono>

namespace cleave::cli {

namespace {

struct ExportAutodiceOptions {
    ModelOptions model;
    std::string cluster;
    MappingOptions mapping;
    std::string rules = "ort-cpu";
    std::string out;
    bool no_sub_models = false;
    bool json = false;
};

int run_export_autodice(const ExportAutodiceOptions& options) {
    options.mapping.check();
    const auto cluster = device::load_cluster(options.cluster);
    const auto model = options.model.load();
    const auto method = fusion::find_fusion_method(options.rules);
    const auto chosen =
        options.mapping.resolve(model, fusion::detect_kernels(model, method), method, cluster);
    const auto& kernels = chosen.kernels;
    const int kernel_count = static_cast<int>(kernels.kernels.size());
    const auto& assignment = chosen.assignment;
    const auto& source = chosen.source;
    const auto start = std::chrono::steady_clock::now();
    auto package = autodice::make_package(
        model, autodice::package_parts(model, kernels, assignment, cluster), &cluster, source);
    // The mapping.json as evaluate-mapping --save-mapping writes it: one format, one writer.
    package.mapping_json = autodice::mapping_file_json(model, kernels, assignment, cluster);
    const auto files =
        autodice::write_package(model, package, options.out, {!options.no_sub_models});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const PackageReport report{&model,  &cluster, method.name, kernel_count, options.out,
                               &package, files,    seconds,     chosen.cut_kernels};
    emit_package_report(report, options.json);
    return 0;
}

} // namespace

Action add_export_autodice_command(CLI::App& app) {
    auto options = std::make_shared<ExportAutodiceOptions>();
    auto* command = app.add_subcommand(
        "export-autodice",
        "Write a mapping as an AutoDiCE package: mapping.json, platform.txt, rankfile, hostfile, "
        "sender.json, receiver.json and one sub-model per PE key");
    options->model.add_to(*command, false);
    command
        ->add_option("--cluster", options->cluster, "Cluster file (.cluster.json) or platform.txt")
        ->required();
    options->mapping.add_to(*command);
    command
        ->add_option("--out", options->out,
                     "Package folder; replaced only when complete, and only if empty or an "
                     "earlier export")
        ->required();
    command->add_flag("--no-submodels", options->no_sub_models,
                      "Write the text files only, no sub-model ONNX files");
    command->add_option("--rules", options->rules, "Fusion method for the kernels")
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print the package's ranks and files as JSON");
    return [options] { return run_export_autodice(*options); };
}

} // namespace cleave::cli
