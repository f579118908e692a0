#include "rank_plan.hpp"

#include "core/autodice/package_reader.hpp"
#include "core/graph/feed_values.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/graph/sub_model.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sys/resource.h>
#include <unistd.h>

namespace cleave::autodice {

namespace {

// The rank's folder of engine logs (remove_on_stop). Only calls safe in a signal handler touch it.
char g_log_folder[PATH_MAX] = "";
const char* const kLogFiles[] = {"engine.log", "reference.log"};

void remove_log_folder_and_stop(int signal) {
    remove_log_folder();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void remove_on_stop(const std::filesystem::path& folder) {
    const std::string text = folder.string();
    if (text.size() >= sizeof g_log_folder)
        return;
    std::copy(text.begin(), text.end(), g_log_folder);
    g_log_folder[text.size()] = '\0';
    std::signal(SIGTERM, remove_log_folder_and_stop);
}

void remove_log_folder() {
    if (!g_log_folder[0])
        return;
    char path[PATH_MAX + 32];
    for (const char* name : kLogFiles) {
        std::size_t n = 0;
        for (const char* c = g_log_folder; *c; ++c)
            path[n++] = *c;
        path[n++] = '/';
        for (const char* c = name; *c; ++c)
            path[n++] = *c;
        path[n] = '\0';
        ::unlink(path);
    }
    ::rmdir(g_log_folder);
    g_log_folder[0] = '\0';
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

Watchdog::Watchdog(double timeout_s, int rank)
    : timeout_ms_(timeout_s * 1000.0), rank_(rank), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
    {
        const std::lock_guard lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void Watchdog::begin(std::string what) {
    const std::lock_guard lock(mutex_);
    what_ = std::move(what);
    since_ = now_ms();
}

void Watchdog::end() {
    const std::lock_guard lock(mutex_);
    what_.clear();
}

void Watchdog::watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
        wake_.wait_for(lock, std::chrono::milliseconds(100));
        if (!what_.empty() && now_ms() - since_ > timeout_ms_) {
            std::fprintf(stderr, "cleave: rank %d waited more than %g s for %s; stopping the run\n",
                         rank_, timeout_ms_ / 1000.0, what_.c_str());
            std::fflush(stderr);
            remove_log_folder();
            std::_Exit(1);
        }
    }
}

void Sends::send(const HostTensor& out, int peer, int tag) {
    buffers_.push_back(pack(out));
    requests_.emplace_back();
    MPI_Isend(buffers_.back().data(), static_cast<int>(buffers_.back().size()), MPI_BYTE, peer, tag,
              MPI_COMM_WORLD, &requests_.back());
}

void Sends::progress() {
    if (requests_.empty())
        return;
    int all = 0;
    MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &all, MPI_STATUSES_IGNORE);
    if (all)
        clear();
}

void Sends::wait() {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    clear();
}

int RankPlan::tag_of(const std::string& tensor) const {
    return static_cast<int>(std::lower_bound(tags.begin(), tags.end(), tensor) - tags.begin());
}


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
    const auto part = graph::read_model_io(me.sub_model); // its dims may be left symbolic
    const std::string part_file = me.sub_model.string();
    std::set<std::string> names;
    for (const auto& r : layout.ranks)
        for (const auto& b : r.sends)
            names.insert(b.tensor);
    plan.tags.assign(names.begin(), names.end());
    for (const auto& name : part.inputs) {
        Input in{name, {}, -1, 0};
        const auto received =
            std::find_if(me.receives.begin(), me.receives.end(),
                         [&](const RankBuffer& b) { return b.tensor == name; });
        if (received != me.receives.end()) {
            in.from = received->ranks.front();
        } else {
            const auto& whole = plan.whole;
            bool found = false;
            for (std::size_t g = 0; g < whole.inputs.size() && !found; ++g)
                if (autodice_tensor(
                        whole.tensors[static_cast<std::size_t>(whole.inputs[g])].name) == name) {
                    in.graph = g;
                    found = true;
                }
            if (!found)
                throw InputError(part_file, name,
                                 "an input neither received (receiver.json) nor a graph input of " +
                                     options.model.string());
        }
        plan.inputs.push_back(std::move(in));
    }
    // Outputs: what it sends, and the whole model's outputs it produces (sent to rank 0).
    plan.outputs = part.outputs;
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

std::vector<int> final_producers(const PartitionRunOptions& options, const RankPlan& plan) {
    const auto& whole = plan.whole;
    std::vector<int> producer(whole.outputs.size(), -1);
    for (std::size_t r = 0; r < plan.layout.ranks.size(); ++r) {
        for (const auto& name : graph::read_model_io(plan.layout.ranks[r].sub_model).outputs)
            for (std::size_t o = 0; o < whole.outputs.size(); ++o)
                if (autodice_tensor(
                        whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name) == name)
                    producer[o] = static_cast<int>(r);
    }
    for (std::size_t o = 0; o < whole.outputs.size(); ++o)
        if (producer[o] < 0)
            throw InputError(options.package.string(),
                             whole.tensors[static_cast<std::size_t>(whole.outputs[o])].name,
                             "no sub-model produces this output of the whole model");
    return producer;
}

void receive_input(Input& in, const RankPlan& plan, Watchdog& watchdog, const std::string& of) {
    watchdog.begin(in.name + " of " + of + " from rank " + std::to_string(in.from));
    receive(in.tensor, in.from, plan.tag_of(in.name));
    watchdog.end();
}

std::vector<HostTensor> run_engine(RankEngine& engine, const std::vector<NamedTensor>& feeds,
                                   const std::vector<std::string>& outputs, const KeptState* state,
                                   Sends& sends, Sends& finals) {
    engine.start(feeds, outputs, state);
    while (!engine.done(1)) {
        sends.progress();
        finals.progress();
    }
    return engine.finish();
}

double peak_rss_kib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss);
}

} // namespace cleave::autodice
