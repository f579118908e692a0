#include "calibration.hpp"

#include "calibration_pool.hpp"
#include "core/device/this_machine.hpp"
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/profile/host_processor.hpp"
#include "core/statistics.hpp"
#include "kind_scoring.hpp"
#include "memory_streaming.hpp"
#include "network_choice.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <optional>
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

// Decoders to start with, 6 steps each (a decoder costs ~0.5 s to write and load its steps; a
// step 0.3-5 s to measure at 1 thread).
int decoders_for(double minutes) {
    return std::clamp(static_cast<int>(std::lround(minutes * 3)), 3, 45);
}

bool same_run(const profile::MeasuredRun& run, const MeasuredNetwork& network) {
    return run.model == network.name && run.dims == network.dims;
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
                                     int networks, double minutes,
                                     const std::vector<device::BandwidthPoint>& memory) {
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
    if (!memory.empty()) {
        pe.memory_bandwidth_gbs = std::round(memory.back().gbs * 10) / 10;
        pe.source = "measured: cleave calibrate (intra-op threads, memory bandwidth); the rest "
                    "detected";
        // The detected note's own sentence on the bandwidth (at every CPU) gives way to this one.
        pe.note = pe.note.substr(0, pe.note.find("Memory bandwidth")) + "Memory bandwidth " +
                  fixed(*pe.memory_bandwidth_gbs, 1) + " GB/s is measured: " + thread_text +
                  " reading " + std::to_string(static_cast<long long>(memory.back().bytes) >> 20) +
                  " MiB over and over, the best pass. The predictor keeps the bandwidth at " +
                  std::to_string(memory.size()) + " working sets from " +
                  std::to_string(static_cast<long long>(memory.front().bytes) >> 20) +
                  " MiB up: no kernel is predicted faster than its bytes read at the bandwidth of "
                  "its model's weights and caches.";
    }
    d.processing_elements = {pe};
    d.memory = machine.memory;
    d.measurement = device::Measurement{"cleave calibrate", runtime, threads, "float32"};
    return d;
}

namespace {

// A run taken out for a slow spell or a change of speed, kept until its network is measured
// again: if most of the calibration ran slow, such runs are what there is.
struct Reserved {
    std::size_t network = 0; // in pool
    predict::RunData run;
    profile::MeasuredRun data;
    MeasuredNetwork measured;
    double state_ms = 0;        // the probes' speed around it (their geometric mean)
    bool speed_changed = false; // the probes around it disagreed
};

// One calibration in its phases: the pool and its kernel clusters, the networks measured, the
// machine's speed as the probe follows it, and the result so far.
class Calibration {
public:
    Calibration(profile::Profiler& profiler, const CalibrationOptions& options);
    Calibration(const Calibration&) = delete;
    Calibration& operator=(const Calibration&) = delete;

    void measure_for_coverage();
    void measure_where_it_errs();
    void settle_speed();
    void save_data(const std::filesystem::path& file) const {
        profile::save_measured_dataset(result_.data, file);
    }
    void score_kinds();
    CalibrationResult train_kept_kind();

private:
    double now() const {
        return options_.clock
                   ? options_.clock()
                   : std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
    }
    double elapsed() const { return now() - start_; }
    void say(const std::string& line) const { report_line(options_.control, line); }
    void measure_memory(const CalibrationOptions& options);

    void expect();
    std::vector<Candidate> candidates() const;
    void forget(const PoolNetwork& network) const;
    bool measure(const Candidate& candidate, const std::string& phase);
    void grow();
    void scale_run(std::size_t i, double factor);
    Reserved take_run(std::size_t i);
    void drop_pending(double state_ms, bool speed_changed);
    double fast_ms() const;
    void time_probe();
    void judge_probe(double ms);
    bool measure_next(const std::function<int(const std::vector<Candidate>&)>& pick, double until,
                      const std::string& phase);
    std::size_t families_measured() const;
    void keep(std::vector<Reserved>& taken);
    void restore_reserved();
    void leave_out_slow_runs();

    profile::Profiler& profiler_;
    const CalibrationOptions& options_;
    double start_ = 0;
    double budget_s_ = 0;
    double measure_until_ = 0;
    std::vector<std::string> kinds_;
    fusion::FusionMethod method_;
    CalibrationResult result_;
    PoolOptions pool_options_;
    std::vector<PoolNetwork> pool_;
    KernelClusters clusters_;
    profile::ProfileOptions profiling_;
    predict::PredictorTrainingOptions training_;

