// cleave import-profile: brings the profiling trace of an ONNX Runtime session, run on any
// device, into a measured dataset, with the kernels' covers taken from the optimised model the
// session saved.
#include "commands.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/profile/ort_profile_import.hpp"
#include "measured_run_summary.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <filesystem>

namespace cleave::cli {

namespace {

struct ImportProfileOptions {
    std::string trace;
    std::string model;
    std::string optimized;
    std::string device;
    std::string out;
    bool json = false;
    profile::OrtImportOptions import;
};

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& p : parts)
        text += (text.empty() ? "" : ", ") + p;
    return text;
}

int run_import_profile(ImportProfileOptions options) {
    const profile::OrtTrace trace = profile::read_ort_trace(options.trace);
    std::vector<graph::WrittenNode> optimized;
    if (!options.optimized.empty()) {
        optimized = graph::read_written_nodes(options.optimized);
        options.import.optimized_file = options.optimized;
    }
    // The model at the input dims the trace shows, so that shapes and constants match the run.
    graph::Model model = graph::load_model(options.model);
    graph::LoadOptions at_trace_dims;
    at_trace_dims.input_shapes = profile::ort_trace_input_shapes(trace, model, optimized);
    for (const auto& [input, dims] : at_trace_dims.input_shapes)
        if (const int t = model.find_tensor(input);
            t >= 0 && model.tensors[static_cast<std::size_t>(t)].shape != dims) {
            model = graph::load_model(options.model, at_trace_dims);
            break;
        }
    for (const auto& warning : model.warnings)
        warn(options.model + ": " + warning);

    profile::OrtImport imported =
        profile::import_ort_profile(trace, model, optimized, options.import);

    profile::MeasuredDataset data;
    data.runtime = "ONNX Runtime (" + joined(imported.providers) + ")";
    data.device = options.device;
    if (std::filesystem::exists(options.out)) {
        auto existing = profile::load_measured_dataset(options.out);
        if (!existing.runtime.starts_with("ONNX Runtime"))
            throw InputError(options.out, "",
                             "holds runs of runtime '" + existing.runtime +
                                 "'; an ONNX Runtime trace goes into a dataset of ONNX Runtime "
                                 "runs: give another --out file");
        if (!options.device.empty() && existing.device != options.device)
            throw InputError(options.out, "",
                             "holds runs on '" + existing.device + "', not on '" + options.device +
                                 "': give another --out file");
        data.runtime = existing.runtime;
        data.device = existing.device;
        data.runs = std::move(existing.runs);
    }
    const profile::MeasuredRun run = imported.run;
    profile::put_run(data, imported.run);
    profile::save_measured_dataset(data, options.out);

    const std::string covers_from = optimized.empty() ? "names" : "optimized model";
    if (options.json) {
        auto summary = measured_run_json(data, run, options.out);
        summary["runs_in_trace"] = imported.runs_in_trace;
        summary["covers_from"] = covers_from;
        summary["run_time_nodes"] = imported.run_time_nodes;
        summary["covered_nodes"] = imported.covered_nodes;
        emit_json(summary, true, "");
        return 0;
    }
    print_measured_run(data, run, options.out);
    std::printf("%d of %d runs in the trace kept; covers from the %s: %d of %d run-time nodes in "
                "a kernel\n",
                imported.runs_kept, imported.runs_in_trace,
                optimized.empty() ? "kernels' names (give --optimized for ORT's own graph)"
                                  : "optimised model",
                imported.covered_nodes, imported.run_time_nodes);
    return 0;
}

} // namespace

Action add_import_profile_command(CLI::App& app) {
    auto options = std::make_shared<ImportProfileOptions>();
    auto* command = app.add_subcommand(
        "import-profile",
        "Add an ONNX Runtime profiling trace (enable_profiling) to a measured dataset");
    command->add_option("trace", options->trace, "The JSON trace ONNX Runtime wrote")->required();
    command
        ->add_option("--model", options->model,
                     "The ONNX model the session ran (.onnx, .onnx.xz or .onnx.gz)")
        ->required();
    command->add_option("--optimized", options->optimized,
                        "The optimised model the same session saved (optimized_model_filepath): "
                        "which nodes each fused kernel covers");
    command
        ->add_option("--threads", options->import.threads,
                     "The session's intra-op threads (the trace does not say)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--warmup", options->import.warmups,
                     "Runs at the start of the trace to leave out")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    command->add_option("--device", options->device,
                        "The processor the trace was measured on, for a new dataset");
    command
        ->add_option("--out", options->out,
                     "The dataset file to add the run to (created, or updated atomically)")
        ->required();
    command->add_flag("--json", options->json, "Print the run's summary as JSON");
    return [options] { return run_import_profile(*options); };
}

} // namespace cleave::cli
