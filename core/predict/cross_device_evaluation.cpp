#include "cross_device_evaluation.hpp"

#include "core/device/cpu_threads.hpp"
#include "core/input_error.hpp"
#include "cross_device.hpp"
#include "roofline.hpp"

#include <algorithm>
#include <cmath>

namespace cleave::predict {

namespace {

Spread spread(const std::vector<double>& values) {
    Spread s;
    if (values.empty())
        return s;
    const double n = static_cast<double>(values.size());
    for (const double v : values)
        s.mean += v / n;
    for (const double v : values)
        s.sd += (v - s.mean) * (v - s.mean) / n;
    s.sd = std::sqrt(s.sd);
    return s;
}

struct Scores {
    std::vector<double> kernel, e2e;
    void add(const SampledScore& s) {
        kernel.push_back(s.kernels.mape);
        e2e.push_back(s.e2e.mape);
    }
    MethodScore summary() const { return {spread(kernel), spread(e2e)}; }
};

const std::string& machine_of(const EvaluatedDevice& device) {
    return device.machine.empty() ? device.id : device.machine;
}

} // namespace

std::vector<DeviceEvaluation> evaluate_cross_device(const std::vector<EvaluatedDevice>& devices,
                                                    const fusion::FusionMethod& method,
                                                    const CrossDeviceEvaluationOptions& options) {
    if (devices.size() < 3)
        throw InputError("", "--data",
                         "leaving one device out needs at least three measured devices (a base "
                         "is trained on two or more)");
    const auto say = [&](const std::string& line) { report_line(options.control, line); };
    for (const auto& id : options.held_out)
        if (std::none_of(devices.begin(), devices.end(),
                         [&](const EvaluatedDevice& d) { return d.id == id; }))
            throw InputError("", "--held-out", "no device '" + id + "' among the data's");
    std::vector<ProfiledKernels> profiled;
    for (const auto& d : devices)
        profiled.push_back(ProfiledKernels::of(d.runs));

    std::vector<DeviceEvaluation> out;
    for (std::size_t held = 0; held < devices.size(); ++held) {
        const auto& device = devices[held];
        if (!options.held_out.empty() && std::find(options.held_out.begin(), options.held_out.end(),
                                                   device.id) == options.held_out.end())
            continue;
        DeviceEvaluation result;
        result.id = device.id;
        result.runs = static_cast<int>(device.runs.size());
        result.timed_kernels = static_cast<int>(profiled[held].candidates.size());
        result.distinct_kernels = static_cast<int>(profiled[held].kernels.size());

        result.machine = machine_of(device);
        std::vector<CrossDeviceDevice> others;
        for (std::size_t d = 0; d < devices.size(); ++d)
            if (machine_of(devices[d]) != result.machine) {
                others.push_back({devices[d].id, devices[d].figures, profiled[d]});
                result.trained_on.push_back(devices[d].id);
            }
        if (others.size() < 2)
            throw InputError("", "--data",
                             "leaving out machine " + result.machine + " (" + device.id +
                                 ") leaves " + std::to_string(others.size()) +
                                 (others.size() == 1 ? " device" : " devices") +
                                 " of other machines; a base is trained on two or more");
        say(device.id + ": training the base on the " + std::to_string(others.size()) +
            " other devices");
        auto base_options = options.base;
        base_options.rules = method.name;
        const auto base =
            std::make_shared<const CrossDeviceBase>(train_cross_device_base(others, base_options));

        std::vector<fusion::KernelGraph> kernel_graphs;
        for (const auto* run : device.runs)
            kernel_graphs.push_back(fusion::detect_kernels(*run->model, method));

        if (device.spec) {
            try {
                const auto roofline = roofline_predictor(
                    device::spec_at_threads(*device.spec, device.figures.threads), method.name);
                result.roofline =
                    score_on_runs(roofline, profiled[held], {}, device.runs, kernel_graphs);
            } catch (const InputError&) {
                // No peak rate or bandwidth in the spec: no roofline to compare with.
            }
        }

        PredictorTrainingOptions training;
        training.device = device.id;
        training.rules = method.name;
        for (const int n : options.samples) {
            say(device.id + ": adapting with " + std::to_string(n) + " kernels, " +
                std::to_string(options.seeds) + " seeds");
            Scores cross, descriptor, alone;
            for (int seed = 1; seed <= options.seeds; ++seed) {
                training.seed = static_cast<unsigned>(seed);
                const auto chosen = profiled[held].choose_by_kmeans(n, training.seed);
                const auto samples = profiled[held].samples(chosen);
                const auto score = [&](const Predictor& p) {
                    return score_on_runs(p, profiled[held], chosen, device.runs, kernel_graphs);
                };
                cross.add(score(
                    adapt_cross_device(base, device.figures, samples, device.runs, training)));
                descriptor.add(score(adapt_cross_device(base, device.figures, samples,
                                                        device.runs, training, false)));
                auto own = training;
                own.kind = options.device_only_kind;
                alone.add(score(train_predictor_on_samples(samples, device.runs, own)));
            }
            result.rows.push_back({n, cross.summary(), descriptor.summary(), alone.summary()});
        }
        out.push_back(std::move(result));
    }
    return out;
}

} // namespace cleave::predict