    std::vector<predict::RunData> runs_;
    std::vector<bool> done_;
    // The speed probe is measured for itself only. runs_state_ms_[i]: the machine's speed around
    // runs_[i] (the probes before and after it), runs_scale_[i]: the factor its times carry so
    // far; pending_: pool indices of the last runs, measured since the last probe.
    std::size_t probe_ = 0;
    std::vector<double> runs_state_ms_, runs_scale_;
    std::vector<std::size_t> pending_;
    std::vector<Reserved> reserve_;
    double measured_since_probe_s_ = kProbeSeconds;
    bool probing_ = false;
    std::vector<double> measured_per_cluster_;
    std::vector<double> speed_ratios_; // measured / nominal end-to-end time
    double session_s_ = 1.0;           // per network beyond its runs: start-up, load, profile
    std::optional<predict::Predictor> guide_;
    int failures_ = 0;
    int simulated_ = 0; // simulation models written per space
    int decoders_ = 0;  // decoders written

    // What measuring each network is expected to cost, kernel by kernel: from the nominal
    // roofline scaled by how much slower the measured networks ran, or, once there is one, from
    // the guide predictor (worked out once per guide: predicting the whole pool costs seconds).
    std::vector<std::vector<double>> expected_us_;
    std::vector<double> expected_ms_;
    bool nominal_ = true;

