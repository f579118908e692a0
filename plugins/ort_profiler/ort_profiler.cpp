// The ONNX Runtime profiler: runs an ONNX model with ONNX Runtime's CPU execution provider
// (EXTENDED optimisation level, sequential) through onnxruntime-node, the runtime of the shared
// Xeon measurements, in a Node.js process of its own (ort_session.mjs). End-to-end times come from
// a plain session, as a user's inference runs; ONNX Runtime's own profiling trace of a second
// session, run after each of them, and the optimised graph it saves give the kernels and the
// nodes each covers, read as `cleave import-profile` reads them (core/profile/ort_profile_import).
#include "core/child_process.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/graph/input_feeds.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/written_nodes.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/measurement_rounds.hpp"
#include "core/profile/ort_profile_import.hpp"
#include "core/profile/profiler.hpp"
#include "core/temporary_folder.hpp"
#include "plugins/ort_common/ort_node.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace cleave::ort_profiler {

namespace {

namespace fs = std::filesystem;

using ort_node::modules_folder;
using ort_node::ort_version;

fs::path session_script() {
    return ort_node::runtime_folder() / "ort_session.mjs";
}

// glibc's settings for a decoder step's process (kDecoderMalloc): memory freed is kept for the
// next step, not returned to the system and faulted back in. By default glibc maps each block of
// more than its threshold afresh and trims what is freed at the top of its heap; the megabytes
// of keys and values a decoder step's inputs and outputs carry then cost page faults every step,
// 2 to 3 ms of a 2 ms step (a decoder of 4 layers after 1,024 tokens, one thread, this machine),
// in some processes and not in others. A decoder's runtime keeps its buffers from step to step.
// scripts/time-onnxruntime.mjs times decoders under the same settings.
constexpr const char* kDecoderMalloc[] = {"MALLOC_MMAP_THRESHOLD_=33554432",
                                          "MALLOC_TRIM_THRESHOLD_=1073741824"};

// A decoder warms up until its outputs have totalled this much (ort_session.mjs): past the first
// collections of the garbage the outputs' copies leave, which until then fault in fresh memory
// at every step. scripts/time-onnxruntime.mjs warms decoders up alike.
constexpr std::int64_t kWarmOutputBytes = 128'000'000;

// The Node.js process holding the session: commands down its stdin, one JSON line back for each
// on its stdout; its stderr goes to a file, quoted when something fails. `decoder`: glibc keeps
// freed memory (kDecoderMalloc).
class NodeSession {
public:
    NodeSession(const std::string& model_file, const nlohmann::json& config, const fs::path& log,
                bool decoder)
        : model_file_(model_file),
          process_(
              {CLEAVE_NODE_EXECUTABLE, session_script().string(), config.dump()}, log,
              decoder
                  ? std::vector<std::string>(std::begin(kDecoderMalloc), std::end(kDecoderMalloc))
                  : std::vector<std::string>{},
              decoder ? std::vector<std::string>{"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"}
                      : std::vector<std::string>{}) {}

    // The answer to `command` (empty: the first line the session writes on its own).
    nlohmann::json ask(const std::string& command, const std::string& doing) {
        if (!command.empty())
            process_.write(command + "\n", doing);
        return ort_node::read_answer(process_, model_file_, doing);
    }

    void finish() { process_.finish(); }

private:
    std::string model_file_;
    ChildProcess process_;
};

// The plain session timed end to end by measure_rounds: its warm-ups at once (a decoder's until
// its outputs came to kWarmOutputBytes), and each round's runs back to back, as a loop of
// inferences runs them (ort_session.mjs): between runs answered one by one, a decode step after
// 4,096 tokens took 7.6 ms where a loop took 8.3-8.9.
profile::MeasuredRounds time_plain_session(NodeSession& session,
                                           const profile::ProfileOptions& options, bool decoder) {
    const TaskControl rounds_control(options.control, [&](const TaskProgress& p) {
        report_progress(options.control, {p.fraction, "ort: " + std::string(p.stage), p.lasting});
    });
    profile::ProfileOptions rounds = options;
    rounds.control = &rounds_control;
    const auto warm = session.ask("warm " + std::to_string(options.warmups), "warm it up");
    if (decoder)
        report_line(options.control, "ort: warmed up with " +
                                         std::to_string(warm.value("runs", 0)) +
                                         " runs, until their outputs came to " +
                                         std::to_string(kWarmOutputBytes / 1000000) + " MB");
    std::vector<double> round;
    std::size_t next = 0;
    return profile::measure_rounds(rounds, [&](int timed) {
        if (timed < 0)
            return 0.0; // warmed up above, at once
        if (next == round.size()) {
            round = session.ask("run " + std::to_string(options.repeats), "run it")
                        .at("ms")
                        .get<std::vector<double>>();
            next = 0;
        }
        return round.at(next++);
    });
}

class OrtProfiler final : public profile::Profiler {
public:
    std::string runtime() const override {
        return "ONNX Runtime " + ort_version(modules_folder()) +
               " (CPUExecutionProvider), onnxruntime-node, EXTENDED optimisation";
    }

