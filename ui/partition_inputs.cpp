#include "partition_inputs.hpp"

#include "core/partition/pe_latencies.hpp"

#include <QFutureWatcher>
#include <QtConcurrent>
#include <algorithm>
#include <exception>
#include <map>
#include <numeric>
#include <optional>
#include <utility>

namespace cleave::ui {

PartitionInputs prepare_partition(const PartitionRequest& request) {
    const auto& cluster = *request.cluster;
    const auto pe_count = cluster.pes.size();
    PartitionInputs inputs;
    inputs.request = request;
    inputs.kernel_ms.resize(pe_count);
    inputs.pe_errors.resize(pe_count);
    inputs.capacity_bytes.resize(pe_count);

    // PEs of one device and PE name share a predictor: predict them together, apart from the rest.
    std::map<std::pair<std::string, std::string>, std::vector<int>> groups;
    for (std::size_t pe = 0; pe < pe_count; ++pe) {
        const auto& device = cluster.hosts[cluster.pes[pe].host_index].device;
        groups[{device.id, cluster.pes[pe].spec.name}].push_back(static_cast<int>(pe));
        inputs.capacity_bytes[pe] = device::capacity_bytes(device);
    }
    bool any = false;
    for (const auto& [name, pes] : groups) {
        try {
            auto rows = partition::pe_kernel_latencies_ms(*request.model, *request.kernels, cluster,
                                                          request.rules, pes);
            for (const int pe : pes)
                inputs.kernel_ms[static_cast<std::size_t>(pe)] =
                    std::move(rows[static_cast<std::size_t>(pe)]);
            any = true;
        } catch (const std::exception& e) {
            for (const int pe : pes)
                inputs.pe_errors[static_cast<std::size_t>(pe)] = e.what();
        }
    }
    for (const auto& row : inputs.kernel_ms)
        for (const double ms : row)
            inputs.max_kernel_ms = std::max(inputs.max_kernel_ms, ms);
    if (any)
        inputs.costs = std::make_shared<const partition::MappingCosts>(
            *request.model, *request.kernels, cluster, inputs.kernel_ms);
    return inputs;
}

namespace {

double total_ms(const PartitionInputs& inputs, int pe) {
    const auto& row = inputs.kernel_ms[static_cast<std::size_t>(pe)];
    return std::accumulate(row.begin(), row.end(), 0.0);
}

} // namespace

partition::Mapping balanced_mapping(const PartitionInputs& inputs, const std::vector<int>& pes) {
    const int kernel_count = inputs.kernelCount();
    if (pes.empty() || kernel_count == 0)
        return {};
    // Each PE in turn takes kernels while its compute stays within `limit`; a PE that cannot take
    // the next kernel at all is skipped.
    const auto fill = [&](double limit) -> std::optional<partition::Mapping> {
        partition::Mapping mapping;
        int start = 0;
        for (const int pe : pes) {
            const auto& row = inputs.kernel_ms[static_cast<std::size_t>(pe)];
            int end = start;
            double sum = 0;
            while (end < kernel_count && sum + row[static_cast<std::size_t>(end)] <= limit)
                sum += row[static_cast<std::size_t>(end++)];
            if (end == start)
                continue;
            if (!mapping.pes.empty())
                mapping.points.push_back(start);
            mapping.pes.push_back(pe);
            start = end;
            if (start == kernel_count)
                return mapping;
        }
        return std::nullopt;
    };
    double low = 0;
    double high = total_ms(inputs, pes.front()) * (1 + 1e-9) + 1e-12; // all on the first PE fits
    for (int step = 0; step < 64 && high - low > 1e-9 * high; ++step) {
        const double middle = (low + high) / 2;
        (fill(middle) ? high : low) = middle;
    }
    return *fill(high);
}

partition::Mapping default_mapping(const PartitionInputs& inputs) {
    const auto& cluster = *inputs.request.cluster;
    std::vector<int> fastest; // the fastest PE of each host
    for (std::size_t host = 0; host < cluster.hosts.size(); ++host) {
        int best = -1;
        for (int pe = 0; pe < inputs.peCount(); ++pe)
            if (cluster.pes[static_cast<std::size_t>(pe)].host_index == host &&
                inputs.hasLatencies(pe) &&
                (best < 0 || total_ms(inputs, pe) < total_ms(inputs, best)))
                best = pe;
        if (best >= 0)
            fastest.push_back(best);
    }
    std::stable_sort(fastest.begin(), fastest.end(),
                     [&](int a, int b) { return total_ms(inputs, a) < total_ms(inputs, b); });
    partition::Mapping best;
    double best_throughput = -1;
    partition::Evaluation evaluation;
    for (std::size_t n = 1; n <= fastest.size(); ++n) {
        const auto mapping = balanced_mapping(
            inputs,
            std::vector<int>(fastest.begin(), fastest.begin() + static_cast<std::ptrdiff_t>(n)));
        inputs.costs->evaluate(mapping, evaluation);
        if (evaluation.throughput_per_s > best_throughput * (1 + 1e-9)) {
            best = mapping;
            best_throughput = evaluation.throughput_per_s;
        }
    }
    return best;
}

PartitionRunner::PartitionRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PartitionInputsPtr>();
    pool_.setMaxThreadCount(1);
}

PartitionRunner::~PartitionRunner() {
    current_.reset();
    pool_.waitForDone();
}

void PartitionRunner::cancel() {
    current_.reset();
}

void PartitionRunner::start(PartitionRequest request) {
    struct Outcome {
        PartitionInputsPtr inputs;
        QString error;
    };
    auto job = std::make_shared<Job>();
    job->request = std::move(request);
    current_ = job;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != current_)
            return; // superseded or cancelled
        current_.reset();
        const Outcome outcome = watcher->result();
        if (outcome.inputs)
            emit prepared(outcome.inputs);
        else
            emit failed(outcome.error);
    });
    watcher->setFuture(QtConcurrent::run(&pool_, [job]() -> Outcome {
        try {
            return {std::make_shared<const PartitionInputs>(prepare_partition(job->request)), {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromStdString(e.what())};
        }
    }));
}

} // namespace cleave::ui
