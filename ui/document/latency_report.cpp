#include "ui/document/latency_report.hpp"

#include "core/device/device_library.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/predict/measured_kernels.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/statistics.hpp"
#include "ui/tables/latency_format.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace cleave::ui {

namespace {

std::string predictor_source(const predict::Predictor& predictor) {
    if (predictor.file.empty())
        return predictor.kind + " (uncalibrated)";
    return predictor.kind + ", " + std::filesystem::path(predictor.file).filename().string();
}

struct DevicePredictor {
    device::DeviceSpec device;
    predict::Predictor predictor;
};

DevicePredictor device_predictor(const std::string& id, const std::string& rules) {
    if (!id.empty()) {
        auto device = device::find_device(id);
        auto predictor = predict::predictor_for(device, "", rules);
        return {std::move(device), std::move(predictor)};
    }
    // A shipped predictor may need a plugin that is not installed (gbdt: XGBoost).
    const auto devices = device::library_devices();
    for (const bool shipped : {true, false})
        for (const auto& device : devices) {
            if (shipped && !predict::shipped_predictor(device.id))
                continue;
            try {
                return {device, predict::predictor_for(device, "", rules)};
            } catch (const std::exception&) {
                // no predictor that loads, no datasheet figures: try the next device
            }
        }
    throw std::runtime_error("no device in the library has a predictor or a roofline");
}

void compare_with_run(const predict::Predictor& predictor, LatencyReport& report) {
    const auto& run = *report.request.measured;
    const auto& model = *report.request.model;
    try {
        const auto measured = predict::measured_kernels(model, run);
        const auto predicted = predict::predict_model(predictor, model, measured.kernels);
        for (std::size_t k = 0; k < measured.kernels.kernels.size(); ++k) {
            if (!measured.us[k])
                continue;
            const auto& kernel = measured.kernels.kernels[k];
            report.measured_kernels.push_back(
                {kernel.name, kernel.type, *measured.us[k] / 1000, predicted.kernels[k].us / 1000});
        }
        report.measured_total_ms = cleave::median(run.e2e_ms);
        report.predicted_total_ms = predicted.total_ms;
    } catch (const std::exception& e) {
        report.measured_kernels.clear();
        report.measured_error = e.what();
    }
}

} // namespace

std::string LatencyReport::summary() const {
    if (!hasFigures())
        return error;
    std::string text = format_ms(latency.total_ms) + " ms on " + request.device + ", " + source;
    if (!predictor_rules.empty() && predictor_rules != request.rules)
        text += ", made for " + predictor_rules + " kernels";
    if (request.model)
        if (const auto phase = graph::decoder_phase(*request.model))
            text += "; " + phase->describe(latency.total_ms);
    return text;
}

LatencyReport predict_latency(const LatencyRequest& request) {
    LatencyReport report;
    report.request = request;
    if (!request.model || !request.kernels) {
        report.error = "No model";
        return report;
    }
    try {
        const auto [device, predictor] = device_predictor(request.device, request.rules);
        report.request.device = device.id;
        report.device_name = device.name;
        report.source = predictor_source(predictor);
        report.predictor_rules = predictor.rules;
        report.latency = predict::predict_model(predictor, *request.model, *request.kernels);
        if (request.measured)
            compare_with_run(predictor, report);
    } catch (const std::exception& e) {
        report.error = e.what();
        report.latency = {};
    }
    return report;
}

} // namespace cleave::ui
