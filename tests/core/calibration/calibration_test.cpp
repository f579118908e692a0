// Calibration end to end over a profiler whose kernels follow a known law: it measures networks
// from the pool until its budget is spent, covering the kernel clusters first, scores the kinds
// on families it held out, and the predictor it keeps recovers the law on networks it never
// measured; a cancelled calibration stops, and a budget too small to measure says so.
#include "core/calibration/calibration.hpp"
#include "core/calibration/memory_streaming.hpp"
#include "core/device/this_machine.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/input_dim_binding.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/model_specs.hpp"
#include "core/profile/measured_dataset.hpp"
#include "core/statistics.hpp"
#include "core/task_control.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <map>

using namespace cleave;

namespace {

// Each kernel the ort-cpu rules form takes 3 us + MACs at 20 GMAC/s + bytes at 5 GB/s; an
// inference adds 0.2 ms. Each network takes `seconds` of `clock` to measure: the calibration keeps
// its budget by that clock, so the test does not depend on how fast the machine is.
class LawProfiler final : public profile::Profiler {
public:
    explicit LawProfiler(double seconds = 0) : seconds_(seconds) {}

    // Between these clock readings every time comes out `slow_factor` times longer (a shared
    // host's other tenants).
    double slow_from = 0, slow_until = 0, slow_factor = 1;
    std::map<std::string, double> law_ms; // per model measured: its end-to-end time by the law

    std::string runtime() const override { return "law 1.0"; }

    profile::MeasuredRun profile(const graph::Model& model,
                                 const profile::ProfileOptions& options) override {
        ++profiled;
        threads = options.threads;
        clock += seconds_;
        const double factor = clock >= slow_from && clock < slow_until ? slow_factor : 1.0;
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        profile::MeasuredRun run;
        run.model = std::filesystem::path(model.file).stem().string();
        run.threads = options.threads;
        run.input_shape = *model.tensors[static_cast<std::size_t>(model.inputs[0])].shape;
        double total_us = 200;
        for (const auto& k : kernels.kernels) {
            profile::MeasuredKernel m;
            m.name = k.name;
            m.op = model.nodes[static_cast<std::size_t>(k.nodes.front())].op;
            for (const int n : k.nodes)
                if (model.nodes[static_cast<std::size_t>(n)].op != "Constant")
                    m.covers.push_back(model.nodes[static_cast<std::size_t>(n)].name);
            if (m.covers.empty())
                continue;
            m.us = factor * law_us(k);
            total_us += law_us(k);
            run.kernels.push_back(std::move(m));
        }
        law_ms[key(run.model, graph::bound_role(model, graph::DimRole::NewTokens),
                   graph::bound_role(model, graph::DimRole::CachedTokens))] = total_us / 1000.0;
        run.e2e_ms.assign(10, factor * total_us / 1000.0);
        run.cv = 0;
        if (after_profile)
            after_profile();
        return run;
    }

    // A network's key in law_ms: its name, and for a decoder step its new and cached tokens.
    static std::string key(const std::string& name, std::optional<std::int64_t> fresh,
                           std::optional<std::int64_t> cached) {
        return fresh
                   ? name + "@" + std::to_string(*fresh) + "/" + std::to_string(cached.value_or(0))
                   : name;
    }
    double law_of(const calibration::MeasuredNetwork& n) const {
        return law_ms.at(key(n.name, n.dims.new_tokens(), n.dims.cached_tokens()));
    }

    static double law_us(const fusion::Kernel& k) {
        return 3.0 + static_cast<double>(k.macs) / 20e3 +
               static_cast<double>(k.bytes_in + k.bytes_out) / 5e3;
    }

