// cleave predict: each kernel's latency and energy on a device, and the model's end to end, by
// the device's predictor (a file, the one shipped for the device, or a roofline from its spec).
#include "commands.hpp"
#include "core/device/cpu_threads.hpp"
#include "core/device/device_library.hpp"
#include "core/device/pe_power.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/predict/predictor_library.hpp"
#include "model_options.hpp"
#include "output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace cleave::cli {

namespace {

struct PredictOptions {
    ModelOptions model;
    std::string device;
    std::string predictor;
    std::string rules; // empty: the predictor's own
    int threads = 0;   // a CPU run at this many threads; 0: every core
    bool json = false;
    std::string out;
};

// The power a device draws while it computes: that of its first PE with a figure
// (device::pe_power says where each comes from).
std::optional<double> busy_power_w(const device::DeviceSpec& device) {
    for (const auto& pe : device.processing_elements)
        if (const double w = device::pe_power(device, pe).busy_w; !std::isnan(w))
            return w;
    return std::nullopt;
}

// A decoder's phase and context with the bytes it holds, and its tokens per second when it
// decodes (every sequence of the batch gets its new tokens per step); null for other models.
nlohmann::ordered_json phase_json(const std::optional<graph::DecoderPhase>& phase,
                                  double total_ms) {
    if (!phase)
        return nullptr;
    nlohmann::ordered_json out{{"phase", phase->phase},
                               {"batch", phase->batch},
                               {"tokens", phase->tokens},
                               {"context", phase->context},
                               {"weights_bytes", phase->weights_bytes},
                               {"kv_cache_bytes", phase->kv_cache_bytes}};
    if (const double rate = phase->tokens_per_s(total_ms); rate > 0)
        out["tokens_per_s"] = rate;
    return out;
}

int run_predict(const PredictOptions& options) {
    auto device = device::find_device(options.device, "--device");
    if (options.threads != 0)
        device = device::device_at_threads(device, options.threads, "", "--threads");
    const auto predictor = predict::predictor_for(device, options.predictor, options.rules);
    const auto model = options.model.load();
    const auto method =
        fusion::find_fusion_method(options.rules.empty() ? predictor.rules : options.rules);
    const auto kernels = fusion::detect_kernels(model, method);
    const auto latency = predict::predict_model(predictor, model, kernels);
    const auto power = busy_power_w(device);
    const auto phase = graph::decoder_phase(model);
    const std::string source =
        predictor.kind +
        (predictor.file.empty() ? " from the device spec (uncalibrated)" : " " + predictor.file);
    const auto energy_mj = [&](double ms) -> nlohmann::ordered_json {
        if (!power)
            return nullptr;
        return *power * ms; // W x ms = mJ
    };

    if (options.json || !options.out.empty()) {
        auto list = nlohmann::ordered_json::array();
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
            const auto& kernel = kernels.kernels[k];
            const double ms = latency.kernels[k].us / 1000.0;
            list.push_back(
                {{"name", kernel.name},
                 {"type", kernel.type},
                 {"nodes", kernel.nodes.size()},
                 {"macs", kernel.macs},
                 {"latency_ms", ms},
                 {"energy_mj", energy_mj(ms)},
                 {"source",
                  (latency.kernels[k].memory_bound ? std::string("memory-bound") : predictor.kind) +
                      ":" + latency.kernels[k].model_class}});
        }
        nlohmann::ordered_json document{
            {"model", model.file},
            {"device", device.id},
            {"threads", options.threads != 0 ? nlohmann::ordered_json(options.threads)
                                             : nlohmann::ordered_json()},
            {"predictor", source},
            {"rules", method.name},
            {"busy_power_w", power ? nlohmann::ordered_json(*power) : nlohmann::ordered_json()},
            {"kernels", list},
            {"kernels_ms", latency.kernels_ms},
            {"overhead_ms", latency.overhead_ms},
            {"total_ms", latency.total_ms},
            {"energy_mj", energy_mj(latency.total_ms)}};
        // A decoder's run: the phase fields beside the totals.
        if (const auto fields = phase_json(phase, latency.total_ms); !fields.is_null())
            document.update(fields);
        emit_json(document, options.json, options.out);
        if (options.json)
            return 0;
    }

    const std::string at = options.threads != 0
                               ? " at " + std::to_string(options.threads) +
                                     (options.threads == 1 ? " thread" : " threads")
                               : "";
    std::printf("%s on %s%s: %.3f ms (%zu kernels %.3f ms + overhead %.3f ms)", model.file.c_str(),
                device.id.c_str(), at.c_str(), latency.total_ms, kernels.kernels.size(),
                latency.kernels_ms, latency.overhead_ms);
    if (power)
        std::printf(", %.2f mJ at %.1f W", *power * latency.total_ms, *power);
    if (phase)
        std::printf("\n%s", phase->describe(latency.total_ms).c_str());
    std::printf("\npredictor %s, kernels by %s\n\n", source.c_str(), method.name.c_str());
    std::map<std::string, std::pair<int, double>> by_type;
    for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
        auto& row = by_type[kernels.kernels[k].type];
        ++row.first;
        row.second += latency.kernels[k].us / 1000.0;
    }
    std::vector<std::pair<std::string, std::pair<int, double>>> rows(by_type.begin(),
                                                                     by_type.end());
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    std::printf("  %-22s %7s %11s %7s\n", "kernel type", "kernels", "latency ms", "share");
    for (const auto& [type, row] : rows)
        std::printf("  %-22s %7d %11.3f %6.1f%%\n", type.c_str(), row.first, row.second,
                    latency.kernels_ms > 0 ? 100 * row.second / latency.kernels_ms : 0);
    return 0;
}

} // namespace

Action add_predict_command(CLI::App& app) {
    auto options = std::make_shared<PredictOptions>();
    auto* command = app.add_subcommand(
        "predict", "Predict each kernel's latency and energy on a device, and the model's total");
    options->model.add_to(*command);
    command->add_option("--device", options->device, "Device id (cleave devices list) or file")
        ->required();
    command->add_option("--predictor", options->predictor,
                        "Predictor file (cleave train); default: the one shipped for the device, "
                        "else a roofline from its spec");
    command->add_option("--rules", options->rules,
                        "Fusion method for the kernels; default: the predictor's own");
    command
        ->add_option("--threads", options->threads,
                     "Threads the runtime runs a CPU device's work on: its peak scales to the "
                     "cores used (default: every core; a measured device: its own count)")
        ->check(CLI::Range(1, 4096));
    command->add_flag("--json", options->json, "Print kernels and totals as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_predict(*options); };
}

} // namespace cleave::cli
