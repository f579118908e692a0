// The "mpi" partition runner: Open MPI between ranks, a rank engine inside each (rank_engine.hpp:
// ONNX Runtime by default, or OpenCV's DNN module), docs/autodice.md. Each tensor travels as one
// MPI message: a header of its element type and dims, then its bytes, so dims that change from
// input to input travel with it; a receiver probes for the message, sizes its buffer, receives.
// Waits block in MPI; a rank that dies ends the job through mpirun, and a rank whose engine
// fails aborts it, naming itself and the reason.
#include "core/atomic_file.hpp"
#include "core/autodice/package_reader.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/temporary_folder.hpp"
#include "decode_loop.hpp"
#include "rank_plan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <limits>
#include <map>
#include <mpi.h>
#include <nlohmann/json.hpp>
#include <optional>

namespace cleave::autodice {

namespace {

// This process's rank as the launcher announced it before MPI_Init (Open MPI, or a PMI
// launcher); 0 when run alone.
int launched_rank() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
        if (const char* value = std::getenv(name); value && *value)
            return std::atoi(value);
    return 0;
}

// Rank 0's check: the final outputs it makes itself, kept per input until the pipeline has run
// ([input][whole-model output]); the others stay with MPI until then.
struct Reference {
    std::vector<std::vector<HostTensor>> received;
};

// The whole model's outputs for input `i`, from an engine of its own (so that the stage rank 0
// runs is not the reference).
std::vector<HostTensor> reference_outputs(const PartitionRunOptions& options, const RankPlan& plan,
                                          RankEngine& engine, int i) {
    const auto& whole = plan.whole;
    std::vector<std::string> out_names;
    for (const int t : whole.outputs)
        out_names.push_back(whole.tensors[static_cast<std::size_t>(t)].name);
    std::vector<HostTensor> inputs(whole.inputs.size());
    std::vector<NamedTensor> feeds;
    for (std::size_t g = 0; g < whole.inputs.size(); ++g) {
        fill_graph_input(plan, g, i, inputs[g], options.model.string());
        feeds.push_back(
            {whole.tensors[static_cast<std::size_t>(whole.inputs[g])].name, &inputs[g]});
    }
    return engine.run(feeds, out_names);
}

// The pipeline: per input, receive, run the sub-model, send; the sends' receipts waited for at
// the end. Rank 0 keeps the final outputs it makes; the others' go out in `finals`, which rank 0
// receives only as it checks them, after its own pipeline (so they are waited for untimed).
RankStats run_pipeline(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine,
                       int rank, Reference& reference, Sends& finals, Watchdog& watchdog) {
    RankStats stats;
    Sends stage;
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = now_ms();
    for (int i = 0; i < options.inputs; ++i) {
        const double waited = now_ms();
        std::vector<NamedTensor> feeds;
        for (auto& in : plan.inputs) {
            if (in.from < 0) {
                fill_graph_input(plan, in.graph, i, in.tensor, options.model.string());
            } else {
                receive_input(in, plan, watchdog, "input " + std::to_string(i));
            }
            feeds.push_back({in.name, &in.tensor});
        }
        const double computed = now_ms();
        stats.receive_ms += computed - waited;
        auto results = run_engine(engine, feeds, plan.outputs, nullptr, stage, finals);
        stats.compute_ms += now_ms() - computed;
        stats.engine_ms += engine.last_run_ms();
        for (std::size_t o = 0; o < plan.outputs.size(); ++o) {
            const auto& name = plan.outputs[o];
            if (const auto s = plan.sends.find(name); s != plan.sends.end())
                for (const int peer : s->second)
                    stage.send(results[o], peer, plan.tag_of(name));
            // Final outputs go to rank 0 only for its check: without one, nothing waits for them.
            if (const auto f = plan.finals.find(name);
                f != plan.finals.end() && options.reference) {
                if (rank == 0)
                    reference.received[static_cast<std::size_t>(i)]
                                      [static_cast<std::size_t>(f->second)] = results[o];
                else
                    finals.send(results[o], 0, kFinalTag + f->second);
            }
        }
    }
    const double sending = now_ms();
    stage.wait();
    stats.send_ms = now_ms() - sending;
    stats.wall_ms = now_ms() - start;
    stats.rss_kib = peak_rss_kib();
    return stats;
}

// Rank 0: the final outputs, its own and those other ranks made, against the reference.
double check_outputs(const PartitionRunOptions& options, const RankPlan& plan, Reference& reference,
                     RankEngine& whole, Watchdog& watchdog) {
    const auto producer = final_producers(options, plan);
    double most = 0;
    HostTensor got;
    for (int i = 0; i < options.inputs; ++i) {
        const auto expected = reference_outputs(options, plan, whole, i);
        for (std::size_t o = 0; o < producer.size(); ++o) {
            if (producer[o] != 0) {
                watchdog.begin("a final output from rank " + std::to_string(producer[o]));
                receive(got, producer[o], kFinalTag + static_cast<int>(o));
                watchdog.end();
            } else {
                got = std::move(reference.received[static_cast<std::size_t>(i)][o]);
            }
            most = std::max(most, max_abs_diff(got, expected[o]));
        }
    }
    return most;
}

class MpiRunner final : public PartitionRunner {
public:
    // Open MPI and the default engine (the OpenCV one where this build has no other).
    std::string runtime() const override {
        try {
            return mpi_version() + ", " + rank_engine_runtime("ort");
        } catch (const std::exception&) {
            return mpi_version() + ", " + rank_engine_runtime("opencv");
        }
    }

