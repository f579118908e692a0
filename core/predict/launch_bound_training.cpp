#include "launch_bound_training.hpp"

#include "core/fusion/fusion_features.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "kernel_features.hpp"
#include "launch_bound.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace cleave::predict {

namespace {

constexpr int kConvolutions = 0; // fusion::op_category
constexpr int kMatrixProducts = 1;

bool is_dense(int group) {
    return group == kConvolutions || group == kMatrixProducts;
}

// Kernels of cuDNN, cuBLAS and PyTorch that do a convolution's or matrix product's arithmetic
// (implicit GEMM, Winograd, FFT, GEMM, GEMV, fused attention's two products), by the names they
// launch under; layout transforms, bias, normalisation and elementwise kernels are not.
bool is_dense_kernel(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* word :
         {"gemm", "gemv", "xmma", "conv", "winograd", "fft", "dot_kernel", "fmha"})
        if (name.find(word) != std::string::npos)
            return true;
    return false;
}

} // namespace

Predictor train_launch_bound_on_totals(const std::vector<const RunData*>& runs,
                                       const PredictorTrainingOptions& options) {
    const auto method = fusion::find_fusion_method(options.rules);
    Predictor p;
    p.device = options.device;
    p.kind = kLaunchBoundKind;
    p.rules = method.name;
    p.features = kernel_feature_names();
    std::vector<LaunchBoundTotal> totals;
    std::map<std::string, std::pair<int, int>> types; // cost type -> group, kernels
    // Per run that lists its kernels: its convolutions and matrix products, and the time of the
    // listed kernels that did their arithmetic.
    std::vector<LaunchBoundTotal> dense;
    for (const RunData* run : runs) {
        if (!(run->e2e_ms > 0))
            continue;
        p.trained_on.push_back(run->name);
        const auto& model = *run->model;
        const auto kernels = fusion::detect_kernels(model, method);
        LaunchBoundTotal total;
        total.us = run->e2e_ms * 1000.0;
        double listed_dense_us = 0;
        for (const auto& [name, us] : run->launched_us)
            if (is_dense_kernel(name))
                listed_dense_us += us;
        LaunchBoundTotal dense_total{{}, listed_dense_us};
        for (const auto& kernel : kernels.kernels) {
            const auto type = cost_type(cost_class(model, kernel));
            const int group = fusion::op_category(type);
            auto& seen = types.try_emplace(type, group, 0).first->second;
            ++seen.second;
            if (listed_dense_us > 0 && is_dense(group))
                dense_total.kernels.push_back({0, static_cast<double>(kernel.launches),
                                               static_cast<double>(kernel.flops), 0.0});
            total.kernels.push_back({group, static_cast<double>(kernel.launches),
                                     static_cast<double>(kernel.flops),
                                     static_cast<double>(kernel.bytes_in + kernel.bytes_out)});
        }
        totals.push_back(std::move(total));
        if (!dense_total.kernels.empty())
            dense.push_back(std::move(dense_total));
    }
    if (totals.empty())
        throw InputError("", "--data", "no run has an end-to-end time to train on");

    // The rate convolutions and matrix products reach comes from the runs' own kernel lists, not
    // from the totals, which the host's launches dominate: the same model, GPU side, fitted to the
    // time of the kernels doing their arithmetic (a GPU launch floor, then FLOPs at the rate; a
    // rate from summed FLOPs over summed time would be dragged down by the many small kernels
    // that sit at the floor). Without kernel lists no op is taken to be compute-bound.
    LaunchBoundFitOptions fit_options;
    fit_options.groups = fusion::kOpCategories;
    fit_options.compute_bound.assign(fusion::kOpCategories, false);
    fit_options.known_gflops.assign(fusion::kOpCategories, 0.0);
    if (!dense.empty()) {
        LaunchBoundFitOptions gpu;
        gpu.fit_overhead = false;
        const double gflops = fit_launch_bound(dense, gpu).groups.front().gflops;
        for (const int g : {kConvolutions, kMatrixProducts})
            fit_options.known_gflops[static_cast<std::size_t>(g)] = gflops;
    }
    const auto fit = fit_launch_bound(totals, fit_options);

    p.overhead_ms = fit.overhead_us / 1000.0;
    int all = 0;
    for (const auto& [type, seen] : types) {
        const auto& parameters = fit.groups[static_cast<std::size_t>(seen.first)];
        p.classes.emplace(
            type, ClassModel{std::make_shared<LaunchBoundRegressor>(parameters), seen.second});
        all += seen.second;
    }
    // An op no training run had: the shared floor, bound by its bytes like any op.
    LaunchBoundParameters unseen;
    unseen.floor_us = fit.shared_floor_us;
    unseen.bandwidth_gbs = fit.groups.front().bandwidth_gbs;
    p.classes.emplace(kAllKernels, ClassModel{std::make_shared<LaunchBoundRegressor>(unseen), all});
    return p;
}

} // namespace cleave::predict