    int profiled = 0;
    int threads = 0;
    double clock = 0;
    std::function<void()> after_profile; // a test's hook

private:
    double seconds_;
};

calibration::CalibrationOptions options(const QTemporaryDir& dir, double minutes) {
    calibration::CalibrationOptions o;
    o.device_id = "law-machine-1t";
    o.minutes = minutes;
    o.threads = 1;
    o.kinds = {"lasso"};
    o.work_folder = dir.path().toStdString();
    o.example_models = {std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx"};
    o.decoders = 0; // decodersAreMeasuredStepByStep has them
    // The law's machine reads memory as fast as it likes: no kernel meets the memory floor.
    o.memory_curve = {{4.0 * (1 << 20), 1e6}};
    return o;
}

// A calibration of `minutes` on `profiler`, the machine 1.5x slower from `from` to `until` on
// the profiler's clock; its progress lines go to `lines`.
calibration::CalibrationResult calibrate_slowed(const QTemporaryDir& dir, LawProfiler& profiler,
                                                double minutes, double from, double until,
                                                std::vector<std::string>& lines) {
    profiler.slow_from = from;
    profiler.slow_until = until;
    profiler.slow_factor = 1.5;
    auto o = options(dir, minutes);
    o.clock = [&] { return profiler.clock; };
    const TaskControl control(
        [&](const TaskProgress& report) { lines.emplace_back(report.stage); });
    o.control = &control;
    return calibration::calibrate(profiler, o);
}

// Every profile a calibration took: the networks kept, the probes, those measured again and
// those left out.
int accounted_for(const calibration::CalibrationResult& r) {
    return static_cast<int>(r.networks.size() + r.speed.probes.size()) + r.speed.remeasured +
           r.speed.left_out;
}

// Whether a progress line says `text`.
// The first network whose end-to-end time, as reported or in the data, is not its time by the
// law (the machine's own); empty when every one is.
std::string first_off_the_law(const calibration::CalibrationResult& r,
                              const LawProfiler& profiler) {
    for (std::size_t i = 0; i < r.networks.size(); ++i) {
        const double law = profiler.law_of(r.networks[i]);
        if (std::abs(r.networks[i].e2e_ms - law) >= 1e-6 * law ||
            std::abs(cleave::median(r.data.runs[i].e2e_ms) - law) >= 1e-6 * law)
            return r.networks[i].name;
    }
    return {};
}

bool said(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
        return line.find(text) != std::string::npos;
    });
}

// resnet18 (never measured by a calibration's pool) as `predictor` predicts it and as the law
// times it, in ms.
std::pair<double, double> resnet18_by_predictor_and_law(const predict::Predictor& predictor) {
    const auto resnet =
        graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    const auto kernels = fusion::detect_kernels(resnet, fusion::find_fusion_method("ort-cpu"));
    double law_ms = 0.2;
    for (const auto& k : kernels.kernels)
        law_ms += LawProfiler::law_us(k) / 1000.0;
    return {predict::predict_model(predictor, resnet, kernels).total_ms, law_ms};
}

} // namespace

class CalibrationTest : public QObject {
    Q_OBJECT

private slots:
    void itLearnsTheLawOfTheMeasuredDevice() {
        QTemporaryDir dir;
        LawProfiler profiler(0.5);
        auto o = options(dir, 0.4);
        o.clock = [&] { return profiler.clock; };
        o.data_file = dir.filePath("data.json").toStdString();
        std::vector<std::string> lines;
        const TaskControl control([&](const TaskProgress& report) {
            lines.emplace_back(report.stage);
            // The data is written before the kinds are scored: a failure there loses none.
            if (report.stage.starts_with("scoring"))
                QVERIFY(std::filesystem::exists(o.data_file));
        });
        o.control = &control;
        const auto r = calibration::calibrate(profiler, o);
        QCOMPARE(profile::load_measured_dataset(o.data_file).runs.size(), r.data.runs.size());

        // Within its budget, measuring for most of it.
        QVERIFY2(r.seconds <= 0.4 * 60, std::to_string(r.seconds).c_str());
        QVERIFY2(r.measuring_seconds > 0.5 * 0.4 * 60, std::to_string(r.measuring_seconds).c_str());
        QCOMPARE(static_cast<int>(r.networks.size() + r.speed.probes.size()), profiler.profiled);
        QCOMPARE(r.speed.probe, std::string("mobilenet_v2_w050_r224"));
        QCOMPARE(r.speed.probes.size(), std::size_t{3}); // every 10 s of measuring
        QCOMPARE(r.speed.remeasured, 0);
        QCOMPARE(r.speed.scaled, 0);
        QVERIFY(r.networks.size() >= 10);
        QCOMPARE(r.data.runs.size(), r.networks.size());
        QCOMPARE(profiler.threads, 1);
        // A generated network's file goes once it is measured; the rest of the pool stays.
        int left = 0;
        for (const auto& n : r.networks)
            left += std::filesystem::exists(dir.filePath("models/" + QString::fromStdString(n.name) +
                                                         ".onnx")
                                                .toStdString());
        QCOMPARE(left, 0);
        QVERIFY(!std::filesystem::is_empty(dir.filePath("models").toStdString()));
        // Coverage first, then where the predictor errs.
        QCOMPARE(r.networks.front().phase, std::string("coverage"));
        // One progress line per network measured.
        int network_lines = 0;
        for (const auto& line : lines)
            network_lines += line.starts_with("[");
        QCOMPARE(network_lines, static_cast<int>(r.networks.size()));

        // Scored on families it held out: a law lasso can express is learnt closely (its shrinkage
        // and the fall-back of rare classes to wider models cost a few percent: 6.8% measured).
        QCOMPARE(r.kinds.size(), std::size_t{1});
        QVERIFY(r.kinds[0].scored);
        QVERIFY2(r.kinds[0].e2e.mape < 0.10, std::to_string(r.kinds[0].e2e.mape).c_str());
        QVERIFY(r.kinds[0].families.size() >= 3);
        QCOMPARE(r.predictor.kind, std::string("lasso"));
        QCOMPARE(r.predictor.device, std::string("law-machine-1t"));
        QVERIFY(std::abs(r.predictor.overhead_ms - 0.2) < 0.05);

        // And on a network it never measured.
        const auto [predicted, law_ms] = resnet18_by_predictor_and_law(r.predictor);
        QVERIFY2(std::abs(predicted - law_ms) / law_ms < 0.05,
                 (std::to_string(predicted) + " vs " + std::to_string(law_ms)).c_str());
    }