    std::string run(const PartitionRunOptions& options) override {
        // The engines start before MPI_Init: a process Open MPI has started should not fork.
        const int launched = launched_rank();
        std::optional<TemporaryFolder> logs;
        std::optional<RankPlan> plan;
        std::unique_ptr<RankEngine> engine, whole;
        std::string failure;
        int failure_code = 1;
        try {
            if (options.inputs < 1)
                throw InputError("", "--inputs", "expected at least 1 input");
            if (options.generate > 0 && options.engine != "ort")
                throw InputError("", "--runner",
                                 "a decode run (--generate) keeps its caches in ONNX Runtime; "
                                 "use --runner ort");
            plan = plan_rank(options, launched);
            logs.emplace("cleave-rank");
            remove_on_stop(logs->path());
            if (launched < static_cast<int>(plan->layout.ranks.size()))
                engine = make_rank_engine(
                    options.engine,
                    plan->layout.ranks[static_cast<std::size_t>(launched)].sub_model,
                    rank_threads(options,
                                 plan->layout.ranks[static_cast<std::size_t>(launched)].key),
                    logs->path() / "engine.log");
            if (launched == 0 && options.reference) {
                const graph::UnpackedModelFile unpacked(
                    plan->whole); // ONNX Runtime reads plain ONNX
                whole = make_rank_engine(options.engine, unpacked.path(),
                                         rank_threads(options, plan->layout.ranks.front().key),
                                         logs->path() / "reference.log");
            }
        } catch (const InputError& e) {
            failure = e.what();
            failure_code = 2;
        } catch (const std::exception& e) {
            failure = e.what();
        }
        // Open MPI's components resolve libmpi's symbols globally; this plugin was opened with
        // RTLD_LOCAL, so make libmpi global before starting it.
        ::dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        int rank = 0, size = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        std::string summary;
        try {
            if (!failure.empty())
                throw std::runtime_error(failure);
            if (static_cast<int>(plan->layout.ranks.size()) != size) {
                failure_code = 2;
                throw InputError((options.package / "mapping.json").string(), "",
                                 "the package has " + std::to_string(plan->layout.ranks.size()) +
                                     " ranks but mpirun started " + std::to_string(size) +
                                     "; start it with -np " +
                                     std::to_string(plan->layout.ranks.size()) +
                                     " (or -rf rankfile)");
            }
            if (rank != launched)
                throw std::runtime_error("the launcher announced rank " + std::to_string(launched) +
                                         ", MPI says " + std::to_string(rank));
            summary = run_rank(options, *plan, *engine, whole.get(), rank, size);
        } catch (const InputError& e) {
            abort_job(rank, e.what(), 2);
        } catch (const std::exception& e) {
            abort_job(rank, e.what(), failure_code);
        }
        MPI_Finalize();
        return summary;
    }

private:
    static std::string mpi_version() {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int length = 0;
        MPI_Get_library_version(version, &length);
        std::string mpi(version, static_cast<std::size_t>(length));
        return mpi.substr(0, mpi.find(','));
    }

    [[noreturn]] static void abort_job(int rank, const std::string& what, int code) {
        std::fprintf(stderr, "cleave: rank %d: %s\n", rank, what.c_str());
        std::fflush(stderr);
        remove_log_folder();
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);
    }

