// cleave evaluate-cross-device: each measured device left out in turn, a cross-device base
// trained on the others is adapted with n of its kernels chosen by KMeans, and scored on its
// other kernels and end to end on its runs, beside the predictor the same n kernels give alone
// and the uncalibrated roofline (core/predict/cross_device_evaluation.hpp).
#include "commands.hpp"
#include "core/fusion/fusion_method.hpp"
#include "measured_devices.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cstdio>

namespace cleave::cli {

namespace {

struct EvaluateCrossDeviceOptions {
    std::vector<std::string> data;
    std::vector<std::string> models;
    std::string rules = "ort-cpu";
    predict::CrossDeviceEvaluationOptions evaluation;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json method_json(const predict::MethodScore& s) {
    return {{"kernel_mape", s.kernel_mape.mean},
            {"kernel_mape_sd", s.kernel_mape.sd},
            {"e2e_mape", s.e2e_mape.mean},
            {"e2e_mape_sd", s.e2e_mape.sd}};
}

std::string percent(const predict::Spread& s) {
    char text[32];
    std::snprintf(text, sizeof text, "%5.1f%% +-%4.1f", 100 * s.mean, 100 * s.sd);
    return text;
}

int run_evaluate_cross_device(EvaluateCrossDeviceOptions& options) {
    const auto method = fusion::find_fusion_method(options.rules);
    predict::make_regressor(options.evaluation.device_only_kind, "--device-only-kind");
    predict::make_regressor(options.evaluation.base.kind, "--kind");
    const auto loaded = load_measured_devices(options.data, options.models);
    std::vector<predict::EvaluatedDevice> devices;
    for (const auto& d : loaded.devices) {
        predict::EvaluatedDevice device{d.label, d.figures, d.spec, {}, d.machine};
        for (const auto& r : d.runs)
            device.runs.push_back(&r);
        devices.push_back(std::move(device));
    }
    Progress progress;
    ProgressControl printed(progress);
    options.evaluation.control = &printed.control();
    const auto results = predict::evaluate_cross_device(devices, method, options.evaluation);

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& r : results) {
        nlohmann::ordered_json samples = nlohmann::ordered_json::array();
        for (const auto& s : r.rows)
            samples.push_back({{"samples", s.samples},
                               {"cross_device", method_json(s.cross_device)},
                               {"descriptor_only", method_json(s.descriptor_only)},
                               {"device_only", method_json(s.device_only)}});
        nlohmann::ordered_json roofline = nullptr;
        if (r.roofline)
            roofline = {{"kernel_mape", r.roofline->kernels.mape},
                        {"e2e_mape", r.roofline->e2e.mape}};
        rows.push_back({{"device", r.id},
                        {"machine", r.machine},
                        {"runs", r.runs},
                        {"timed_kernels", r.timed_kernels},
                        {"distinct_kernels", r.distinct_kernels},
                        {"trained_on", r.trained_on},
                        {"roofline", roofline},
                        {"samples", samples}});
    }
    const nlohmann::ordered_json document{{"rules", method.name},
                                          {"data", options.data},
                                          {"kind", options.evaluation.base.kind},
                                          {"device_only_kind", options.evaluation.device_only_kind},
                                          {"seeds", options.evaluation.seeds},
                                          {"devices", rows}};
    if (options.json || !options.out.empty())
        emit_json(document, options.json, options.out);
    if (options.json)
        return 0;
    for (const auto& r : results) {
        std::printf("%s: %d runs, %d timed kernels, %d distinct; mean of %d seeds\n", r.id.c_str(),
                    r.runs, r.timed_kernels, r.distinct_kernels, options.evaluation.seeds);
        std::printf("  machine %s; base trained on %zu devices of other machines\n",
                    r.machine.c_str(), r.trained_on.size());
        if (r.roofline)
            std::printf("  uncalibrated roofline: kernel MAPE %.1f%%, e2e MAPE %.1f%%\n",
                        100 * r.roofline->kernels.mape, 100 * r.roofline->e2e.mape);
        std::printf("  %7s  %-29s %-29s %-29s\n", "samples", "cross-device kernel / e2e",
                    "descriptor only", (options.evaluation.device_only_kind + " on the samples").c_str());
        for (const auto& s : r.rows)
            std::printf("  %7d  %s %s  %s %s  %s %s\n", s.samples,
                        percent(s.cross_device.kernel_mape).c_str(),
                        percent(s.cross_device.e2e_mape).c_str(),
                        percent(s.descriptor_only.kernel_mape).c_str(),
                        percent(s.descriptor_only.e2e_mape).c_str(),
                        percent(s.device_only.kernel_mape).c_str(),
                        percent(s.device_only.e2e_mape).c_str());
    }
    return 0;
}

} // namespace

Action add_evaluate_cross_device_command(CLI::App& app) {
    auto options = std::make_shared<EvaluateCrossDeviceOptions>();
    auto* command = app.add_subcommand(
        "evaluate-cross-device",
        "Leave each measured device out: adapt a cross-device model with a few of its kernels");
    add_measured_device_options(*command, options->data, options->models);
    command
        ->add_option("--samples", options->evaluation.samples,
                     "Kernels profiled on the held-out device; repeat for several")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--seeds", options->evaluation.seeds,
                     "KMeans seeds (1..N) each sample count is averaged over")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command->add_option("--held-out", options->evaluation.held_out,
                        "Leave out only these devices, by the label the report gives them "
                        "(repeatable); every device still trains the others' bases");
    command->add_option("--kind", options->evaluation.base.kind, "The base model: gbdt or mlp")
        ->capture_default_str();
    command
        ->add_option("--device-only-kind", options->evaluation.device_only_kind,
                     "The predictor trained on the samples alone, for comparison")
        ->capture_default_str();
    command
        ->add_option("--rules", options->rules,
                     "Fusion method whose kernels are predicted end to end")
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print the scores as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_evaluate_cross_device(*options); };
}

} // namespace cleave::cli
