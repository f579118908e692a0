#include "calibration.hpp"

#include "calibration_pool.hpp"
#include "core/device/this_machine.hpp"
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/cross_device.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/regressor.hpp"
#include "core/profile/host_processor.hpp"
#include "core/statistics.hpp"
#include "network_choice.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

namespace cleave::calibration {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kWarmups = 2;
constexpr int kRepeats = 10;
constexpr int kMaxRounds = 3;
constexpr int kClusters = 64;
constexpr double kKernelsPerCluster = 3; // coverage goal before the choice turns to errors
constexpr int kFolds = 5; // cross-validation: of the error-driven choice, of the kinds by family
constexpr double kProbeSeconds = 10; // measuring time between two timings of the speed probe
constexpr const char* kProbeNetwork = "mobilenet_v2_w050_r224"; // the benchmark suite's

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// What measuring leaves of the budget for scoring and training before anything was trained: a
// sixth, never under 6 s nor over 90 s. Once a predictor has been fitted, the reserve follows
// from how long that fit took (scoring_s).
double training_reserve_s(double budget_s) {
    return std::clamp(budget_s / 6.0, 6.0, 90.0);
}

// Scoring a kind costs a fit per fold of families, each on most of the data, and the fit on
// everything: from the time one fit on everything took.
double scoring_s(double fit_s, std::size_t families) {
    return 1.1 * fit_s * static_cast<double>(std::min<std::size_t>(families, kFolds) + 1);
}

// Simulation models per space to start with: the pool grows with the budget (each costs ~50 ms
// to write and load); when every network is measured before the time is up, as many again are
// written (at 1 thread a network takes 0.3-2 s to measure here).
int simulation_models_per_space(double minutes) {
    return std::clamp(static_cast<int>(std::lround(minutes * 6)), 6, 60);
}

std::vector<std::string> kinds_to_score(const CalibrationOptions& options) {
    std::vector<std::string> installed = predict::regressor_kinds();
    std::erase(installed, "roofline"); // a calibration is what replaces the roofline
    // Cross-device: the installed base adapted to this machine's kernels (docs/predictors.md).
    if (predict::installed_cross_device_base())
        installed.emplace_back(predict::kCrossDeviceKind);
    if (options.kinds.empty()) {
        // The tree ensemble first: it has scored best on measured CPU data (docs/predictors.md),
        // so a budget that runs out still scores it. Then the cheaper to score, so the time left
        // scores as many as it can: cross-device (the base's trees adapted by a few ridge fits,
        // ahead of the samples alone when they are few) and launch-bound fit in seconds, mlp in
        // tens of seconds, lasso (a model per cost class) in longer still.
        const std::vector<std::string> order{"gbdt", predict::kCrossDeviceKind, "launch-bound",
                                             "mlp", "lasso"};
        const auto rank = [&](const std::string& k) {
            return std::find(order.begin(), order.end(), k) - order.begin();
        };
        std::stable_sort(installed.begin(), installed.end(),
                         [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
        return installed;
    }
    for (const auto& kind : options.kinds)
        if (std::find(installed.begin(), installed.end(), kind) == installed.end())
            throw InputError("", "--kind", "predictor kind '" + kind + "' is not installed here");
    return options.kinds;
}

// Per cluster, the time-weighted mean absolute relative error of predictions for measured
// kernels from predictors trained without their network (k-fold over networks); -1 where no
// measured kernel falls.
std::vector<double> cluster_errors(const std::vector<predict::RunData>& runs,
                                   const KernelClusters& clusters,
                                   const predict::PredictorTrainingOptions& training) {
    std::vector<double> error_us(static_cast<std::size_t>(clusters.count()), 0);
    std::vector<double> us(static_cast<std::size_t>(clusters.count()), 0);
    std::vector<int> fold(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        fold[i] = static_cast<int>(i % kFolds);
    std::shuffle(fold.begin(), fold.end(), std::mt19937(training.seed));
    for (int f = 0; f < kFolds; ++f) {
        std::vector<const predict::RunData*> train;
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (fold[i] != f)
                train.push_back(&runs[i]);
        if (train.size() == runs.size() || train.empty())
            continue;
        const auto predictor = predict::train_predictor(train, training);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (fold[i] != f)
                continue;
            std::vector<std::vector<double>> features;
            for (const auto& s : runs[i].samples)
                features.push_back(s.features);
            const auto of_sample = clusters.clusters_of(features);
            const auto predicted = predict::predict_samples(predictor, runs[i].samples);
            for (std::size_t s = 0; s < runs[i].samples.size(); ++s) {
                const auto c = static_cast<std::size_t>(of_sample[s]);
                error_us[c] += std::abs(predicted[s] - runs[i].samples[s].us);
                us[c] += runs[i].samples[s].us;
            }
        }
    }
    std::vector<double> errors(us.size(), -1);
    for (std::size_t c = 0; c < us.size(); ++c)
        if (us[c] > 0)
            errors[c] = error_us[c] / us[c];
    return errors;
}

FamilyError family_error(const predict::FamilyResult& family) {
    std::vector<double> errors;
    for (const auto& r : family.runs)
        errors.push_back((r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms);
    return {family.family, static_cast<int>(family.runs.size()), predict::summarise_errors(errors)};
}

// The network that tells the machine's speed: the benchmark suite's MobileNetV2 at width 0.5 (a
// few ms, every common kernel kind), else the first generated network of the pool.
std::size_t probe_network(const std::vector<PoolNetwork>& pool) {
    for (std::size_t n = 0; n < pool.size(); ++n)
        if (pool[n].name == kProbeNetwork)
            return n;
    for (std::size_t n = 0; n < pool.size(); ++n)
        if (!pool[n].example)
            return n;
    return 0;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

} // namespace

device::DeviceSpec calibrated_device(const std::string& id, const std::string& runtime, int threads,
                                     int networks, double minutes) {
    device::DeviceSpec machine = device::detect_this_machine();
    device::DeviceSpec d;
    d.id = id;
    d.kind = device::DeviceKind::cpu;
    const std::string thread_text = std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
    device::ProcessingElement pe = machine.processing_elements.at(0);
    d.name = pe.core_type + ", " + runtime + ", " + thread_text;
    d.source = "measured: cleave calibrate on " + today() + ", " + std::to_string(networks) +
               " networks in " + fixed(minutes, 1) + " min";
    d.note = "A calibrated PE: this machine's CPU as the runtime used it with " + thread_text +
             "; its predictor (the user library's predictors/" + id +
             ".json.xz) was trained on the networks measured.";
    const int detected = std::max(1, pe.cores);
    if (pe.peak_gflops.fp32)
        pe.peak_gflops.fp32 = *pe.peak_gflops.fp32 * std::min(threads, detected) / detected;
    pe.cores = threads;
    pe.core_ids.resize(static_cast<std::size_t>(std::min(threads, detected)));
    pe.name = "CPU, " + thread_text;
    pe.source = "measured: cleave calibrate (intra-op threads); the rest detected";
    d.processing_elements = {pe};
    d.memory = machine.memory;
    d.measurement = device::Measurement{"cleave calibrate", runtime, threads, "float32"};
    return d;
}

CalibrationResult calibrate(profile::Profiler& profiler, const CalibrationOptions& options) {
    const auto now = [&] {
        return options.clock
                   ? options.clock()
                   : std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
    };
    const double start = now();
    const auto elapsed = [&] { return now() - start; };
    const auto say = [&](const std::string& line) {
        if (options.progress)
            options.progress(line);
    };
    const auto poll = [&] {
        if (options.poll)
            options.poll();
    };
    const double budget_s = options.minutes * 60;
    double measure_until = budget_s - training_reserve_s(budget_s);
    const auto kinds = kinds_to_score(options);
    if (kinds.empty())
        throw InputError("", "--kinds", "no predictor kind is installed to train");
    const auto method = fusion::find_fusion_method(options.rules);

    CalibrationResult result;
    result.data.runtime = profiler.runtime();
    result.data.device = profile::host_processor();
    say("calibrating " + options.device_id + ": " + result.data.runtime + ", " +
        std::to_string(options.threads) + " thread" + (options.threads == 1 ? "" : "s") + ", " +
        fixed(options.minutes, 1) + " min");

    PoolOptions pool_options;
    pool_options.work_folder = options.work_folder;
    pool_options.example_models = options.example_models;
    pool_options.simulation_models = simulation_models_per_space(options.minutes);
    pool_options.seed = options.seed;
    pool_options.method = &method;
    pool_options.progress = say;
    pool_options.poll = poll;
    auto pool = build_pool(pool_options);
    auto clusters = cluster_pool_kernels(pool, kClusters, options.seed);
    result.pool_networks = static_cast<int>(pool.size());
    result.kernel_clusters = clusters.count();

    profile::ProfileOptions profiling;
    profiling.threads = options.threads;
    profiling.warmups = kWarmups;
    profiling.repeats = kRepeats;
    profiling.max_rounds = kMaxRounds;

    predict::PredictorTrainingOptions training;
    training.device = options.device_id;
    training.kind = kinds.front();
    training.rules = options.rules;
    training.seed = options.seed;
    // What a cross-device predictor knows of this machine besides its kernels.
    training.device_spec = calibrated_device(options.device_id, profiler.runtime(),
                                             options.threads, 0, options.minutes);

    std::vector<predict::RunData> runs;
    std::vector<bool> done(pool.size(), false);
    // The speed probe is measured for itself only. runs_state_ms[i]: the machine's speed around
    // runs[i] (the probes before and after it), runs_scale[i]: the factor its times carry so far;
    // pending: pool indices of the last runs, measured since the last probe.
    const std::size_t probe = probe_network(pool);
    done[probe] = true;
    result.speed.probe = pool[probe].name;
    std::vector<double> runs_state_ms, runs_scale;
    std::vector<std::size_t> pending;
    // Runs taken out for a slow spell or a change of speed, kept until their network is measured
    // again: if most of the calibration ran slow, they are what there is.
    struct Reserved {
        std::size_t network = 0; // in pool
        predict::RunData run;
        profile::MeasuredRun data;
        MeasuredNetwork measured;
        double state_ms = 0;        // the probes' speed around it (their geometric mean)
        bool speed_changed = false; // the probes around it disagreed
    };
    std::vector<Reserved> reserve;
    double measured_since_probe_s = kProbeSeconds;
    bool probing = pool.size() > 1;
    std::vector<double> measured_per_cluster(static_cast<std::size_t>(clusters.count()), 0);
    std::vector<double> speed_ratios; // measured / nominal end-to-end time
    double session_s = 1.0;           // per network beyond its runs: start-up, load, profile
    std::optional<predict::Predictor> guide;
    int failures = 0;

    // What measuring each network is expected to cost, kernel by kernel: from the nominal
    // roofline scaled by how much slower the measured networks ran, or, once there is one, from the
    // guide predictor (worked out once per guide: predicting the whole pool costs seconds).
    std::vector<std::vector<double>> expected_us(pool.size());
    std::vector<double> expected_ms(pool.size());
    bool nominal = true;
    const auto expect = [&] {
        const auto roofline = predict::NominalRoofline::of(predict::kernel_feature_names());
        for (std::size_t n = 0; n < pool.size(); ++n) {
            if (done[n])
                continue;
            const auto& network = pool[n];
            expected_us[n].clear();
            if (guide) {
                const auto predicted =
                    predict::predict_model(*guide, *network.model, network.kernels);
                for (const auto& k : predicted.kernels)
                    expected_us[n].push_back(k.us);
                expected_ms[n] = predicted.total_ms;
            } else {
                for (std::size_t k = 0; k < network.features.size(); ++k)
                    expected_us[n].push_back(roofline.us(network.features[k].data()) *
                                             network.kernels.kernels[k].launches);
                expected_ms[n] = network.nominal_ms;
            }
        }
        nominal = !guide;
    };
    const auto candidates = [&] {
        const double scale = nominal && !speed_ratios.empty() ? cleave::median(speed_ratios) : 1.0;
        std::vector<Candidate> out;
        for (std::size_t n = 0; n < pool.size(); ++n) {
            if (done[n])
                continue;
            Candidate c;
            c.network = static_cast<int>(n);
            for (const double us : expected_us[n])
                c.kernel_us.push_back(us * scale);
            c.seconds =
                session_s + (kWarmups + 1.3 * kRepeats) * 2 * expected_ms[n] * scale / 1000.0;
            out.push_back(std::move(c));
        }
        return out;
    };
    expect();

    // Measures pool network n; false when the runtime refused it (skipped, said why).
    // A generated network's file, once measured, unless the networks are kept.
    const auto forget = [&](const PoolNetwork& network) {
        std::error_code ignored;
        if (!options.keep_networks && !network.example)
            fs::remove(network.source, ignored);
    };
    const auto measure = [&](const Candidate& candidate, const std::string& phase) {
        const auto n = static_cast<std::size_t>(candidate.network);
        auto& network = pool[n];
        done[n] = true;
        const double began = elapsed();
        profile::MeasuredRun run;
        try {
            const fs::path file = measurable_file(network, options.work_folder / "examples");
            network.model->file = file.string();
            run = profiler.profile(*network.model, profiling);
            failures = 0;
            // Kept networks beside the generated ones, so that their data trains and evaluates
            // from that one folder (a copy that fails leaves only the folder short of it).
            if (options.keep_networks && network.example) {
                std::error_code ignored;
                fs::copy_file(file, options.work_folder / "models" / (network.name + ".onnx"),
                              fs::copy_options::skip_existing, ignored);
            }
        } catch (const InputError& e) {
            if (++failures >= 3)
                throw;
            say("  skipped " + network.name + ": " + e.what());
            forget(network);
            return false;
        }
        pending.push_back(n);
        std::erase_if(reserve, [&](const Reserved& r) { return r.network == n; });
        run.model = network.name;
        const double seconds = elapsed() - began;
        measured_since_probe_s += seconds;
        profile::put_run(result.data, run);
        runs.push_back(predict::prepare_run(*network.model, run));
        runs.back().family = network.family;
        const auto& data = runs.back();
        if (network.nominal_ms > 0 && data.e2e_ms > 0)
            speed_ratios.push_back(data.e2e_ms / network.nominal_ms);
        // Each run is a plain and a profiled one (the ort back end; with others the session part
        // comes out smaller, which only makes the choice bolder).
        const double runs_s =
            2 * (kWarmups + static_cast<double>(run.e2e_ms.size())) * data.e2e_ms / 1000;
        session_s = 0.7 * session_s + 0.3 * std::max(0.05, seconds - runs_s);
        std::vector<std::vector<double>> features;
        for (const auto& s : data.samples)
            features.push_back(s.features);
        for (const int c : clusters.clusters_of(features))
            measured_per_cluster[static_cast<std::size_t>(c)] += 1;
        result.networks.push_back(
            {network.name, network.family, phase, data.e2e_ms, data.kernel_count, seconds});
        say("[" + std::to_string(result.networks.size()) + "] " + network.name + " (" +
            network.family + (network.example ? ", example" : "") + "): " + fixed(data.e2e_ms, 2) +
            " ms, " + std::to_string(data.kernel_count) + " kernels, " + fixed(seconds, 1) +
            " s; " + fixed(std::max(0.0, measure_until - elapsed()) / 60, 1) +
            " min of measuring left");
        return true;
    };

    // When every network of the pool has been measured and time is left: more of each simulation
    // space, their kernels placed in the clusters found at the start.
    int simulated = pool_options.simulation_models;
    const auto grow = [&] {
        const int more = pool_options.simulation_models;
        say("every network of the pool measured: writing " + std::to_string(more) +
            " more of each simulation space");
        auto extra = more_simulation_models(pool_options, simulated, more);
        simulated += more;
        for (auto& network : extra) {
            clusters.clusters.push_back(clusters.clusters_of(network.features));
            pool.push_back(std::move(network));
            done.push_back(false);
        }
        expected_us.resize(pool.size());
        expected_ms.resize(pool.size());
        expect();
    };

    // Scales runs[i]'s times (its data for training and the dataset's) by `factor`.
    const auto scale_run = [&](std::size_t i, double factor) {
        auto& run = runs[i];
        run.e2e_ms *= factor;
        run.kernels_ms *= factor;
        for (auto& sample : run.samples)
            sample.us *= factor;
        for (auto& launched : run.launched_us)
            launched.second *= factor;
        result.networks[i].e2e_ms *= factor;
        for (auto& measured : result.data.runs)
            if (measured.model == result.networks[i].name) {
                for (auto& ms : measured.e2e_ms)
                    ms *= factor;
                for (auto& kernel : measured.kernels)
                    if (kernel.us)
                        *kernel.us *= factor;
            }
        runs_scale[i] *= factor;
    };
    // Takes runs[i] out of the calibration: its training data, its network, its dataset entry
    // and its speed figures.
    const auto take_run = [&](std::size_t i) {
        const auto at = static_cast<std::ptrdiff_t>(i);
        Reserved r{0, std::move(runs[i]), {}, std::move(result.networks[i]), 0};
        const auto measured =
            std::find_if(result.data.runs.begin(), result.data.runs.end(),
                         [&](const profile::MeasuredRun& m) { return m.model == r.measured.name; });
        if (measured != result.data.runs.end()) {
            r.data = std::move(*measured);
            result.data.runs.erase(measured);
        }
        runs.erase(runs.begin() + at);
        result.networks.erase(result.networks.begin() + at);
        if (i < runs_state_ms.size()) {
            runs_state_ms.erase(runs_state_ms.begin() + at);
            runs_scale.erase(runs_scale.begin() + at);
        }
        return r;
    };
    // Takes the runs measured since the last probe out of the data and back into the pool.
    const auto drop_pending = [&](double state_ms, bool speed_changed) {
        for (std::size_t i = pending.size(); i-- > 0;) {
            std::vector<std::vector<double>> features;
            for (const auto& sample : runs.back().samples)
                features.push_back(sample.features);
            for (const int c : clusters.clusters_of(features))
                measured_per_cluster[static_cast<std::size_t>(c)] -= 1;
            Reserved r = take_run(runs.size() - 1);
            r.network = pending[i];
            r.state_ms = state_ms;
            r.speed_changed = speed_changed;
            reserve.push_back(std::move(r));
        }
        for (const std::size_t n : pending)
            done[n] = false;
        result.speed.remeasured += static_cast<int>(pending.size());
        pending.clear();
    };
    // The machine's fast state: the probe at the 10th percentile's rank, rounded down. A speed it
    // ran at: between a fast probe and a slow one an interpolated quantile is neither (with the
    // few probes of a short calibration, one fast and nine slow gave 1.35x the fast state, and
    // the runs measured slow came out 10% below the machine's times).
    const auto fast_ms = [&] {
        std::vector<double> ms;
        for (const auto& p : result.speed.probes)
            ms.push_back(p.second);
        std::sort(ms.begin(), ms.end());
        return ms[static_cast<std::size_t>(0.1 * static_cast<double>(ms.size() - 1))];
    };
    // Times the probe and judges the networks measured since the last one. When the probes
    // before and after them agree within kSlowState, their times are scaled to the fast state by
    // the probes' ratio; when the speed changed in between, they go back to the pool.
    const auto time_probe = [&] {
        measured_since_probe_s = 0;
        double ms = 0;
        try {
            auto& network = pool[probe];
            network.model->file =
                measurable_file(network, options.work_folder / "examples").string();
            const auto run = profiler.profile(*network.model, profiling);
            ms = run.e2e_ms.empty() ? 0 : cleave::median(run.e2e_ms);
        } catch (const InputError& e) {
            say("  the speed probe " + pool[probe].name + " failed (" + e.what() +
                "); the machine's speed is not followed");
        }
        auto& speed = result.speed;
        if (!(ms > 0)) {
            probing = false;
            for (const std::size_t n : pending)
                forget(pool[n]);
            runs_state_ms.resize(runs.size(), 0);
            runs_scale.resize(runs.size(), 1);
            pending.clear();
            return;
        }
        const double before = speed.probes.empty() ? ms : speed.probes.back().second;
        speed.probes.emplace_back(elapsed(), ms);
        speed.slowest_ms = std::max(speed.slowest_ms, ms);
        speed.fastest_ms = fast_ms();
        if (pending.empty())
            return;
        const double state_ms = std::sqrt(before * ms);
        const bool changed = std::max(before, ms) > kSlowState * std::min(before, ms);
        if (changed || state_ms > kSlowState * speed.fastest_ms) {
            say(changed
                    ? "  the machine's speed changed while the last " +
                          std::to_string(pending.size()) + " networks were measured (speed probe " +
                          fixed(before, 2) + " -> " + fixed(ms, 2) +
                          " ms): they go back to the pool"
                    : "  the machine ran " + fixed(state_ms / speed.fastest_ms, 2) +
                          "x slower than its fastest while the last " +
                          std::to_string(pending.size()) + " networks were measured (speed probe " +
                          fixed(ms, 2) + " ms): they go back to the pool");
            drop_pending(state_ms, changed);
            return;
        }
        const double factor = speed.fastest_ms / state_ms;
        for (const std::size_t n : pending)
            forget(pool[n]);
        runs_state_ms.resize(runs.size(), state_ms);
        runs_scale.resize(runs.size(), 1);
        for (std::size_t i = runs.size() - pending.size(); i < runs.size(); ++i)
            scale_run(i, factor);
        pending.clear();
    };

    // Takes `pick`'s choice while its expected cost fits before `until`; false when none fits.
    const auto measure_next = [&](const std::function<int(const std::vector<Candidate>&)>& pick,
                                  double until, const std::string& phase) {
        if (probing && measured_since_probe_s >= kProbeSeconds)
            time_probe();
        auto list = candidates();
        if (list.empty()) {
            grow();
            list = candidates();
        }
        std::erase_if(list, [&](const Candidate& c) { return elapsed() + c.seconds > until; });
        const int chosen = pick(list);
        if (chosen < 0)
            return false;
        measure(list[static_cast<std::size_t>(chosen)], phase);
        return true;
    };

    // Coverage first, for up to half of the measuring time.
    say("measuring networks that cover the kernels' " + std::to_string(clusters.count()) +
        " clusters");
    const double coverage_until = elapsed() + 0.5 * (measure_until - elapsed());
    while (elapsed() < coverage_until) {
        poll();
        if (!measure_next(
                [&](const std::vector<Candidate>& list) {
                    return next_by_coverage(clusters, list, measured_per_cluster,
                                            kKernelsPerCluster);
                },
                coverage_until, "coverage"))
            break;
    }
    // Then where the predictor errs most, re-judged every round; measuring ends in time to score
    // and train, as long as the last fit says those take.
    const auto families_measured = [&] {
        std::set<std::string> families;
        for (const auto& r : runs)
            families.insert(r.family);
        return families.size();
    };
    const double round_s = std::max(15.0, 0.15 * measure_until);
    while (elapsed() < measure_until && runs.size() >= 2) {
        poll();
        const double began = elapsed();
        std::vector<const predict::RunData*> all;
        for (const auto& r : runs)
            all.push_back(&r);
        guide = predict::train_predictor(all, training);
        expect();
        const double fit_s = elapsed() - began;
        measure_until = std::min(budget_s - training_reserve_s(budget_s),
                                 budget_s - scoring_s(fit_s, families_measured() + 1));
        // Judging the errors takes a fit per fold.
        if (elapsed() + kFolds * fit_s >= measure_until)
            break;
        const auto errors = cluster_errors(runs, clusters, training);
        double known = 0, count = 0;
        for (const double e : errors)
            if (e >= 0) {
                known += e;
                ++count;
            }
        const double unknown = count > 0 ? std::max(0.5, 2 * known / count) : 1.0;
        say("predictor errors judged on " + std::to_string(runs.size()) +
            " networks: mean cluster error " + fixed(count > 0 ? 100 * known / count : 0, 1) +
            "%; measuring where it is largest");
        const double until = std::min(measure_until, elapsed() + round_s);
        bool any = false;
        while (elapsed() < until) {
            poll();
            if (!measure_next(
                    [&](const std::vector<Candidate>& list) {
                        return next_by_error(clusters, list, errors, unknown);
                    },
                    measure_until, "error"))
                break;
            any = true;
        }
        if (!any)
            break;
    }
    if (probing && !pending.empty())
        time_probe();
    // When most of what was measured ran in slow spells, the runs taken out for them (those not
    // measured again) come back, scaled to the fast state like the others. Those measured while
    // the speed changed, which the probes around them tell only roughly, come back only where
    // fewer than 2 runs would be left without them (a short calibration on a busy host), scaled
    // by the probes' geometric mean.
    const auto steady = std::stable_partition(reserve.begin(), reserve.end(),
                                              [](const Reserved& r) { return !r.speed_changed; });
    std::vector<Reserved> changed(std::make_move_iterator(steady),
                                  std::make_move_iterator(reserve.end()));
    reserve.erase(steady, reserve.end());
    const auto keep = [&](std::vector<Reserved>& taken) {
        for (auto& r : taken) {
            runs.push_back(std::move(r.run));
            profile::put_run(result.data, std::move(r.data));
            result.networks.push_back(std::move(r.measured));
            runs_state_ms.resize(runs.size() - 1, 0);
            runs_scale.resize(runs.size() - 1, 1);
            runs_state_ms.push_back(r.state_ms);
            runs_scale.push_back(1);
        }
        result.speed.remeasured -= static_cast<int>(taken.size());
        taken.clear();
    };
    if (!reserve.empty() && 2 * runs.size() < runs.size() + reserve.size()) {
        say("most networks were measured in slow spells: the " + std::to_string(reserve.size()) +
            " taken out and not measured again are kept, scaled to the machine's fastest");
        keep(reserve);
    }
    if (!changed.empty() && runs.size() < 2) {
        say("fewer than 2 networks were measured at a steady speed: the " +
            std::to_string(changed.size()) +
            " measured while it changed are kept, scaled to the machine's fastest by the probes "
            "around them");
        keep(changed);
    }
    // Those taken out and never measured again are left out.
    const auto left_out = static_cast<int>(reserve.size() + changed.size());
    result.speed.remeasured -= left_out;
    result.speed.left_out += left_out;
    // Judged again against the fast state of the whole calibration (the probes after a run may
    // have found a faster one): runs measured in what then counts as a slow spell are left out,
    // as long as most runs stay; the others are scaled to it.
    const double limit = kSlowState * result.speed.fastest_ms;
    const auto slow = static_cast<std::size_t>(std::count_if(
        runs_state_ms.begin(), runs_state_ms.end(), [&](double ms) { return ms > limit; }));
    if (slow > 0 && 2 * slow <= runs.size()) {
        // runs_state_ms covers the runs measured while the probe was followed: the first ones.
        for (std::size_t i = std::min(runs.size(), runs_state_ms.size()); i-- > 0;) {
            if (runs_state_ms[i] > limit)
                take_run(i);
        }
        result.speed.left_out += static_cast<int>(slow);
        say("left out " + std::to_string(slow) + " networks measured while the machine ran more " +
            "than " + fixed(kSlowState, 2) + "x slower than its fastest");
    }
    for (std::size_t i = 0; i < runs_state_ms.size() && i < runs.size(); ++i)
        if (runs_state_ms[i] > 0) {
            const double target = result.speed.fastest_ms / runs_state_ms[i];
            scale_run(i, target / runs_scale[i]);
            result.speed.scaled += target < 1 / 1.05;
        }
    result.measuring_seconds = elapsed();
    if (runs.size() < 2)
        throw InputError("", "--minutes",
                         "the budget measured " + std::to_string(runs.size()) +
                             " network(s); a predictor needs at least 2: give more minutes");

    // Score every kind with each family held out, while the budget lasts; the kind kept is then
    // trained on everything. The first kind is always scored; another is abandoned as soon as
    // the budget, less what the final fit of the best so far takes, is spent, or its next fold,
    // as slow as its slowest so far, would not end in time (checked before each fold and each
    // class model, so a slow kind overruns by one model's fit at most).
    say("scoring predictor kinds on " + std::to_string(runs.size()) + " networks, their " +
        std::to_string(families_measured()) + " families held out in " + std::to_string(kFolds) +
        " folds");
    struct BudgetSpent {};
    int best = -1;         // in result.kinds
    double best_fit_s = 0; // the best kind's slowest fold: what its fit on everything takes
    for (const auto& kind : kinds) {
        poll();
        KindScore score;
        score.kind = kind;
        const bool first = result.kinds.empty();
        const double began = elapsed();
        double fold_began = began, slowest_fold = 0;
        auto kind_training = training;
        kind_training.kind = kind;
        kind_training.poll = [&] {
            poll();
            if (!first && elapsed() + 1.25 * best_fit_s > budget_s)
                throw BudgetSpent{};
        };
        std::vector<predict::FamilyResult> held_out;
        try {
            held_out = predict::leave_family_out(
                runs, method, kind_training,
                [&](const std::string&) {
                    kind_training.poll();
                    slowest_fold = std::max(slowest_fold, elapsed() - fold_began);
                    fold_began = elapsed();
                    // A fold like the slowest so far would not end in time.
                    if (!first && elapsed() + slowest_fold + 1.25 * best_fit_s > budget_s)
                        throw BudgetSpent{};
                },
                kFolds);
        } catch (const BudgetSpent&) {
            say("  " + kind + ": not scored, the budget is spent");
            result.kinds.push_back(score);
            continue;
        }
        slowest_fold = std::max(slowest_fold, elapsed() - fold_began);
        std::vector<double> pooled;
        for (const auto& f : held_out) {
            score.families.push_back(family_error(f));
            for (const auto& r : f.runs)
                pooled.push_back((r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms);
        }
        score.e2e = predict::summarise_errors(pooled);
        score.scored = true;
        score.seconds = elapsed() - began;
        say("  " + kind + ": " + fixed(100 * score.e2e.mape, 1) +
            "% end-to-end MAPE on held-out families (" + fixed(score.seconds, 1) + " s)");
        result.kinds.push_back(std::move(score));
        if (best < 0 || result.kinds.back().e2e.mape <
                            result.kinds[static_cast<std::size_t>(best)].e2e.mape) {
            best = static_cast<int>(result.kinds.size()) - 1;
            best_fit_s = slowest_fold;
        }
    }
    const std::string kept = result.kinds[static_cast<std::size_t>(best)].kind;
    say("keeping " + kept + ", trained on all " + std::to_string(runs.size()) + " networks");
    std::vector<const predict::RunData*> all;
    for (const auto& r : runs)
        all.push_back(&r);
    auto final_training = training;
    final_training.kind = kept;
    final_training.poll = poll;
    result.predictor = predict::train_predictor(all, final_training);
    result.seconds = elapsed();
    result.device = calibrated_device(options.device_id, result.data.runtime, options.threads,
                                      static_cast<int>(runs.size()), result.seconds / 60);
    return result;
}

} // namespace cleave::calibration