    std::string run_rank(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine,
                         RankEngine* whole, int rank, int size) const {
        if (options.generate > 0) {
            Watchdog watchdog(options.timeout_s, rank);
            auto decoded = run_decode(options, plan, engine, whole, rank, watchdog);
            decoded.stats.threads =
                rank_threads(options, plan.layout.ranks[static_cast<std::size_t>(rank)].key);
            std::vector<RankStats> all(static_cast<std::size_t>(size));
            MPI_Gather(&decoded.stats, kStatCount, MPI_DOUBLE, all.data(), kStatCount, MPI_DOUBLE,
                       0, MPI_COMM_WORLD);
            return rank == 0
                       ? write_summary(options, plan, all, decoded.max_abs_diff, decoded.summary)
                       : "";
        }
        Reference reference;
        if (rank == 0)
            reference.received.assign(static_cast<std::size_t>(options.inputs),
                                      std::vector<HostTensor>(plan.whole.outputs.size()));
        Watchdog watchdog(options.timeout_s, rank);
        Sends finals;
        RankStats stats = run_pipeline(options, plan, engine, rank, reference, finals, watchdog);
        stats.threads =
            rank_threads(options, plan.layout.ranks[static_cast<std::size_t>(rank)].key);
        finals.wait(); // as rank 0 checks them
        // After the timed pipeline: the whole model on each input, against what it gave.
        const double diff =
            rank == 0 && whole ? check_outputs(options, plan, reference, *whole, watchdog) : 0.0;
        std::vector<RankStats> all(static_cast<std::size_t>(size));
        MPI_Gather(&stats, kStatCount, MPI_DOUBLE, all.data(), kStatCount, MPI_DOUBLE, 0,
                   MPI_COMM_WORLD);
        return rank == 0 ? write_summary(options, plan, all,
                                         options.reference ? std::optional(diff) : std::nullopt, {})
                         : "";
    }

    // Rank 0: the run's summary from every rank's figures, written into the package.
    // A decode run's figures and, for one sequence, what a hop costs: the time per output token
    // less the engines' own times per token, over the hops of a step (every rank's output to the
    // next, and the token back to the first), each worker to rank, across MPI, rank to worker.
    static nlohmann::ordered_json with_hop(const PartitionRunOptions& options,
                                           const std::vector<RankStats>& all,
                                           nlohmann::ordered_json decode) {
        if (options.sequences != 1 || options.generate < 2)
            return decode;
        double engines = 0;
        for (const auto& s : all)
            engines += s.step_engine_ms / (options.generate - 1);
        decode["engines_ms_per_token"] = engines;
        decode["hop_ms"] =
            (decode["tpot_ms"].get<double>() - engines) / static_cast<double>(all.size());
        return decode;
    }

    // `decode`: a decode run's figures, else null.
    std::string write_summary(const PartitionRunOptions& options, const RankPlan& plan,
                              const std::vector<RankStats>& all, std::optional<double> max_abs_diff,
                              const nlohmann::ordered_json& decode) const {
        const int n = decode.is_null() ? options.inputs : options.generate * options.sequences;
        double slowest = 0;
        auto per_rank = nlohmann::ordered_json::array();
        for (std::size_t r = 0; r < all.size(); ++r) {
            const auto& s = all[r];
            slowest = std::max(slowest, s.wall_ms);
            per_rank.push_back({{"rank", r},
                                {"key", plan.layout.ranks[r].key},
                                {"host", plan.layout.ranks[r].host},
                                {"compute_ms", s.compute_ms},
                                {"compute_ms_per_input", s.compute_ms / n},
                                {"engine_ms", s.engine_ms},
                                {"receive_wait_ms", s.receive_ms},
                                {"send_wait_ms", s.send_ms},
                                {"wall_ms", s.wall_ms},
                                {"peak_rss_kib", static_cast<std::int64_t>(s.rss_kib)},
                                {"threads", static_cast<int>(s.threads)}});
        }
        nlohmann::ordered_json document{
            {"format", "cleave-run-summary"},
            {"version", 1},
            {"package", options.package.string()},
            {"model", options.model.string()},
            {"runtime", mpi_version() + ", " + rank_engine_runtime(options.engine)},
            {"ranks", all.size()},
            {"inputs", n},
            {"threads", options.threads},
            {"wall_ms", slowest},
            {"throughput_ips", 1000.0 * n / slowest},
            // JSON has no infinity (outputs of another type or size): the largest double.
            {"max_abs_diff", max_abs_diff ? nlohmann::ordered_json(std::min(
                                                *max_abs_diff, std::numeric_limits<double>::max()))
                                          : nlohmann::ordered_json()},
            {"per_rank", per_rank}};
        if (!decode.is_null())
            document["decode"] = with_hop(options, all, decode);
        const auto text = document.dump(2) + "\n";
        write_file_atomically(options.package / "run-summary.json", text);
        return text;
    }
};

const plugin::PluginDescriptor kDescriptor{
    plugin::kPluginAbiVersion, PartitionRunner::kPluginKind, "mpi",
    "Runs an exported package across MPI ranks: Open MPI between ranks, ONNX Runtime (or "
    "OpenCV DNN) in each",
    [] { return static_cast<void*>(static_cast<PartitionRunner*>(new MpiRunner())); }};

} // namespace

} // namespace cleave::autodice

extern "C" __attribute__((visibility("default"))) const cleave::plugin::PluginDescriptor*
cleave_plugin() {
    return &cleave::autodice::kDescriptor;
}
