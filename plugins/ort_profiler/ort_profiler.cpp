// The ONNX Runtime profiler: runs an ONNX model with ONNX Runtime's CPU execution provider
// (EXTENDED optimisation level, sequential) through onnxruntime-node, the runtime of the shared
// Xeon measurements, in a Node.js process of its own (ort_session.mjs). End-to-end times come from
// a plain session, as a user's inference runs; ONNX Runtime's own profiling trace of a second
// session, run after each of them, and the optimised graph it saves give the kernels and the
// nodes each covers, read as `cleave import-profile` reads them (core/profile/ort_profile_import).
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

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cleave::ort_profiler {

namespace {

namespace fs = std::filesystem;

// The folder onnxruntime-node and ort_session.mjs are kept in, beside the plugins' folder
// (<prefix>/lib/cleave/onnxruntime-node): the installed package's, or the build tree's, laid out
// alike (plugins/ort_profiler/CMakeLists.txt). Looked up once.
const fs::path& runtime_folder() {
    static const fs::path folder = [] {
        Dl_info info{};
        if (dladdr(reinterpret_cast<const void*>(&runtime_folder), &info) == 0 || !info.dli_fname)
            return fs::path();
        return fs::path(info.dli_fname).parent_path().parent_path() / "onnxruntime-node";
    }();
    return folder;
}

// Where onnxruntime-node is: CLEAVE_ORT_NODE_DIR when set, else beside the plugins.
fs::path modules_folder() {
    if (const char* dir = std::getenv("CLEAVE_ORT_NODE_DIR"); dir && *dir)
        return dir;
    return runtime_folder();
}

fs::path session_script() {
    return runtime_folder() / "ort_session.mjs";
}

std::string ort_version(const fs::path& modules) {
    const fs::path file = modules / "node_modules" / "onnxruntime-node" / "package.json";
    std::ifstream in(file);
    if (!in)
        throw InputError(file.string(), "",
                         "onnxruntime-node is not installed there: run scripts/setup.sh (npm ci), "
                         "or point CLEAVE_ORT_NODE_DIR at a folder holding "
                         "node_modules/onnxruntime-node");
    try {
        return nlohmann::json::parse(in).at("version").get<std::string>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(file.string(), "/version", "onnxruntime-node's version, a string");
    }
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
        : model_file_(model_file), log_(log) {
        int down[2], up[2];
        if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, down[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, up[1], STDOUT_FILENO);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const std::string node = CLEAVE_NODE_EXECUTABLE, script = session_script().string(),
                          argument = config.dump();
        std::vector<char*> argv{const_cast<char*>(node.c_str()), const_cast<char*>(script.c_str()),
                                const_cast<char*>(argument.c_str()), nullptr};
        std::vector<char*> env;
        for (char** e = environ; *e; ++e)
            if (!decoder || (!std::string_view(*e).starts_with("MALLOC_MMAP_THRESHOLD_=") &&
                             !std::string_view(*e).starts_with("MALLOC_TRIM_THRESHOLD_=")))
                env.push_back(*e);
        if (decoder)
            for (const char* setting : kDecoderMalloc)
                env.push_back(const_cast<char*>(setting));
        env.push_back(nullptr);
        const int spawned =
            posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv.data(), env.data());
        posix_spawn_file_actions_destroy(&actions);
        close(down[0]);
        close(up[1]);
        to_node_ = down[1];
        from_node_ = fdopen(up[0], "r");
        if (spawned != 0) {
            pid_ = -1;
            throw std::runtime_error("cannot start " + node + ": " + std::strerror(spawned));
        }
    }
    ~NodeSession() {
        if (to_node_ >= 0)
            close(to_node_);
        if (from_node_)
            std::fclose(from_node_);
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    NodeSession(const NodeSession&) = delete;
    NodeSession& operator=(const NodeSession&) = delete;

    // The answer to `command` (empty: the first line the session writes on its own).
    nlohmann::json ask(const std::string& command, const std::string& doing) {
        if (!command.empty()) {
            const std::string line = command + "\n";
            if (write(to_node_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
                fail(doing, "the session stopped reading");
        }
        std::string line;
        for (int c; (c = std::fgetc(from_node_)) != EOF && c != '\n';)
            line.push_back(static_cast<char>(c));
        if (line.empty())
            fail(doing, "the session ended");
        nlohmann::json answer;
        try {
            answer = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception&) {
            fail(doing, "the session answered '" + line + "'");
        }
        if (answer.contains("error"))
            throw InputError(model_file_, "",
                             "ONNX Runtime cannot " + doing + ": " +
                                 answer["error"].get<std::string>());
        return answer;
    }

    void finish() {
        close(to_node_);
        to_node_ = -1;
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }

private:
    [[noreturn]] void fail(const std::string& doing, const std::string& what) {
        std::ifstream in(log_);
        std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (log.size() > 2000)
            log = "..." + log.substr(log.size() - 2000);
        throw std::runtime_error("onnxruntime-node could not " + doing + ": " + what +
                                 (log.empty() ? "" : "; it wrote: " + log));
    }

    std::string model_file_;
    fs::path log_;
    pid_t pid_ = -1;
    int to_node_ = -1;
    FILE* from_node_ = nullptr;
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