    void networksMeasuredInASlowSpellAreMeasuredAgain() {
        QTemporaryDir dir;
        LawProfiler profiler(0.5);
        std::vector<std::string> lines;
        const auto r = calibrate_slowed(dir, profiler, 1, 12, 40, lines);

        // The probe saw the spell; what was measured in it, or while it began or ended, went
        // back to the pool and was measured again.
        QVERIFY(std::abs(r.speed.slowest_ms / r.speed.fastest_ms - 1.5) < 1e-6);
        QVERIFY(r.speed.remeasured >= 20);
        QCOMPARE(accounted_for(r), profiler.profiled);
        QCOMPARE(r.data.runs.size(), r.networks.size());
        QVERIFY(said(lines, "1.50x slower than its fastest"));
        QVERIFY(said(lines, "speed changed while"));
        // Every run kept carries the machine's own times, so the law is learnt as closely as
        // without the spell.
        const std::string off = first_off_the_law(r, profiler);
        QVERIFY2(off.empty(), off.c_str());
        const auto [predicted, law_ms] = resnet18_by_predictor_and_law(r.predictor);
        QVERIFY2(std::abs(predicted - law_ms) / law_ms < 0.05,
                 (std::to_string(predicted) + " vs " + std::to_string(law_ms)).c_str());
    }

    void aCalibrationSlowedForMostOfItsTimeKeepsWhatItMeasured() {
        // The speed changes once, early, and stays slow: what was taken out for the slow spell
        // comes back scaled to the machine's own times; what was measured while the speed
        // changed (no probe tells at which) is left out.
        QTemporaryDir dir;
        LawProfiler profiler(0.5);
        std::vector<std::string> lines;
        const auto r = calibrate_slowed(dir, profiler, 0.4, 5, 1e9, lines);
        QVERIFY(r.networks.size() >= 10);
        QCOMPARE(r.data.runs.size(), r.networks.size());
        QVERIFY(said(lines, "most networks were measured in slow spells"));
        QVERIFY(r.speed.left_out >= 1);
        QCOMPARE(accounted_for(r), profiler.profiled);
        const std::string off = first_off_the_law(r, profiler);
        QVERIFY2(off.empty(), off.c_str());
    }

    void aShortCalibrationWhoseSpeedKeptChangingKeepsWhatItMeasured() {
        // The speed changes within every stretch between two probes: no network was measured at
        // a speed the probes agree on, so those measured while it changed are kept, scaled by the
        // probes around them, rather than none.
        QTemporaryDir dir;
        LawProfiler profiler(0.5);
        std::vector<std::string> lines;
        const auto r = calibrate_slowed(dir, profiler, 0.4, 5, 15, lines);
        QVERIFY(r.networks.size() >= 2);
        QCOMPARE(r.data.runs.size(), r.networks.size());
        QVERIFY(said(lines, "fewer than 2 networks were measured at a steady speed"));
        QCOMPARE(accounted_for(r), profiler.profiled);
        // Within the spell's factor of the machine's own times.
        for (const auto& n : r.networks) {
            const double law = profiler.law_of(n);
            QVERIFY2(n.e2e_ms > law / 1.5 && n.e2e_ms < law * 1.5, n.name.c_str());
        }
    }