    int best_ = -1; // in result_.kinds
};

Calibration::Calibration(profile::Profiler& profiler, const CalibrationOptions& options)
    : profiler_(profiler), options_(options) {
    start_ = now();
    budget_s_ = options.minutes * 60;
    measure_until_ = budget_s_ - training_reserve_s(budget_s_);
    kinds_ = kinds_to_score(options);
    if (kinds_.empty())
        throw InputError("", "--kinds", "no predictor kind is installed to train");
    method_ = fusion::find_fusion_method(options.rules);

    result_.data.runtime = profiler.runtime();
    result_.data.device = profile::host_processor();
    say("calibrating " + options.device_id + ": " + result_.data.runtime + ", " +
        std::to_string(options.threads) + " thread" + (options.threads == 1 ? "" : "s") + ", " +
        fixed(options.minutes, 1) + " min");

    pool_options_.work_folder = options.work_folder;
    pool_options_.example_models = options.example_models;
    pool_options_.simulation_models = simulation_models_per_space(options.minutes);
    pool_options_.decoders =
        options.decoders >= 0 ? options.decoders : decoders_for(options.minutes);
    pool_options_.seed = options.seed;
    pool_options_.method = &method_;
    pool_options_.control = options.control;
    pool_ = build_pool(pool_options_);
    clusters_ = cluster_pool_kernels(pool_, kClusters, options.seed);
    result_.pool_networks = static_cast<int>(pool_.size());
    result_.kernel_clusters = clusters_.count();
    simulated_ = pool_options_.simulation_models;
    decoders_ = pool_options_.decoders;

    profiling_.threads = options.threads;
    profiling_.warmups = kWarmups;
    profiling_.repeats = kRepeats;
    profiling_.max_rounds = kMaxRounds;

    training_.device = options.device_id;
    training_.kind = kinds_.front();
    training_.rules = options.rules;
    training_.seed = options.seed;
    measure_memory(options);
    // What a cross-device predictor knows of this machine besides its kernels.
    training_.device_spec =
        calibrated_device(options.device_id, profiler.runtime(), options.threads, 0,
                          options.minutes, training_.memory_curve);

    done_.assign(pool_.size(), false);
    probe_ = probe_network(pool_);
    done_[probe_] = true;
    result_.speed.probe = pool_[probe_].name;
    probing_ = pool_.size() > 1;
    measured_per_cluster_.assign(static_cast<std::size_t>(clusters_.count()), 0);
    expected_us_.resize(pool_.size());
    expected_ms_.resize(pool_.size());
    expect();
}

void Calibration::expect() {
    const auto roofline = predict::NominalRoofline::of(predict::kernel_feature_names());
    for (std::size_t n = 0; n < pool_.size(); ++n) {
        if (done_[n])
            continue;
        const auto& network = pool_[n];
        expected_us_[n].clear();
        if (guide_) {
            const auto predicted = predict::predict_model(*guide_, *network.model, network.kernels);
            for (const auto& k : predicted.kernels)
                expected_us_[n].push_back(k.us);
            expected_ms_[n] = predicted.total_ms;
        } else {
            for (std::size_t k = 0; k < network.features.size(); ++k)
                expected_us_[n].push_back(roofline.us(network.features[k].data()) *
                                          network.kernels.kernels[k].launches);
            expected_ms_[n] = network.nominal_ms;
        }
    }
    nominal_ = !guide_;
}

std::vector<Candidate> Calibration::candidates() const {
    const double scale = nominal_ && !speed_ratios_.empty() ? cleave::median(speed_ratios_) : 1.0;
    std::vector<Candidate> out;
    for (std::size_t n = 0; n < pool_.size(); ++n) {
        if (done_[n])
            continue;
        Candidate c;
        c.network = static_cast<int>(n);
        for (const double us : expected_us_[n])
            c.kernel_us.push_back(us * scale);
        c.seconds = session_s_ + (kWarmups + 1.3 * kRepeats) * 2 * expected_ms_[n] * scale / 1000.0;
        out.push_back(std::move(c));
    }
    return out;
}

// A generated network's file, once measured, unless the networks are kept. A decoder's file
// serves its other steps; the work folder goes with the calibration.
void Calibration::forget(const PoolNetwork& network) const {
    std::error_code ignored;
    if (!options_.keep_networks && !network.example && network.dims.empty())
        fs::remove(network.source, ignored);
}

// Measures pool network n; false when the runtime refused it (skipped, said why).
bool Calibration::measure(const Candidate& candidate, const std::string& phase) {
    const auto n = static_cast<std::size_t>(candidate.network);
    auto& network = pool_[n];
    done_[n] = true;
    const double began = elapsed();
    profile::MeasuredRun run;
    try {
        const fs::path file = measurable_file(network, options_.work_folder / "examples");
        network.model->file = file.string();
        run = profiler_.profile(*network.model, profiling_);
        failures_ = 0;
        // Kept networks beside the generated ones, so that their data trains and evaluates
        // from that one folder (a copy that fails leaves only the folder short of it).
        if (options_.keep_networks && network.example) {
            std::error_code ignored;
            fs::copy_file(file, options_.work_folder / "models" / (network.name + ".onnx"),
                          fs::copy_options::skip_existing, ignored);
        }
    } catch (const InputError& e) {
        if (++failures_ >= 3)
            throw;
        say("  skipped " + pool_label(network) + ": " + e.what());
        forget(network);
        return false;
    }
    pending_.push_back(n);
    std::erase_if(reserve_, [&](const Reserved& r) { return r.network == n; });
    run.model = network.name;
    run.dims = network.dims;
    const double seconds = elapsed() - began;
    measured_since_probe_s_ += seconds;
    profile::put_run(result_.data, run);
    runs_.push_back(predict::prepare_run(*network.model, run));
    runs_.back().family = network.family;
    const auto& data = runs_.back();
    if (network.nominal_ms > 0 && data.e2e_ms > 0)
        speed_ratios_.push_back(data.e2e_ms / network.nominal_ms);
    // Each run is a plain and a profiled one (the ort back end; with others the session part
    // comes out smaller, which only makes the choice bolder).
    const double runs_s =
        2 * (kWarmups + static_cast<double>(run.e2e_ms.size())) * data.e2e_ms / 1000;
    session_s_ = 0.7 * session_s_ + 0.3 * std::max(0.05, seconds - runs_s);
    std::vector<std::vector<double>> features;
    for (const auto& s : data.samples)
        features.push_back(s.features);
    for (const int c : clusters_.clusters_of(features))
        measured_per_cluster_[static_cast<std::size_t>(c)] += 1;
    result_.networks.push_back({network.name, network.dims, network.family, phase, data.e2e_ms,
                                data.kernel_count, seconds});
    say("[" + std::to_string(result_.networks.size()) + "] " + pool_label(network) + " (" +
        network.family + (network.example ? ", example" : "") + "): " + fixed(data.e2e_ms, 2) +
        " ms, " + std::to_string(data.kernel_count) + " kernels, " + fixed(seconds, 1) + " s; " +
        fixed(std::max(0.0, measure_until_ - elapsed()) / 60, 1) + " min of measuring left");
    return true;
}

// When every network of the pool has been measured and time is left: more of each simulation
// space, their kernels placed in the clusters found at the start.
void Calibration::grow() {
    const int more = pool_options_.simulation_models;
    say("every network of the pool measured: writing " + std::to_string(more) +
        " more of each simulation space and " + std::to_string(pool_options_.decoders) +
        " more decoders");
    auto extra = more_simulation_models(pool_options_, simulated_, more);
    simulated_ += more;
    auto steps = more_decoder_steps(pool_options_, decoders_, pool_options_.decoders);
    decoders_ += pool_options_.decoders;
    extra.insert(extra.end(), std::make_move_iterator(steps.begin()),
                 std::make_move_iterator(steps.end()));
    for (auto& network : extra) {
        clusters_.clusters.push_back(clusters_.clusters_of(network.features));
        pool_.push_back(std::move(network));
        done_.push_back(false);
    }
    expected_us_.resize(pool_.size());
    expected_ms_.resize(pool_.size());
    expect();
}

// Scales runs_[i]'s times (its data for training and the dataset's) by `factor`.
void Calibration::scale_run(std::size_t i, double factor) {
    auto& run = runs_[i];
    run.e2e_ms *= factor;
    run.kernels_ms *= factor;
    for (auto& sample : run.samples)
        sample.us *= factor;
    for (auto& launched : run.launched_us)
        launched.second *= factor;
    result_.networks[i].e2e_ms *= factor;
    for (auto& measured : result_.data.runs)
        if (same_run(measured, result_.networks[i])) {
            for (auto& ms : measured.e2e_ms)
                ms *= factor;
            for (auto& kernel : measured.kernels)
                if (kernel.us)
                    *kernel.us *= factor;
        }
    runs_scale_[i] *= factor;
}

// Takes runs_[i] out of the calibration: its training data, its network, its dataset entry and
// its speed figures.
Reserved Calibration::take_run(std::size_t i) {
    const auto at = static_cast<std::ptrdiff_t>(i);
    Reserved r{0, std::move(runs_[i]), {}, std::move(result_.networks[i]), 0};
    const auto measured =
        std::find_if(result_.data.runs.begin(), result_.data.runs.end(),
                     [&](const profile::MeasuredRun& m) { return same_run(m, r.measured); });
    if (measured != result_.data.runs.end()) {
        r.data = std::move(*measured);
        result_.data.runs.erase(measured);
    }
    runs_.erase(runs_.begin() + at);
    result_.networks.erase(result_.networks.begin() + at);
    if (i < runs_state_ms_.size()) {
        runs_state_ms_.erase(runs_state_ms_.begin() + at);
        runs_scale_.erase(runs_scale_.begin() + at);
    }
    return r;
}

// Takes the runs measured since the last probe out of the data and back into the pool.
void Calibration::drop_pending(double state_ms, bool speed_changed) {
    for (std::size_t i = pending_.size(); i-- > 0;) {
        std::vector<std::vector<double>> features;
        for (const auto& sample : runs_.back().samples)
            features.push_back(sample.features);
        for (const int c : clusters_.clusters_of(features))
            measured_per_cluster_[static_cast<std::size_t>(c)] -= 1;
        Reserved r = take_run(runs_.size() - 1);
        r.network = pending_[i];
        r.state_ms = state_ms;
        r.speed_changed = speed_changed;
        reserve_.push_back(std::move(r));
    }
    for (const std::size_t n : pending_)
        done_[n] = false;
    result_.speed.remeasured += static_cast<int>(pending_.size());
    pending_.clear();
}

// The machine's fast state: the probe at the 10th percentile's rank, rounded down. A speed it
// ran at: between a fast probe and a slow one an interpolated quantile is neither (with the few
// probes of a short calibration, one fast and nine slow gave 1.35x the fast state, and the runs
// measured slow came out 10% below the machine's times).
double Calibration::fast_ms() const {
    std::vector<double> ms;
    for (const auto& p : result_.speed.probes)
        ms.push_back(p.second);
    std::sort(ms.begin(), ms.end());
    return ms[static_cast<std::size_t>(0.1 * static_cast<double>(ms.size() - 1))];
}

// Times the probe and judges the networks measured since the last one (judge_probe). Once the
// probe fails, the speed is no longer followed.
void Calibration::time_probe() {
    measured_since_probe_s_ = 0;
    double ms = 0;
    try {
        auto& network = pool_[probe_];
        network.model->file = measurable_file(network, options_.work_folder / "examples").string();
        const auto run = profiler_.profile(*network.model, profiling_);
        ms = run.e2e_ms.empty() ? 0 : cleave::median(run.e2e_ms);
    } catch (const InputError& e) {
        say("  the speed probe " + pool_[probe_].name + " failed (" + e.what() +
            "); the machine's speed is not followed");
    }
    if (!(ms > 0)) {
        probing_ = false;
        for (const std::size_t n : pending_)
            forget(pool_[n]);
        runs_state_ms_.resize(runs_.size(), 0);
        runs_scale_.resize(runs_.size(), 1);
        pending_.clear();
        return;
    }
    judge_probe(ms);
}

// When the probes before and after the networks measured since the last one agree within
// kSlowState, their times are scaled to the fast state by the probes' ratio; when the speed
// changed in between, or the machine ran slow, they go back to the pool.
void Calibration::judge_probe(double ms) {
    auto& speed = result_.speed;
    const double before = speed.probes.empty() ? ms : speed.probes.back().second;
    speed.probes.emplace_back(elapsed(), ms);
    speed.slowest_ms = std::max(speed.slowest_ms, ms);
    speed.fastest_ms = fast_ms();
    if (pending_.empty())
        return;
    const double state_ms = std::sqrt(before * ms);
    const bool changed = std::max(before, ms) > kSlowState * std::min(before, ms);
    if (changed || state_ms > kSlowState * speed.fastest_ms) {
        say(changed
                ? "  the machine's speed changed while the last " +
                      std::to_string(pending_.size()) + " networks were measured (speed probe " +
                      fixed(before, 2) + " -> " + fixed(ms, 2) + " ms): they go back to the pool"
                : "  the machine ran " + fixed(state_ms / speed.fastest_ms, 2) +
                      "x slower than its fastest while the last " +
                      std::to_string(pending_.size()) + " networks were measured (speed probe " +
                      fixed(ms, 2) + " ms): they go back to the pool");
        drop_pending(state_ms, changed);
        return;
    }
    const double factor = speed.fastest_ms / state_ms;
    for (const std::size_t n : pending_)
        forget(pool_[n]);
    runs_state_ms_.resize(runs_.size(), state_ms);
    runs_scale_.resize(runs_.size(), 1);
    for (std::size_t i = runs_.size() - pending_.size(); i < runs_.size(); ++i)
        scale_run(i, factor);
    pending_.clear();
}

// Takes `pick`'s choice while its expected cost fits before `until`; false when none fits.
bool Calibration::measure_next(const std::function<int(const std::vector<Candidate>&)>& pick,
                               double until, const std::string& phase) {
    if (probing_ && measured_since_probe_s_ >= kProbeSeconds)
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
}

// Coverage first, for up to half of the measuring time.
void Calibration::measure_for_coverage() {
    say("measuring networks that cover the kernels' " + std::to_string(clusters_.count()) +
        " clusters");
    const double coverage_until = elapsed() + 0.5 * (measure_until_ - elapsed());
    while (elapsed() < coverage_until) {
        checkpoint(options_.control);
        if (!measure_next(
                [&](const std::vector<Candidate>& list) {
                    return next_by_coverage(clusters_, list, measured_per_cluster_,
                                            kKernelsPerCluster);
                },
                coverage_until, "coverage"))
            break;
    }
}

std::size_t Calibration::families_measured() const {
    std::set<std::string> families;
    for (const auto& r : runs_)
        families.insert(r.family);
    return families.size();
}

// Then where the predictor errs most, re-judged every round; measuring ends in time to score and
// train, as long as the last fit says those take.
void Calibration::measure_where_it_errs() {
    const double round_s = std::max(15.0, 0.15 * measure_until_);
    while (elapsed() < measure_until_ && runs_.size() >= 2) {
        checkpoint(options_.control);
        const double began = elapsed();
        std::vector<const predict::RunData*> all;
        for (const auto& r : runs_)
            all.push_back(&r);
        guide_ = predict::train_predictor(all, training_);
        expect();
        const double fit_s = elapsed() - began;
        measure_until_ = std::min(budget_s_ - training_reserve_s(budget_s_),
                                  budget_s_ - scoring_s(fit_s, families_measured() + 1));
        // Judging the errors takes a fit per fold.
        if (elapsed() + kFolds * fit_s >= measure_until_)
            break;
        const auto errors = cluster_errors(runs_, clusters_, training_, kFolds);
        double known = 0, count = 0;
        for (const double e : errors)
            if (e >= 0) {
                known += e;
                ++count;
            }
        const double unknown = count > 0 ? std::max(0.5, 2 * known / count) : 1.0;
        say("predictor errors judged on " + std::to_string(runs_.size()) +
            " networks: mean cluster error " + fixed(count > 0 ? 100 * known / count : 0, 1) +
            "%; measuring where it is largest");
        const double until = std::min(measure_until_, elapsed() + round_s);
        bool any = false;
        while (elapsed() < until) {
            checkpoint(options_.control);
            if (!measure_next(
                    [&](const std::vector<Candidate>& list) {
                        return next_by_error(clusters_, list, errors, unknown);
                    },
                    measure_until_, "error"))
                break;
            any = true;
        }
        if (!any)
            break;
    }
}

// Runs taken out and kept after all, with the probes' speed around them.
void Calibration::keep(std::vector<Reserved>& taken) {
    for (auto& r : taken) {
        runs_.push_back(std::move(r.run));
        profile::put_run(result_.data, std::move(r.data));
        result_.networks.push_back(std::move(r.measured));
        runs_state_ms_.resize(runs_.size() - 1, 0);
        runs_scale_.resize(runs_.size() - 1, 1);
        runs_state_ms_.push_back(r.state_ms);
        runs_scale_.push_back(1);
    }
    result_.speed.remeasured -= static_cast<int>(taken.size());
    taken.clear();
}

// When most of what was measured ran in slow spells, the runs taken out for them (those not
// measured again) come back, scaled to the fast state like the others. Those measured while the
// speed changed, which the probes around them tell only roughly, come back only where fewer than
// 2 runs would be left without them (a short calibration on a busy host), scaled by the probes'
// geometric mean. Those taken out and never measured again are left out.
void Calibration::restore_reserved() {
    const auto steady = std::stable_partition(reserve_.begin(), reserve_.end(),
                                              [](const Reserved& r) { return !r.speed_changed; });
    std::vector<Reserved> changed(std::make_move_iterator(steady),
                                  std::make_move_iterator(reserve_.end()));
    reserve_.erase(steady, reserve_.end());
    if (!reserve_.empty() && 2 * runs_.size() < runs_.size() + reserve_.size()) {
        say("most networks were measured in slow spells: the " + std::to_string(reserve_.size()) +
            " taken out and not measured again are kept, scaled to the machine's fastest");
        keep(reserve_);
    }
    if (!changed.empty() && runs_.size() < 2) {
        say("fewer than 2 networks were measured at a steady speed: the " +
            std::to_string(changed.size()) +
            " measured while it changed are kept, scaled to the machine's fastest by the probes "
            "around them");
        keep(changed);
    }
    const auto left_out = static_cast<int>(reserve_.size() + changed.size());
    result_.speed.remeasured -= left_out;
    result_.speed.left_out += left_out;
}

// Judged again against the fast state of the whole calibration (the probes after a run may have
// found a faster one): runs measured in what then counts as a slow spell are left out, as long
// as most runs stay.
void Calibration::leave_out_slow_runs() {
    const double limit = kSlowState * result_.speed.fastest_ms;
    const auto slow = static_cast<std::size_t>(std::count_if(
        runs_state_ms_.begin(), runs_state_ms_.end(), [&](double ms) { return ms > limit; }));
    if (slow == 0 || 2 * slow > runs_.size())
        return;
    // runs_state_ms_ covers the runs measured while the probe was followed: the first ones.
    for (std::size_t i = std::min(runs_.size(), runs_state_ms_.size()); i-- > 0;) {
        if (runs_state_ms_[i] > limit)
            take_run(i);
    }
    result_.speed.left_out += static_cast<int>(slow);
    say("left out " + std::to_string(slow) + " networks measured while the machine ran more " +
        "than " + fixed(kSlowState, 2) + "x slower than its fastest");
}

// The last probe, the runs taken out kept or left out, and every run scaled to the machine's
// fast state (the others left out).
void Calibration::settle_speed() {
    if (probing_ && !pending_.empty())
        time_probe();
    restore_reserved();
    leave_out_slow_runs();
    for (std::size_t i = 0; i < runs_state_ms_.size() && i < runs_.size(); ++i)
        if (runs_state_ms_[i] > 0) {
            const double target = result_.speed.fastest_ms / runs_state_ms_[i];
            scale_run(i, target / runs_scale_[i]);
            result_.speed.scaled += target < 1 / 1.05;
        }
    result_.measuring_seconds = elapsed();
    if (runs_.size() < 2)
        throw InputError("", "--minutes",
                         "the budget measured " + std::to_string(runs_.size()) +
                             " network(s); a predictor needs at least 2: give more minutes");
}

// The memory floor: the probe's curve at the calibration's threads, then the runtime's own rate
// streaming a product's weights against it (10-20 s on a 2-vCPU host, most of it loading 256 MiB
// twice). Options that give a curve (a profiler that is not this machine) take it as it is, at
// the probe's rate, and so does a budget under kStreamingMinutes.
constexpr double kStreamingMinutes = 3;
void Calibration::measure_memory(const CalibrationOptions& options) {
    auto& curve = training_.memory_curve;
    curve = options.memory_curve.empty() ? device::probe_memory_curve(options.threads)
                                         : options.memory_curve;
    const auto mib = [](double bytes) {
        return std::to_string(static_cast<long long>(bytes) >> 20);
    };
    say("memory: " + fixed(curve.front().gbs, 1) + " GB/s reading " + mib(curve.front().bytes) +
        " MiB, " + fixed(curve.back().gbs, 1) + " GB/s reading " + mib(curve.back().bytes) +
        " MiB");
    // Under kStreamingMinutes the minutes go to networks, and the floor reads at the probe's rate.
    if (!options.memory_curve.empty() || options.minutes < kStreamingMinutes)
        return;
    const auto streamed =
        measure_streaming(profiler_, profiling_, options.work_folder / "streaming");
    training_.memory_efficiency = streamed.efficiency;
    say("memory: the runtime streams a product's " + mib(streamed.weight_bytes) +
        " MiB of weights at " + fixed(streamed.runtime_gbs, 1) + " GB/s, the probe reads " +
        fixed(streamed.probe_gbs, 1) + ": " + fixed(streamed.efficiency, 2) + " of it");
}

// Every kind scored with each family held out, while the budget lasts; the best is kept.
void Calibration::score_kinds() {
    say("scoring predictor kinds on " + std::to_string(runs_.size()) + " networks, their " +
        std::to_string(families_measured()) + " families held out in " + std::to_string(kFolds) +
        " folds");
    const ScoringBudget budget{[this] { return elapsed(); }, budget_s_, options_.control};
    result_.kinds =
        calibration::score_kinds(kinds_, runs_, method_, training_, kFolds, budget, best_);
}

// The kind kept, trained on everything measured, and the calibrated device.
CalibrationResult Calibration::train_kept_kind() {
    const std::string kept = result_.kinds[static_cast<std::size_t>(best_)].kind;
    say("keeping " + kept + ", trained on all " + std::to_string(runs_.size()) + " networks");
    std::vector<const predict::RunData*> all;
    for (const auto& r : runs_)
        all.push_back(&r);
    auto final_training = training_;
    final_training.kind = kept;
    const TaskControl fitting(options_.control); // cancels it; its steps are not shown
    final_training.control = &fitting;
    result_.predictor = predict::train_predictor(all, final_training);
    result_.seconds = elapsed();
    result_.device = calibrated_device(options_.device_id, result_.data.runtime, options_.threads,
                                       static_cast<int>(runs_.size()), result_.seconds / 60,
                                       training_.memory_curve);
    return std::move(result_);
}

} // namespace

CalibrationResult calibrate(profile::Profiler& profiler, const CalibrationOptions& options) {
    Calibration calibration(profiler, options);
    calibration.measure_for_coverage();
    calibration.measure_where_it_errs();
    calibration.settle_speed();
    if (!options.data_file.empty())
        calibration.save_data(options.data_file);
    calibration.score_kinds();
    return calibration.train_kept_kind();
}

} // namespace cleave::calibration
