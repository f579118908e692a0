// The "mpi" partition runner: Open MPI between ranks, a rank engine inside each (rank_engine.hpp:
// ONNX Runtime by default, or OpenCV's DNN module), docs/autodice.md. Each tensor travels as one
// MPI message: a header of its element type and dims, then its bytes, so dims that change from
// input to input travel with it; a receiver probes for the message, sizes its buffer, receives.
// Waits block in MPI; a rank that dies ends the job through mpirun, and a rank whose engine
// fails aborts it, naming itself and the reason.
#include "core/atomic_file.hpp"
#include "core/autodice/package_reader.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/graph/feed_values.hpp"
#include "core/graph/input_feeds.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/temporary_folder.hpp"
#include "rank_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mpi.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sys/resource.h>
#include <thread>

namespace cleave::autodice {

namespace {

constexpr int kFinalTag = 30000; // + whole-model output index: final outputs sent to rank 0

std::string autodice_tensor(std::string name) {
    std::replace(name.begin(), name.end(), '/', '_');
    return name;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// This process's rank as the launcher announced it before MPI_Init (Open MPI, or a PMI
// launcher); 0 when run alone.
int launched_rank() {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
        if (const char* value = std::getenv(name); value && *value)
            return std::atoi(value);
    return 0;
}

// A tensor as one MPI message: element type, rank and dims as 64-bit words, then its bytes.
std::vector<std::byte> pack(const HostTensor& t) {
    std::vector<std::int64_t> header{static_cast<std::int64_t>(t.dtype),
                                     static_cast<std::int64_t>(t.dims.size())};
    header.insert(header.end(), t.dims.begin(), t.dims.end());
    std::vector<std::byte> message(header.size() * sizeof(std::int64_t) + t.bytes.size());
    std::memcpy(message.data(), header.data(), header.size() * sizeof(std::int64_t));
    std::memcpy(message.data() + header.size() * sizeof(std::int64_t), t.bytes.data(),
                t.bytes.size());
    return message;
}

// Receives the message `tag` from `from` (blocking) into `t`.
void receive(HostTensor& t, int from, int tag) {
    MPI_Message message;
    MPI_Status status;
    MPI_Mprobe(from, tag, MPI_COMM_WORLD, &message, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<std::byte> buffer(static_cast<std::size_t>(count));
    MPI_Mrecv(buffer.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    std::int64_t head[2];
    std::memcpy(head, buffer.data(), sizeof head);
    t.dtype = static_cast<graph::DataType>(head[0]);
    t.dims.resize(static_cast<std::size_t>(head[1]));
    const std::size_t header = (2 + t.dims.size()) * sizeof(std::int64_t);
    std::memcpy(t.dims.data(), buffer.data() + 2 * sizeof(std::int64_t),
                t.dims.size() * sizeof(std::int64_t));
    t.bytes.assign(buffer.begin() + static_cast<std::ptrdiff_t>(header), buffer.end());
}

// The largest difference between two tensors' elements: infinity when their types or sizes
// differ, or one has NaN where the other has none (a NaN in both places agrees).
double max_abs_diff(const HostTensor& a, const HostTensor& b) {
    if (a.dtype != b.dtype || a.bytes.size() != b.bytes.size())
        return INFINITY;
    const auto each = [&](auto zero) {
        using T = decltype(zero);
        double most = 0;
        const std::size_t n = a.bytes.size() / sizeof(T);
        for (std::size_t i = 0; i < n; ++i) {
            T x, y;
            std::memcpy(&x, a.bytes.data() + i * sizeof(T), sizeof(T));
            std::memcpy(&y, b.bytes.data() + i * sizeof(T), sizeof(T));
            const double u = static_cast<double>(x), v = static_cast<double>(y);
            if (std::isnan(u) || std::isnan(v)) { // NaN only where the whole model has NaN
                if (std::isnan(u) != std::isnan(v))
                    return static_cast<double>(INFINITY);
                continue;
            }
            most = std::max(most, std::abs(u - v));
        }
        return most;
    };
    switch (a.dtype) {
    case graph::DataType::Float32:
        return each(0.0f);
    case graph::DataType::Float64:
        return each(0.0);
    case graph::DataType::Int64:
        return each(std::int64_t{0});
    case graph::DataType::Int32:
        return each(std::int32_t{0});
    default:
        return a.bytes == b.bytes ? 0.0 : INFINITY;
    }
}

// Ends the job when a blocking wait lasts past the timeout: a watcher thread, so the waits
// themselves block in MPI instead of polling. Exiting without MPI_Finalize makes mpirun stop
// every rank.
class Watchdog {
public:
    Watchdog(double timeout_s, int rank)
        : timeout_ms_(timeout_s * 1000.0), rank_(rank), thread_([this] { watch(); }) {}
    ~Watchdog() {
        {
            const std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    // A wait for `what` begins; end() ends it.
    void begin(std::string what) {
        const std::lock_guard lock(mutex_);
        what_ = std::move(what);
        since_ = now_ms();
    }
    void end() {
        const std::lock_guard lock(mutex_);
        what_.clear();
    }

private:
    void watch() {
        std::unique_lock lock(mutex_);
        while (!done_) {
            wake_.wait_for(lock, std::chrono::milliseconds(100));
            if (!what_.empty() && now_ms() - since_ > timeout_ms_) {
                std::fprintf(stderr,
                             "cleave: rank %d waited more than %g s for %s; stopping the run\n",
                             rank_, timeout_ms_ / 1000.0, what_.c_str());
                std::fflush(stderr);
                std::_Exit(1);
            }
        }
    }

    double timeout_ms_;
    int rank_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::string what_;
    double since_ = 0;
    bool done_ = false;
    std::thread thread_;
};

struct RankStats {
    double compute_ms = 0, engine_ms = 0, receive_ms = 0, send_ms = 0, wall_ms = 0, rss_kib = 0;
    double threads = 0;
};
constexpr int kStatCount = 7;

// What one rank runs: its sub-model, where each input comes from, where each output goes.
struct Input {
    std::string name;
    HostTensor tensor;
    int from = -1;         // producing rank; -1 for a graph input
    std::size_t graph = 0; // the whole model's input index
};
struct RankPlan {
    PackageLayout layout;
    graph::Model whole;
    std::vector<graph::InputFeed> feeds; // the whole model's, per graph input
    std::vector<std::string> tags;       // every sent buffer's name; its index is its MPI tag
    std::vector<Input> inputs;           // graph inputs (made here) and received buffers
    std::vector<std::string> outputs;
    std::map<std::string, std::vector<int>> sends; // tensor -> peer ranks
    std::map<std::string, int> finals;             // tensor -> whole-model output index
    int tag_of(const std::string& tensor) const {
        return static_cast<int>(std::lower_bound(tags.begin(), tags.end(), tensor) - tags.begin());
    }
};

// The values of graph input `g` for input number `i`: the same on every rank and in the
// reference.
void fill_graph_input(const RankPlan& plan, std::size_t g, int i, HostTensor& t,
                      const std::string& file) {
    const auto& tensor = plan.whole.tensors[static_cast<std::size_t>(plan.whole.inputs[g])];
    t.dtype = tensor.dtype;
    t.dims = tensor.shape ? *tensor.shape : std::vector<std::int64_t>{};
    t.bytes =
        graph::feed_values(tensor, plan.feeds[g],
                           static_cast<std::uint64_t>(1000 + 97 * i + static_cast<int>(g)), file);
}

RankPlan plan_rank(const PartitionRunOptions& options, int rank) {
    RankPlan plan;
    plan.layout = read_package(options.package);
    plan.whole = graph::load_model(options.model, options.load);
    plan.feeds = graph::input_feeds(plan.whole);
    const auto& layout = plan.layout;
    if (rank >= static_cast<int>(layout.ranks.size()))
        return plan; // refused once MPI says how many ranks there are
    const auto& me = layout.ranks[static_cast<std::size_t>(rank)];
    const auto part = graph::load_model(me.sub_model);
    const std::string part_file = me.sub_model.string();
    std::set<std::string> names;
    for (const auto& r : layout.ranks)
        for (const auto& b : r.sends)
            names.insert(b.tensor);
    plan.tags.assign(names.begin(), names.end());
    for (const int t : part.inputs) {
        const auto& tensor = part.tensors[static_cast<std::size_t>(t)];
        Input in{tensor.name, {}, -1, 0};
        const auto received =
            std::find_if(me.receives.begin(), me.receives.end(),
                         [&](const RankBuffer& b) { return b.tensor == tensor.name; });
        if (received != me.receives.end()) {
            in.from = received->ranks.front();
        } else {
            const auto& whole = plan.whole;
            bool found = false;
            for (std::size_t g = 0; g < whole.inputs.size() && !found; ++g)
                if (autodice_tensor(
                        whole.tensors[static_cast<std::size_t>(whole.inputs[g])].name) ==
                    tensor.name) {
                    in.graph = g;
                    found = true;
                }
            if (!found)
                throw InputError(part_file, tensor.name,
                                 "an input neither received (receiver.json) nor a graph input of " +
                                     options.model.string());
        }
        plan.inputs.push_back(std::move(in));
    }
    // Outputs: what it sends, and the whole model's outputs it produces (sent to rank 0).
    for (const int t : part.outputs)
        plan.outputs.push_back(part.tensors[static_cast<std::size_t>(t)].name);
    for (const auto& b : me.sends)
        plan.sends[b.tensor] = b.ranks;
    const auto& whole = plan.whole;
    for (std::size_t o = 0; o < whole.outputs.size(); ++o) {
        const auto name =
            autodice_tensor(whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name);
        if (std::find(plan.outputs.begin(), plan.outputs.end(), name) != plan.outputs.end())
            plan.finals[name] = static_cast<int>(o);
    }
    return plan;
}

// Which rank makes each output of the whole model.
std::vector<int> final_producers(const PartitionRunOptions& options, const RankPlan& plan) {
    const auto& whole = plan.whole;
    std::vector<int> producer(whole.outputs.size(), -1);
    for (std::size_t r = 0; r < plan.layout.ranks.size(); ++r) {
        const auto other = graph::load_model(plan.layout.ranks[r].sub_model);
        for (const int t : other.outputs)
            for (std::size_t o = 0; o < whole.outputs.size(); ++o)
                if (autodice_tensor(
                        whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name) ==
                    other.tensors[static_cast<std::size_t>(t)].name)
                    producer[o] = static_cast<int>(r);
    }
    for (std::size_t o = 0; o < whole.outputs.size(); ++o)
        if (producer[o] < 0)
            throw InputError(options.package.string(),
                             whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name,
                             "no sub-model produces this output of the whole model");
    return producer;
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

// Sends in flight and their buffers, kept until delivered.
class Sends {
public:
    void send(const HostTensor& out, int peer, int tag) {
        buffers_.push_back(pack(out));
        requests_.emplace_back();
        MPI_Isend(buffers_.back().data(), static_cast<int>(buffers_.back().size()), MPI_BYTE, peer,
                  tag, MPI_COMM_WORLD, &requests_.back());
    }
    // Moves them along without waiting (MPI progresses a large message only while its sender is
    // inside an MPI call); once all are delivered their buffers go.
    void progress() {
        if (requests_.empty())
            return;
        int all = 0;
        MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &all,
                    MPI_STATUSES_IGNORE);
        if (all)
            clear();
    }
    void wait() {
        MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
        clear();
    }

private:
    void clear() {
        requests_.clear();
        buffers_.clear();
    }
    std::vector<MPI_Request> requests_;
    std::vector<std::vector<std::byte>> buffers_;
};

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
                watchdog.begin(in.name + " of input " + std::to_string(i) + " from rank " +
                               std::to_string(in.from));
                receive(in.tensor, in.from, plan.tag_of(in.name));
                watchdog.end();
            }
            feeds.push_back({in.name, &in.tensor});
        }
        const double computed = now_ms();
        stats.receive_ms += computed - waited;
        // While the engine's process computes, this rank moves its sends along.
        engine.start(feeds, plan.outputs);
        while (!engine.done(1)) {
            stage.progress();
            finals.progress();
        }
        auto results = engine.finish();
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
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    stats.rss_kib = static_cast<double>(usage.ru_maxrss);
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
            plan = plan_rank(options, launched);
            logs.emplace("cleave-rank");
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
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);
    }

    std::string run_rank(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine,
                         RankEngine* whole, int rank, int size) const {
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
        return rank == 0 ? write_summary(options, plan, all, diff) : "";
    }

    // Rank 0: the run's summary from every rank's figures, written into the package.
    std::string write_summary(const PartitionRunOptions& options, const RankPlan& plan,
                              const std::vector<RankStats>& all, double max_abs_diff) const {
        const int n = options.inputs;
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
        const nlohmann::ordered_json document{
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
            {"max_abs_diff",
             options.reference ? nlohmann::ordered_json(max_abs_diff) : nlohmann::ordered_json()},
            {"per_rank", per_rank}};
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
