#include "ui/partition/partition_inputs.hpp"

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
    inputs.blocks = layout::block_kernel_runs(*request.model, *request.kernels);

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
