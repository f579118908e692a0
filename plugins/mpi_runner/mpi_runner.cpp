// The "mpi" partition runner: Open MPI between ranks, OpenCV DNN inside each (docs/autodice.md).
#include "core/atomic_file.hpp"
#include "core/autodice/package_reader.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/graph/clip_bounds_to_attributes.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <map>
#include <mpi.h>
#include <nlohmann/json.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <set>
#include <sys/resource.h>
#include <thread>

namespace cleave::autodice {

namespace {

constexpr int kFinalTag = 30000; // + whole-model output index: final outputs sent to rank 0

cv::dnn::Net read_net(const std::filesystem::path& file, int threads) {
    // OpenCV 4.6 reads Clip's bounds only as attributes.
    const auto rewrite = graph::clip_bounds_to_attributes(file);
    cv::dnn::Net net = rewrite
                           ? cv::dnn::readNetFromONNX(rewrite->model.data(), rewrite->model.size())
                           : cv::dnn::readNetFromONNX(file.string());
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    cv::setNumThreads(threads);
    return net;
}

cv::Mat blob_of(const graph::Tensor& t, const std::string& file) {
    if (!t.shape || graph::element_count(t.shape) <= 0)
        throw InputError(file, t.name, "the tensor's shape is not known; expected fixed dims");
    if (t.dtype != graph::DataType::Float32)
        throw InputError(file, t.name,
                         "a " + std::string(graph::to_string(t.dtype)) +
                             " tensor; the runner carries float tensors");
    std::vector<int> dims(t.shape->begin(), t.shape->end());
    return cv::Mat(static_cast<int>(dims.size()), dims.data(), CV_32F);
}

// The same values on every rank that reads graph input `index` for input number `i`.
void fill_input(cv::Mat& blob, int i, std::size_t index) {
    cv::RNG random(static_cast<std::uint64_t>(1000 + 97 * i + static_cast<int>(index)));
    random.fill(blob, cv::RNG::UNIFORM, 0.0, 1.0);
}

std::string autodice_tensor(std::string name) {
    std::replace(name.begin(), name.end(), '/', '_');
    return name;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct RankStats {
    double compute_ms = 0, receive_ms = 0, send_ms = 0, wall_ms = 0, rss_kib = 0;
};

class MpiRunner final : public PartitionRunner {
public:
    std::string runtime() const override {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int length = 0;
        MPI_Get_library_version(version, &length);
        std::string mpi(version, static_cast<std::size_t>(length));
        mpi = mpi.substr(0, mpi.find(','));
        return mpi + ", OpenCV " + CV_VERSION + " DNN";
    }

    std::string run(const PartitionRunOptions& options) override {
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
            summary = run_rank(options, rank, size);
        } catch (const InputError& e) {
            std::fprintf(stderr, "cleave: rank %d: %s\n", rank, e.what());
            std::fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 2);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cleave: rank %d: %s\n", rank, e.what());
            std::fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Finalize();
        return summary;
    }

private:
    // Waits for `requests`, aborting the job past the deadline with `what` named.
    static void wait_all(std::vector<MPI_Request>& requests, double timeout_s, int rank,
                         const std::function<std::string(std::size_t)>& what) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
        for (std::size_t k = 0; k < requests.size(); ++k) {
            int done = 0;
            while (true) {
                MPI_Test(&requests[k], &done, MPI_STATUS_IGNORE);
                if (done)
                    break;
                if (std::chrono::steady_clock::now() > deadline) {
                    std::fprintf(stderr,
                                 "cleave: rank %d waited more than %g s for %s; stopping the run\n",
                                 rank, timeout_s, what(k).c_str());
                    std::fflush(stderr);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        }
        requests.clear();
    }

    // What one rank runs: its sub-model, where each input comes from, where each output goes.
    struct Input {
        std::string name;
        cv::Mat blob;
        int from = -1;         // producing rank; -1 for a graph input
        std::size_t graph = 0; // the whole model's input index
    };
    struct RankPlan {
        PackageLayout layout;
        graph::Model whole;
        std::vector<std::string> tags; // every sent buffer's name; its index is its MPI tag
        std::vector<Input> inputs;     // graph inputs (generated here) and received buffers
        std::vector<std::string> outputs;
        std::map<std::string, std::vector<int>> sends; // tensor -> peer ranks
        std::map<std::string, int> finals;             // tensor -> whole-model output index
        int tag_of(const std::string& tensor) const {
            return static_cast<int>(std::lower_bound(tags.begin(), tags.end(), tensor) -
                                    tags.begin());
        }
    };
    // Rank 0's check: the whole model's outputs for every input, and those the pipeline makes.
    struct Reference {
        std::vector<std::vector<cv::Mat>> expected;
        std::vector<std::vector<cv::Mat>> received; // [input][whole-model output]
        std::vector<MPI_Request> requests;
    };

    static RankPlan plan_rank(const PartitionRunOptions& options, int rank, int size) {
        RankPlan plan{read_package(options.package), graph::load_model(options.model), {}, {}, {},
                      {}, {}};
        const auto& layout = plan.layout;
        if (static_cast<int>(layout.ranks.size()) != size)
            throw InputError((options.package / "mapping.json").string(), "",
                             "the package has " + std::to_string(layout.ranks.size()) +
                                 " ranks but mpirun started " + std::to_string(size) +
                                 "; start it with -np " + std::to_string(layout.ranks.size()) +
                                 " (or -rf rankfile)");
        const auto& me = layout.ranks[static_cast<std::size_t>(rank)];
        const auto& whole = plan.whole;
        const auto part = graph::load_model(me.sub_model);
        const std::string part_file = me.sub_model.string();
        std::set<std::string> names;
        for (const auto& r : layout.ranks)
            for (const auto& b : r.sends)
                names.insert(b.tensor);
        plan.tags.assign(names.begin(), names.end());
        for (const int t : part.inputs) {
            const auto& tensor = part.tensors[static_cast<std::size_t>(t)];
            Input in{tensor.name, blob_of(tensor, part_file), -1, 0};
            const auto received =
                std::find_if(me.receives.begin(), me.receives.end(),
                             [&](const RankBuffer& b) { return b.tensor == tensor.name; });
            if (received != me.receives.end()) {
                in.from = received->ranks.front();
            } else {
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
                                     "an input neither received (receiver.json) nor a graph input "
                                     "of " +
                                         options.model.string());
            }
            plan.inputs.push_back(std::move(in));
        }
        // Outputs: what it sends, and the whole model's outputs it produces (sent to rank 0).
        for (const int t : part.outputs)
            plan.outputs.push_back(part.tensors[static_cast<std::size_t>(t)].name);
        for (const auto& b : me.sends)
            plan.sends[b.tensor] = b.ranks;
        for (std::size_t o = 0; o < whole.outputs.size(); ++o) {
            const auto name =
                autodice_tensor(whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name);
            if (std::find(plan.outputs.begin(), plan.outputs.end(), name) != plan.outputs.end())
                plan.finals[name] = static_cast<int>(o);
        }
        return plan;
    }

    // Rank 0 runs the whole model on every input and posts the receives of the final outputs
    // the other ranks make.
    static Reference prepare_reference(const PartitionRunOptions& options, const RankPlan& plan) {
        const auto& whole = plan.whole;
        const int n = options.inputs;
        Reference reference;
        reference.received.resize(static_cast<std::size_t>(n));
        auto full = read_net(graph::UnpackedModelFile(whole).path(), options.threads);
        std::vector<cv::Mat> graph_inputs;
        for (const int t : whole.inputs)
            graph_inputs.push_back(
                blob_of(whole.tensors[static_cast<std::size_t>(t)], options.model.string()));
        std::vector<std::string> out_names;
        for (const int t : whole.outputs)
            out_names.push_back(whole.tensors[static_cast<std::size_t>(t)].name);
        for (int i = 0; i < n; ++i) {
            for (std::size_t g = 0; g < graph_inputs.size(); ++g) {
                fill_input(graph_inputs[g], i, g);
                full.setInput(graph_inputs[g],
                              whole.tensors[static_cast<std::size_t>(whole.inputs[g])].name);
            }
            std::vector<cv::Mat> outs;
            full.forward(outs, out_names);
            for (auto& o : outs)
                o = o.clone();
            reference.expected.push_back(std::move(outs));
        }
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
        for (int i = 0; i < n; ++i)
            for (std::size_t o = 0; o < whole.outputs.size(); ++o) {
                auto& received = reference.received[static_cast<std::size_t>(i)];
                received.push_back(reference.expected[static_cast<std::size_t>(i)][o].clone());
                if (producer[o] == 0)
                    continue; // produced here
                auto& m = received.back();
                reference.requests.emplace_back();
                MPI_Irecv(m.ptr<float>(), static_cast<int>(m.total()), MPI_FLOAT, producer[o],
                          kFinalTag + static_cast<int>(o), MPI_COMM_WORLD,
                          &reference.requests.back());
            }
        return reference;
    }

    // The pipeline: per input, receive, run the sub-model, send; the sends' receipts waited for
    // at the end.
    static RankStats run_pipeline(const PartitionRunOptions& options, RankPlan& plan,
                                  cv::dnn::Net& net, int rank, Reference& reference) {
        RankStats stats;
        std::vector<MPI_Request> pending_sends;
        std::vector<cv::Mat> keep_alive; // send buffers, until their sends complete
        std::vector<std::string> pending_what;
        const auto send = [&](const cv::Mat& out, int peer, int tag, std::string what) {
            pending_sends.emplace_back();
            MPI_Isend(out.ptr<float>(), static_cast<int>(out.total()), MPI_FLOAT, peer, tag,
                      MPI_COMM_WORLD, &pending_sends.back());
            pending_what.push_back(std::move(what));
        };
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = now_ms();
        for (int i = 0; i < options.inputs; ++i) {
            std::vector<MPI_Request> receives;
            std::vector<std::string> receive_what;
            for (auto& in : plan.inputs) {
                if (in.from < 0) {
                    fill_input(in.blob, i, in.graph);
                    continue;
                }
                receives.emplace_back();
                MPI_Irecv(in.blob.ptr<float>(), static_cast<int>(in.blob.total()), MPI_FLOAT,
                          in.from, plan.tag_of(in.name), MPI_COMM_WORLD, &receives.back());
                receive_what.push_back(in.name + " of input " + std::to_string(i) + " from rank " +
                                       std::to_string(in.from));
            }
            const double waited = now_ms();
            wait_all(receives, options.timeout_s, rank,
                     [&](std::size_t k) { return receive_what[k]; });
            const double computed = now_ms();
            stats.receive_ms += computed - waited;
            for (auto& in : plan.inputs)
                net.setInput(in.blob, in.name);
            std::vector<cv::Mat> results;
            net.forward(results, plan.outputs);
            stats.compute_ms += now_ms() - computed;
            for (std::size_t o = 0; o < plan.outputs.size(); ++o) {
                const auto& name = plan.outputs[o];
                cv::Mat out = results[o].isContinuous() ? results[o] : results[o].clone();
                keep_alive.push_back(out);
                if (const auto s = plan.sends.find(name); s != plan.sends.end())
                    for (const int peer : s->second)
                        send(out, peer, plan.tag_of(name),
                             name + " of input " + std::to_string(i) + " to rank " +
                                 std::to_string(peer));
                if (const auto f = plan.finals.find(name); f != plan.finals.end()) {
                    if (rank == 0)
                        out.copyTo(reference.received[static_cast<std::size_t>(i)]
                                                     [static_cast<std::size_t>(f->second)]);
                    else
                        send(out, 0, kFinalTag + f->second,
                             "the final output of input " + std::to_string(i) + " to rank 0");
                }
            }
        }
        const double sending = now_ms();
        wait_all(pending_sends, options.timeout_s, rank,
                 [&](std::size_t k) { return "the receipt of " + pending_what[k]; });
        stats.send_ms = now_ms() - sending;
        stats.wall_ms = now_ms() - start;
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        stats.rss_kib = static_cast<double>(usage.ru_maxrss);
        return stats;
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
                                {"receive_wait_ms", s.receive_ms},
                                {"send_wait_ms", s.send_ms},
                                {"wall_ms", s.wall_ms},
                                {"peak_rss_kib", static_cast<std::int64_t>(s.rss_kib)}});
        }
        const nlohmann::ordered_json document{{"format", "cleave-run-summary"},
                                              {"version", 1},
                                              {"package", options.package.string()},
                                              {"model", options.model.string()},
                                              {"runtime", runtime()},
                                              {"ranks", all.size()},
                                              {"inputs", n},
                                              {"threads", options.threads},
                                              {"wall_ms", slowest},
                                              {"throughput_ips", 1000.0 * n / slowest},
                                              {"max_abs_diff", max_abs_diff},
                                              {"per_rank", per_rank}};
        const auto text = document.dump(2) + "\n";
        write_file_atomically(options.package / "run-summary.json", text);
        return text;
    }

    std::string run_rank(const PartitionRunOptions& options, int rank, int size) {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_ERROR);
        if (options.inputs < 1)
            throw InputError("", "--inputs", "expected at least 1 input");
        auto plan = plan_rank(options, rank, size);
        auto net =
            read_net(plan.layout.ranks[static_cast<std::size_t>(rank)].sub_model, options.threads);
        Reference reference;
        if (rank == 0)
            reference = prepare_reference(options, plan);
        const RankStats stats = run_pipeline(options, plan, net, rank, reference);
        double max_abs_diff = 0;
        if (rank == 0) {
            wait_all(reference.requests, options.timeout_s, rank,
                     [](std::size_t) { return std::string("a final output"); });
            for (std::size_t i = 0; i < reference.expected.size(); ++i)
                for (std::size_t o = 0; o < reference.expected[i].size(); ++o)
                    max_abs_diff = std::max(max_abs_diff, cv::norm(reference.received[i][o],
                                                                   reference.expected[i][o],
                                                                   cv::NORM_INF));
        }
        std::vector<RankStats> all(static_cast<std::size_t>(size));
        MPI_Gather(&stats, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        return rank == 0 ? write_summary(options, plan, all, max_abs_diff) : "";
    }
};

const plugin::PluginDescriptor kDescriptor{
    plugin::kPluginAbiVersion, PartitionRunner::kPluginKind, "mpi",
    "Runs an exported package across MPI ranks: Open MPI between ranks, OpenCV DNN in each",
    [] { return static_cast<void*>(static_cast<PartitionRunner*>(new MpiRunner())); }};

} // namespace

} // namespace cleave::autodice

extern "C" __attribute__((visibility("default"))) const cleave::plugin::PluginDescriptor*
cleave_plugin() {
    return &cleave::autodice::kDescriptor;
}
