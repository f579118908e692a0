// What the MPI partition runner's ranks share: tensors as MPI messages, the watchdog that ends a
// job waiting too long, sends kept in flight, and each rank's plan (its sub-model's inputs and
// outputs, where they come from and where they go). Internal to the mpi runner plugin.
#pragma once

#include "core/autodice/package_reader.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/graph/input_feeds.hpp"
#include "core/graph/model.hpp"
#include "rank_engine.hpp"

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mpi.h>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cleave::autodice {

constexpr int kFinalTag = 30000; // + whole-model output index: final outputs sent to rank 0
constexpr int kTokenTag = 29999; // a decode step's next token, to the ranks reading input_ids
constexpr int kTimesTag = 29998; // a decode run's token times and tokens, to rank 0

// A tensor's name as the sub-models call it (AutoDiCE's: '/' -> '_').
std::string autodice_tensor(std::string name);

double now_ms();

// A tensor as one MPI message: element type, rank and dims as 64-bit words, then its bytes.
std::vector<std::byte> pack(const HostTensor& t);
// Receives the message `tag` from `from` (blocking) into `t`.
void receive(HostTensor& t, int from, int tag);

// The largest difference between two tensors' elements: infinity when their types or sizes
// differ, or one has NaN where the other has none (a NaN in both places agrees).
double max_abs_diff(const HostTensor& a, const HostTensor& b);

// Ends the job when a blocking wait lasts past the timeout: a watcher thread, so the waits
// themselves block in MPI instead of polling. Exiting without MPI_Finalize makes mpirun stop
// every rank.
class Watchdog {
public:
    Watchdog(double timeout_s, int rank);
    ~Watchdog();
    // A wait for `what` begins; end() ends it.
    void begin(std::string what);
    void end();

private:
    void watch();

    double timeout_ms_;
    int rank_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::string what_;
    double since_ = 0;
    bool done_ = false;
    std::thread thread_;
};

// Sends in flight and their buffers, kept until delivered.
class Sends {
public:
    void send(const HostTensor& out, int peer, int tag);
    // Moves them along without waiting (MPI progresses a large message only while its sender is
    // inside an MPI call); once all are delivered their buffers go.
    void progress();
    void wait();

private:
    void clear() {
        requests_.clear();
        buffers_.clear();
    }
    std::vector<MPI_Request> requests_;
    std::vector<std::vector<std::byte>> buffers_;
};

struct RankStats {
    double compute_ms = 0, engine_ms = 0, receive_ms = 0, send_ms = 0, wall_ms = 0, rss_kib = 0;
    double threads = 0;
    double step_engine_ms = 0; // a decode run's: the engine's own time over the decode steps
};
constexpr int kStatCount = 8;

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
    int tag_of(const std::string& tensor) const;
};

RankPlan plan_rank(const PartitionRunOptions& options, int rank);

// The values of graph input `g` for input number `i`: the same on every rank and in the
// reference.
void fill_graph_input(const RankPlan& plan, std::size_t g, int i, HostTensor& t,
                      const std::string& file);

// Which rank makes each output of the whole model.
std::vector<int> final_producers(const PartitionRunOptions& options, const RankPlan& plan);

// Receives the buffer `in` from its rank (blocking, under `watchdog`); `of` says which input or
// step it belongs to, for the watchdog's message.
void receive_input(Input& in, const RankPlan& plan, Watchdog& watchdog, const std::string& of);

// Runs the engine on `feeds`, moving `sends` and `finals` along while its process computes.
std::vector<HostTensor> run_engine(RankEngine& engine, const std::vector<NamedTensor>& feeds,
                                   const std::vector<std::string>& outputs, const KeptState* state,
                                   Sends& sends, Sends& finals);

// This rank's resident set at its peak, in KiB.
double peak_rss_kib();

// The rank's folder of engine logs (engine.log, reference.log): removed by remove_log_folder,
// which the ways a rank ends without its destructors call (an abort, the watchdog, and mpirun's
// SIGTERM once another rank has aborted the job, for which this installs a handler).
void remove_on_stop(const std::filesystem::path& folder);
void remove_log_folder();

} // namespace cleave::autodice
