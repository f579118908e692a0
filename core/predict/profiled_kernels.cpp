#include "profiled_kernels.hpp"

#include "core/statistics.hpp"

#include <map>

namespace cleave::predict {

KernelSample ProfiledKernel::sample() const {
    return {cost_class, features, cleave::median(us)};
}

ProfiledKernels ProfiledKernels::of(const std::vector<RunData>& runs) {
    std::vector<const RunData*> pointers;
    for (const auto& r : runs)
        pointers.push_back(&r);
    return of(pointers);
}

ProfiledKernels ProfiledKernels::of(const std::vector<const RunData*>& runs) {
    ProfiledKernels out;
    std::map<std::pair<std::string, std::vector<double>>, int> index;
    for (const RunData* run : runs) {
        auto& ids = out.of_sample.emplace_back();
        for (const auto& s : run->samples) {
            const auto [it, added] = index.emplace(std::pair{s.model_class, s.features},
                                                   static_cast<int>(out.kernels.size()));
            if (added)
                out.kernels.push_back({s.model_class, s.features, {}});
            out.kernels[static_cast<std::size_t>(it->second)].us.push_back(s.us);
            ids.push_back(it->second);
            out.candidates.push_back(
                {run->name, std::to_string(it->second), s.model_class, s.features});
        }
    }
    return out;
}

std::vector<int> ProfiledKernels::choose_by_kmeans(int budget, unsigned seed) const {
    std::vector<int> chosen;
    for (const auto& k : sample_kernels(candidates, budget, seed))
        chosen.push_back(std::stoi(k.kernel.kernel));
    return chosen;
}

std::vector<KernelSample> ProfiledKernels::samples(const std::vector<int>& chosen) const {
    std::vector<KernelSample> out;
    out.reserve(chosen.size());
    for (const int id : chosen)
        out.push_back(kernels.at(static_cast<std::size_t>(id)).sample());
    return out;
}

std::vector<KernelSample> ProfiledKernels::samples() const {
    std::vector<KernelSample> out;
    out.reserve(kernels.size());
    for (const auto& k : kernels)
        out.push_back(k.sample());
    return out;
}

SampledScore score_on_runs(const Predictor& predictor, const ProfiledKernels& profiled,
                           const std::vector<int>& chosen,
                           const std::vector<const RunData*>& runs,
                           const std::vector<fusion::KernelGraph>& kernel_graphs) {
    std::vector<bool> profiled_here(profiled.kernels.size(), false);
    for (const int id : chosen)
        profiled_here[static_cast<std::size_t>(id)] = true;
    // Each distinct kernel predicted once, then compared with every time it was measured.
    std::vector<std::vector<double>> features;
    std::vector<std::string> classes;
    std::vector<int> position(profiled.kernels.size(), -1);
    for (std::size_t k = 0; k < profiled.kernels.size(); ++k)
        if (!profiled_here[k]) {
            position[k] = static_cast<int>(features.size());
            features.push_back(profiled.kernels[k].features);
            classes.push_back(profiled.kernels[k].cost_class);
        }
    const auto predicted = predict_features(predictor, features, classes);

    SampledScore score;
    std::vector<double> kernel_errors, e2e_errors;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto& run = *runs[r];
        for (std::size_t i = 0; i < run.samples.size(); ++i) {
            const int p = position[static_cast<std::size_t>(profiled.of_sample[r][i])];
            if (p < 0)
                continue;
            const double us = predicted[static_cast<std::size_t>(p)].us;
            kernel_errors.push_back((us - run.samples[i].us) / run.samples[i].us);
        }
        double error = 0;
        if (run.e2e_ms > 0) {
            const double ms = predict_model(predictor, *run.model, kernel_graphs[r]).total_ms;
            error = (ms - run.e2e_ms) / run.e2e_ms;
            e2e_errors.push_back(error);
        }
        score.e2e_errors.push_back(error);
    }
    score.kernels = summarise_errors(kernel_errors);
    score.e2e = summarise_errors(e2e_errors);
    return score;
}

} // namespace cleave::predict