    // Decoder steps join the pool: each step is measured as a network of its own, its run keeps
    // its phase (the steps of one decoder share its name), and the decoder's file stays until
    // the calibration is done, for its other steps.
    void decodersAreMeasuredStepByStep() {
        QTemporaryDir dir;
        LawProfiler profiler(0.5);
        auto o = options(dir, 0.4);
        o.decoders = 4;
        o.clock = [&] { return profiler.clock; };
        const auto r = calibration::calibrate(profiler, o);
        QCOMPARE(r.data.runs.size(), r.networks.size());
        std::map<std::string, int> steps;
        for (std::size_t i = 0; i < r.networks.size(); ++i) {
            const auto& n = r.networks[i];
            QCOMPARE(r.data.runs[i].model, n.name);
            QCOMPARE(r.data.runs[i].dims, n.dims);
            if (n.dims.empty())
                continue;
            ++steps[n.name];
            QVERIFY2(
                std::filesystem::exists(dir.filePath(QString::fromStdString("models/" + n.name +
                                                                            "/" + n.name + ".onnx"))
                                            .toStdString()),
                n.name.c_str());
        }
        QVERIFY2(!steps.empty(), "no decoder step was measured");
        std::string counts;
        for (const auto& [name, count] : steps)
            counts += name + ": " + std::to_string(count) + "; ";
        QVERIFY2(
            std::any_of(steps.begin(), steps.end(), [](const auto& s) { return s.second > 1; }),
            counts.c_str());
        const std::string off = first_off_the_law(r, profiler);
        QVERIFY2(off.empty(), off.c_str());
    }

    // The runtime's streaming rate: one product of 256 MiB of weights, profiled at the options'
    // threads, its file gone after, its rate set against the probe's.
    void streamingIsTheRuntimesRateAgainstTheProbes() {
        QTemporaryDir dir;
        LawProfiler profiler;
        profile::ProfileOptions options;
        options.threads = 1;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "streaming";
        const auto m = calibration::measure_streaming(profiler, options, folder);
        QCOMPARE(profiler.profiled, 1);
        QCOMPARE(m.weight_bytes, 4096.0 * 16384 * 4);
        // The law: 3 us + MACs / 20e3 + bytes / 5e3 for the one MatMul kernel.
        const double law_ms =
            (3.0 + 4096.0 * 16384 / 20e3 + (m.weight_bytes + 4096 * 4 + 16384 * 4) / 5e3) / 1000;
        QVERIFY2(std::abs(m.kernel_ms - law_ms) < 1e-6, std::to_string(m.kernel_ms).c_str());
        QVERIFY(std::abs(m.runtime_gbs - m.weight_bytes / (m.kernel_ms * 1e6)) < 1e-9);
        QVERIFY(m.probe_gbs > 0.1);
        QVERIFY(std::abs(m.efficiency - m.runtime_gbs / m.probe_gbs) < 1e-12);
        QVERIFY(std::filesystem::is_empty(folder));
    }

    void theDeviceIsThisMachinesCpuAtTheThreadsMeasured() {
        const auto d =
            calibration::calibrated_device("box-ort-2t", "ONNX Runtime 1.30.0", 2, 40, 9.5);
        QCOMPARE(d.id, std::string("box-ort-2t"));
        QCOMPARE(d.kind, device::DeviceKind::cpu);
        QCOMPARE(d.processing_elements.size(), std::size_t{1});
        QCOMPARE(d.processing_elements[0].cores, 2);
        QVERIFY(d.measurement);
        QCOMPARE(d.measurement->threads.value_or(0), 2);
        QCOMPARE(d.measurement->runtime, std::string("ONNX Runtime 1.30.0"));
        QVERIFY(d.source.find("40 networks in 9.5 min") != std::string::npos);
        // What it writes reads back.
        const auto again = device::parse_device_spec(device::device_spec_json(d), "box.json");
        QCOMPARE(again.id, d.id);
        // The bandwidth is the curve's largest working set's, measured at its threads.
        const auto measured =
            calibration::calibrated_device("box-ort-2t", "ONNX Runtime 1.30.0", 2, 40, 9.5,
                                           {{4.0 * (1 << 20), 45.0}, {512.0 * (1 << 20), 24.96}});
        const auto& pe = measured.processing_elements[0];
        QCOMPARE(pe.memory_bandwidth_gbs.value_or(0), 25.0);
        QVERIFY2(
            pe.note.find("Memory bandwidth 25.0 GB/s is measured: 2 threads reading 512 MiB") !=
                std::string::npos,
            pe.note.c_str());
        QCOMPARE(pe.note.find("Memory bandwidth"), pe.note.rfind("Memory bandwidth"));
    }

    void aCancelledCalibrationStops() {
        QTemporaryDir dir;
        LawProfiler profiler;
        auto o = options(dir, 1);
        TaskControl control;
        o.control = &control;
        profiler.after_profile = [&] {
            if (profiler.profiled >= 3)
                control.cancel();
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, calibration::calibrate(profiler, o));
        QCOMPARE(profiler.profiled, 3);
    }

    void aBudgetTooSmallToMeasureSaysSo() {
        QTemporaryDir dir;
        LawProfiler profiler(30);
        auto o = options(dir, 0.01);
        o.clock = [&] { return profiler.clock; };
        try {
            calibration::calibrate(profiler, o);
            QFAIL("calibrated without measuring");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--minutes"));
            QVERIFY(e.problem().find("give more minutes") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(CalibrationTest)
#include "calibration_test.moc"
