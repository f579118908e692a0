// cleave calibrate: measures this machine with a profiler back end within a time budget, trains
// the predictor kind that errs least on networks it held out, and stores the device and its
// predictor in the user library, from where --device ID works in every command and the studio.
#include "commands.hpp"
#include "core/calibration/calibration.hpp"
#include "core/calibration/calibration_pool.hpp"
#include "core/device/user_library.hpp"
#include "core/graph/model_file.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/profiler.hpp"
#include "core/temporary_folder.hpp"
#include "interrupt.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

namespace cleave::cli {

namespace {

namespace fs = std::filesystem;

struct CalibrateOptions {
    std::string device;
    std::string backend; // empty: ort where it is installed, else opencv
    int threads = 1;
    double minutes = 10;
    std::string examples;
    std::string rules = "ort-cpu";
    std::vector<std::string> kinds;
    unsigned seed = 1;
    std::string keep;
    bool json = false;
};

nlohmann::ordered_json errors_json(const predict::ErrorSummary& e) {
    return {{"runs", e.count},
            {"mape", e.mape},
            {"within_10", e.within_10},
            {"max_error", e.max_error}};
}

nlohmann::ordered_json speed_json(const calibration::MachineSpeed& s) {
    auto probes = nlohmann::ordered_json::array();
    for (const auto& [seconds, ms] : s.probes)
        probes.push_back({{"s", seconds}, {"ms", ms}});
    return {{"probe", s.probe},
            {"fastest_ms", s.fastest_ms},
            {"slowest_ms", s.slowest_ms},
            {"remeasured", s.remeasured},
            {"scaled", s.scaled},
            {"left_out", s.left_out},
            {"probes", probes}};
}

nlohmann::ordered_json result_json(const calibration::CalibrationResult& r) {
    auto kinds = nlohmann::ordered_json::array();
    for (const auto& k : r.kinds) {
        nlohmann::ordered_json kind{{"kind", k.kind}, {"scored", k.scored}};
        if (!k.scored)
            kind["not_scored"] = k.not_scored;
        if (k.scored) {
            kind["e2e"] = errors_json(k.e2e);
            auto families = nlohmann::ordered_json::array();
            for (const auto& f : k.families)
                families.push_back({{"family", f.family}, {"e2e", errors_json(f.e2e)}});
            kind["families"] = families;
            kind["seconds"] = k.seconds;
        }
        kinds.push_back(kind);
    }
    auto networks = nlohmann::ordered_json::array();
    for (const auto& n : r.networks)
        networks.push_back({{"name", n.name},
                            {"dims", graph::dim_bindings_text(n.dims)},
                            {"family", n.family},
                            {"phase", n.phase},
                            {"e2e_ms", n.e2e_ms},
                            {"kernels", n.kernels},
                            {"seconds", n.seconds}});
    return {{"device", r.device.id},
            {"name", r.device.name},
            {"runtime", r.data.runtime},
            {"threads", r.device.measurement ? r.device.measurement->threads.value_or(0) : 0},
            {"kind", r.predictor.kind},
            {"device_file", device::user_device_file(r.device.id).string()},
            {"predictor_file", device::user_predictor_file(r.device.id).string()},
            {"pool_networks", r.pool_networks},
            {"kernel_clusters", r.kernel_clusters},
            {"speed", speed_json(r.speed)},
            {"measuring_s", r.measuring_seconds},
            {"seconds", r.seconds},
            {"kinds", kinds},
            {"networks", networks}};
}

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

void print_result(const calibration::CalibrationResult& r) {
    std::printf("%s: %s\n", r.device.id.c_str(), r.device.name.c_str());
    std::printf("measured %zu of %d networks in %.1f min (%.1f min in all)\n", r.networks.size(),
                r.pool_networks, r.measuring_seconds / 60, r.seconds / 60);
    if (!r.speed.probes.empty())
        std::printf("machine speed: %s timed %zu times, %.2f ms at its fastest, %.2f at its "
                    "slowest; %d networks' times scaled to the fastest, %d measured again, %d left "
                    "out\n",
                    r.speed.probe.c_str(), r.speed.probes.size(), r.speed.fastest_ms,
                    r.speed.slowest_ms, r.speed.scaled, r.speed.remeasured, r.speed.left_out);
    std::printf("\nend-to-end error on held-out families, by predictor kind:\n");
    for (const auto& k : r.kinds)
        std::printf("  %-6s %s\n", k.kind.c_str(),
                    k.scored ? (percent(k.e2e.mape) + " MAPE, " + percent(k.e2e.within_10) +
                                " within 10%, worst " + percent(k.e2e.max_error))
                                   .c_str()
                             : ("not scored: " + k.not_scored).c_str());
    for (const auto& k : r.kinds)
        if (k.kind == r.predictor.kind && k.scored) {
            std::printf("\n%s by family (each predicted by a predictor trained without it):\n",
                        k.kind.c_str());
            for (const auto& f : k.families)
                std::printf("  %-14s %3d runs  %6s MAPE  worst %6s\n", f.family.c_str(),
                            f.e2e.count, percent(f.e2e.mape).c_str(),
                            percent(f.e2e.max_error).c_str());
        }
    std::printf("\nwrote %s\n  and %s\n", device::user_device_file(r.device.id).c_str(),
                device::user_predictor_file(r.device.id).c_str());
    std::printf("use it with --device %s, or as a host's device in a cluster file\n",
                r.device.id.c_str());
}

int run_calibrate(const CalibrateOptions& options) {
    device::check_user_device_id(options.device, "--device");
    if (!(options.minutes > 0))
        throw InputError("", "--minutes", "expected a positive number of minutes");
    const plugin::PluginRegistry registry;
    // ONNX Runtime where it is installed (the build's npm install); the OpenCV back end ships in
    // the package.
    std::string backend = options.backend;
    if (backend.empty())
        backend = registry.find(profile::Profiler::kPluginKind, "ort") ? "ort" : "opencv";
    const auto profiler = registry.create<profile::Profiler>(backend, "--backend");

    fs::path examples = options.examples.empty() ? calibration::installed_example_models()
                                                 : fs::path(options.examples);
    if (!options.examples.empty() && !fs::is_directory(examples))
        throw InputError(options.examples, "--examples",
                         "not a folder; expected the folder of the example models");

    std::optional<TemporaryFolder> scratch;
    fs::path work = options.keep;
    if (work.empty()) {
        scratch.emplace("cleave-calibrate");
        work = scratch->path();
    } else {
        fs::create_directories(work);
    }

    Progress progress;
    ProgressControl printed(progress);
    const Interrupt interrupt(printed.control());
    calibration::CalibrationOptions run;
    run.device_id = options.device;
    run.threads = options.threads;
    run.minutes = options.minutes;
    run.rules = options.rules;
    run.seed = options.seed;
    run.kinds = options.kinds;
    run.example_models =
        examples.empty() ? std::vector<fs::path>{} : graph::model_files_in(examples);
    run.work_folder = work;
    run.keep_networks = !options.keep.empty();
    if (!options.keep.empty())
        run.data_file = work / "data.json";
    run.control = &printed.control();
    calibration::CalibrationResult result;
    try {
        result = calibration::calibrate(*profiler, run);
    } catch (const std::exception& e) {
        // Ctrl-C also reaches the runtime's own process, which then fails whatever it was doing.
        if (!interrupt.raised() && !dynamic_cast<const Cancelled*>(&e))
            throw;
        progress.clear();
        std::fprintf(stderr, "cleave: calibrate: interrupted: nothing was written; the user "
                             "library is unchanged\n");
        return kInterruptedExit;
    }
    device::install_user_device(result.device, predict::predictor_json(result.predictor));
    if (options.json)
        emit_json(result_json(result), true, "");
    else
        print_result(result);
    return 0;
}

} // namespace

Action add_calibrate_command(CLI::App& app) {
    auto options = std::make_shared<CalibrateOptions>();
    auto* command = app.add_subcommand(
        "calibrate",
        "Measure this machine within a time budget and store it as a device with its own "
        "predictor in the user library");
    command
        ->add_option("--device", options->device,
                     "The id to store the device under (lower-case kebab case, not a built-in "
                     "id), e.g. my-laptop-ort-1t")
        ->required();
    command
        ->add_option("--backend", options->backend,
                     "The profiler plugin to measure with (ort, opencv)")
        ->capture_default_str();
    command->add_option("--threads", options->threads, "Threads the runtime may use")
        ->capture_default_str()
        ->check(CLI::Range(1, 1024));
    command
        ->add_option("--minutes", options->minutes,
                     "The whole budget: measuring, then scoring and training the predictor")
        ->capture_default_str();
    command->add_option("--examples", options->examples,
                        "The folder of the example models to measure besides the generated "
                        "networks (default: the installed examples)");
    command->add_option("--rules", options->rules, "The fusion method the predictor is for")
        ->capture_default_str();
    command->add_option("--kind", options->kinds,
                        "Predictor kinds to score (repeatable; default: every installed kind)");
    command->add_option("--seed", options->seed, "Seed of the generated networks and the choice")
        ->capture_default_str();
    command->add_option("--keep", options->keep,
                        "Keep the networks measured and their data (data.json) in this folder");
    command->add_flag("--json", options->json, "Print the result as JSON");
    return [options] { return run_calibrate(*options); };
}

} // namespace cleave::cli
