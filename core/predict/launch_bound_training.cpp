#include "launch_bound_training.hpp"

#include "../ascii_case.hpp"
#include "core/fusion/fusion_features.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "kernel_features.hpp"
#include "launch_bound.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace cleave::predict {

int eager_group(const std::string& op) {
    static const std::map<std::string, int> by_op = {
        {"Reshape", kViews},   {"Flatten", kViews},   {"Squeeze", kViews}, {"Unsqueeze", kViews},
        {"Transpose", kViews}, {"Slice", kViews},     {"Split", kViews},   {"Gather", kViews},
        {"Identity", kViews},  {"Dropout", kViews},   {"Concat", kCopies}, {"Pad", kCopies},
        {"Resize", kCopies},   {"Upsample", kCopies}, {"Expand", kCopies}, {"Tile", kCopies},
    };
    if (const auto it = by_op.find(op); it != by_op.end())
        return it->second;
    switch (fusion::op_category(op)) {
    case fusion::kCategoryConvolution:
        return kConvolutions;
    case fusion::kCategoryMatrixProduct:
        return kMatrixProducts;
    case fusion::kCategoryNormalisation:
        return kNormalisations;
    case fusion::kCategoryPooling:
        return kPools;
    case fusion::kCategoryReduction:
        return kReductions;
    case fusion::kCategoryLayout:
    case fusion::kCategoryGatherScatter:
        return kCopies;
    case fusion::kCategoryShape:
        return kViews;
    default:
        return kElementwise;
    }
}

namespace {

bool is_dense(int group) {
    return group == kConvolutions || group == kMatrixProducts;
}

// Kernels of cuDNN, cuBLAS and PyTorch that do a convolution's or matrix product's arithmetic
// (implicit GEMM, Winograd, FFT, GEMM, GEMV, fused attention's two products), by the names they
// launch under; layout transforms, bias, normalisation and elementwise kernels are not.
bool is_dense_kernel(std::string_view kernel) {
    const std::string name = ascii_lower(kernel);
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
            const int group = eager_group(type);
            auto& seen = types.try_emplace(type, group, 0).first->second;
            ++seen.second;
            const LaunchBoundKernel launch{group, static_cast<double>(kernel.launches),
                                           static_cast<double>(kernel.flops),
                                           static_cast<double>(kernel.bytes_in + kernel.bytes_out)};
            if (listed_dense_us > 0 && is_dense(group))
                dense_total.kernels.push_back({0, launch.launches, launch.flops, launch.bytes});
            total.kernels.push_back(launch);
        }
        totals.push_back(std::move(total));
        if (!dense_total.kernels.empty())
            dense.push_back(std::move(dense_total));
    }
    if (totals.empty())
        throw InputError("", "--data", "no run has an end-to-end time to train on");

    // The rate convolutions and matrix products reach, and the bandwidth every op reaches, come
    // from the runs' own kernel lists, not from the totals, which the host's launches dominate:
    // the time of the listed kernels doing the arithmetic, fitted as a GPU launch latency plus
    // FLOPs at a rate plus bytes at a bandwidth (added, not the larger: a rate taken only from the
    // kernels past the floor would come from the few big ones of other families, and a held-out
    // family with big convolutions would take a rate its convolutions beat: vgg at 35%). Without
    // kernel lists no op is taken to be compute-bound and the bandwidth is fitted to the totals.
    LaunchBoundFitOptions fit_options;
    fit_options.groups = kEagerGroups;
    // Kernel-launching groups share a floor that a ridge holds them near: Conv, BN and ReLU come
    // together in nearly every model, and free floors would trade time between them (a model
    // with a convolution and no activation after it, MobileNet's projections, then comes out
    // 18-27% short). Views, which launch nothing, and copies, each model with its own number
    // of them, keep floors of their own. The ridge's weight is the one of 0.001, 0.01, 0.03, 0.1,
    // 0.3 and 1 with the least error on families held out (docs/predictors.md); from 0.01 to 1
    // the error moves by less than half a point.
    fit_options.floor_ridge = 0.03;
    fit_options.floor_ridge_factors.assign(kEagerGroups, 1.0);
    fit_options.floor_ridge_factors[kViews] = 0;
    fit_options.floor_ridge_factors[kCopies] = 0;
    fit_options.compute_bound.assign(kEagerGroups, false);
    fit_options.known_gflops.assign(kEagerGroups, 0.0);
    if (!dense.empty()) {
        LaunchBoundFitOptions gpu;
        gpu.fit_overhead = false;
        gpu.iterations = 1; // the additive model alone: on the GPU no kernel hides another
        const auto rates = fit_launch_bound(dense, gpu).groups.front();
        for (const int g : {kConvolutions, kMatrixProducts})
            fit_options.known_gflops[static_cast<std::size_t>(g)] = rates.gflops;
        fit_options.known_bandwidth_gbs = rates.bandwidth_gbs;
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