    profile::MeasuredRun profile(const graph::Model& model,
                                 const profile::ProfileOptions& options) override {
        auto say = [&](const std::string& line) { report_line(options.control, "ort: " + line); };
        const fs::path modules = modules_folder();
        ort_version(modules); // refuses a folder without onnxruntime-node
        nlohmann::json inputs = nlohmann::json::array();
        const auto feeds = graph::input_feeds(model);
        for (std::size_t k = 0; k < model.inputs.size(); ++k) {
            const auto& input = model.tensors[static_cast<std::size_t>(model.inputs[k])];
            const std::string place = "input " + input.name;
            const std::string dtype(graph::to_string(input.dtype)); // as ort.Tensor names it
            if (dtype != "float32" && dtype != "int64" && dtype != "int32")
                throw InputError(model.file, place,
                                 "is " + dtype +
                                     "; the ort profiler feeds float32, int64 and int32 inputs");
            if (!input.shape || graph::element_count(input.shape) < 0)
                throw InputError(model.file, place,
                                 "has no known dims; give them with --input-shape NAME=DIMS");
            inputs.push_back({{"name", input.name},
                              {"dims", *input.shape},
                              {"dtype", dtype},
                              {"fill", graph::to_string(feeds[k].fill)},
                              {"value", feeds[k].value}});
        }
        const TemporaryFolder folder("cleave-ort");
        const fs::path optimized = folder.path() / "optimized.onnx";
        const graph::UnpackedModelFile unpacked(model); // onnxruntime-node reads plain ONNX only
        const bool decoder = graph::decoder_phase(model).has_value();
        const nlohmann::json config{{"modules", modules.string()},
                                    {"model", fs::absolute(unpacked.path()).string()},
                                    {"threads", options.threads},
                                    {"inputs", inputs},
                                    {"profile_prefix", (folder.path() / "profile").string()},
                                    {"optimized", optimized.string()},
                                    {"warm_output_bytes", decoder ? kWarmOutputBytes : 0}};
        NodeSession session(model.file, config, folder.path() / "node.log", decoder);
        const auto ready = session.ask("", "load it");
        say("ONNX Runtime " + ready.value("version", std::string("?")) + " (" + modules.string() +
            "), " + std::to_string(options.threads) + " thread" +
            (options.threads == 1 ? "" : "s"));

        // The plain session timed end to end in rounds until steady, then the profiled one run
        // as many times (after the same warm-ups) for its kernels.
        const auto measured = time_plain_session(session, options, decoder);
        session.ask("start-profile", "start its profile");
        // The profiled session warms up as the plain one did: a decode step's kernels ran slower
        // while its outputs' copies still faulted in fresh memory (the caches the faults flush).
        const int warmups = session.ask("warm " + std::to_string(options.warmups), "warm it up")
                                .value("runs", options.warmups);
        for (std::size_t i = 0; i < measured.e2e_ms.size(); ++i)
            session.ask("profile", "profile it");
        session.ask("end", "end its profile");
        session.finish();

        fs::path trace_file;
        for (const auto& entry : fs::directory_iterator(folder.path()))
            if (entry.path().filename().string().starts_with("profile") &&
                entry.path().extension() == ".json")
                trace_file = entry.path();
        if (trace_file.empty())
            throw std::runtime_error("onnxruntime-node wrote no profiling trace");
        const auto trace = profile::read_ort_trace(trace_file.string());
        profile::OrtImportOptions import;
        import.optimized_file = optimized.string();
        import.threads = options.threads;
        import.warmups = warmups;
        import.runs = static_cast<int>(measured.e2e_ms.size());
        auto imported =
            profile::import_ort_profile(trace, model, graph::read_written_nodes(optimized), import);
        imported.run.e2e_ms = measured.e2e_ms;
        imported.run.cv = measured.cv;
        return imported.run;
    }
};

} // namespace

} // namespace cleave::ort_profiler

extern "C" __attribute__((visibility("default"))) const cleave::plugin::PluginDescriptor*
cleave_plugin() {
    static const cleave::plugin::PluginDescriptor descriptor{
        cleave::plugin::kPluginAbiVersion, cleave::profile::Profiler::kPluginKind, "ort",
        "ONNX Runtime (onnxruntime-node " CLEAVE_ORT_NODE_VERSION
        "): ONNX models on the CPU execution provider, its own fusion and per-kernel times",
        []() -> void* {
            return static_cast<cleave::profile::Profiler*>(new cleave::ort_profiler::OrtProfiler);
        }};
    return &descriptor;
}
