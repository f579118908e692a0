#include "ui/document/partition_document.hpp"

#include "core/graph/decoder_phase.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/balanced_mapping.hpp"
#include "core/task_control.hpp"
#include "ui/document/partition_commands.hpp"
#include "ui/document/task_runner.hpp"

#include <QUndoStack>
#include <algorithm>
#include <exception>
#include <utility>

namespace cleave::ui {

PartitionDocument::PartitionDocument(QObject* parent)
    : QObject(parent), runner_(new TaskRunner(this)), undo_(new QUndoStack(this)),
      prefillRunner_(new TaskRunner(this)) {
    qRegisterMetaType<PartitionInputsPtr>();
}

void PartitionDocument::prepare(PartitionRequest request) {
    request_ = std::move(request);
    if (!request_.model || !request_.kernels || !request_.cluster) {
        runner_->cancel();
        failure_.clear();
        clear();
        return;
    }
    struct Outcome {
        PartitionInputsPtr inputs;
        QString error;
    };
    runner_->start<Outcome>(
        [request = request_]() -> Outcome {
            try {
                return {std::make_shared<const PartitionInputs>(prepare_partition(request)), {}};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromStdString(e.what())};
            }
        },
        [this](const Outcome& outcome) {
            failure_ = outcome.error;
            setInputs(outcome.inputs); // none when it failed
            emit prepared();
        });
    emit preparing();
}

bool PartitionDocument::isPreparing() const {
    return runner_->isRunning();
}

void PartitionDocument::setInputs(PartitionInputsPtr inputs) {
    undo_->clear();
    inputs_ = std::move(inputs);
    setNotice({});
    mapping_ = inputs_ && inputs_->costs
                   ? partition::default_mapping(*inputs_->costs, *inputs_->request.cluster,
                                                inputs_->kernel_ms)
                   : partition::Mapping{};
    const bool workload = takeDecoder();
    emit inputsChanged();
    applyMapping(mapping_);
    if (workload) // once the mapping is evaluated: views of the workload read its figures
        emit workloadChanged();
    costPrefill();
}

// A decoder's batch and longest context from the model on show; its default workload when the
// model is new (a workload set before, by a project, stays where it still fits the model).
// Whether the workload changed.
bool PartitionDocument::takeDecoder() {
    const bool was = isDecoder();
    decoderBatch_ = 0;
    maxContext_ = 0;
    if (!inputs_)
        return false;
    const auto& model = *inputs_->request.model;
    const auto phase = graph::decoder_phase(model);
    if (!phase)
        return false;
    decoderBatch_ = phase->batch;
    maxContext_ = graph::max_context(model);
    auto w = workload_;
    w.batch = decoderBatch_;
    if (!was && w.cached_context() == 0)
        w.context = std::max<std::int64_t>(phase->context, 1);
    if (maxContext_ > 0 && w.cached_context() > maxContext_)
        w.context = maxContext_;
    if (w == workload_)
        return false;
    workload_ = w;
    return true;
}

bool PartitionDocument::setWorkload(partition::LlmWorkload workload) {
    if (isDecoder())
        workload.batch = decoderBatch_;
    if (workload.cached_context() < 1 || workload.sequences < 1 || workload.prompt_tokens < 0 ||
        workload.generated_tokens < 0 ||
        (maxContext_ > 0 && (workload.cached_context() > maxContext_ ||
                             workload.prompt_tokens + workload.generated_tokens > maxContext_)))
        return false;
    if (workload == workload_)
        return true;
    const bool onlyContext = [&] {
        auto same = workload;
        same.context = workload_.context;
        return same == workload_;
    }();
    const bool newPrompt = workload.prompt_tokens != workload_.prompt_tokens;
    workload_ = workload;
    emit workloadChanged();
    if (newPrompt)
        costPrefill();
    if (onlyContext && llmMemory_) {
        llmMemory_ = partition::at_context(*llmMemory_, workload_.cached_context());
        emit llmMemoryChanged();
    } else {
        costMemory();
    }
    return true;
}

bool PartitionDocument::setContext(std::int64_t context) {
    auto w = workload_;
    w.context = context;
    return setWorkload(w);
}

// The prefill's activations where it is costed (they are the larger, as decoder_plans counts).
void PartitionDocument::costMemory() {
    const bool had = llmMemory_.has_value();
    llmMemory_.reset();
    if (isDecoder() && hasMapping()) {
        const auto& r = inputs_->request;
        const bool prefill = prefill_ && prefillFor_ == inputs_;
        llmMemory_ = partition::llm_memory(
            prefill ? prefill_->model : *r.model, prefill ? prefill_->kernels : *r.kernels,
            partition::assignment_of(mapping_, kernelCount()), *r.cluster, workload_);
    }
    if (had || llmMemory_)
        emit llmMemoryChanged();
}

bool PartitionDocument::isCostingPrefill() const {
    return prefillRunner_->isRunning();
}

// The model read again from its file with the prompt's new tokens and nothing cached, fused and
// predicted as the decode step was.
void PartitionDocument::costPrefill() {
    const std::int64_t tokens = isDecoder() ? workload_.prompt_tokens : 0;
    if (tokens == prefillTokens_ && inputs_ == prefillFor_ && (prefill_ || isCostingPrefill()))
        return;
    prefill_.reset();
    prefillTokens_ = tokens;
    prefillFor_ = inputs_;
    prefillError_.clear();
    if (tokens < 1 || !inputs_ || !inputs_->costs) {
        prefillRunner_->cancel();
        timePrefill();
        emit prefillChanged();
        return;
    }
    struct Outcome {
        std::shared_ptr<const partition::CostedPhase> phase;
        QString error;
    };
    prefillRunner_->start<Outcome>(
        [request = inputs_->request, tokens](const TaskControl& control) -> Outcome {
            try {
                graph::LoadOptions options;
                options.input_shapes = request.inputShapes;
                options.dims = request.dims;
                options.dims.decode.reset();
                options.dims.prefill = tokens;
                options.control = &control;
                auto model = graph::load_model(request.model->file, options);
                auto phase =
                    partition::cost_phase(std::move(model), *request.cluster, request.rules);
                if (phase->kernels.kernels.size() != request.kernels->kernels.size())
                    return {nullptr, tr("its prefill fuses into %1 kernels, the decode step into "
                                        "%2, so one mapping cannot split both")
                                         .arg(phase->kernels.kernels.size())
                                         .arg(request.kernels->kernels.size())};
                return {std::move(phase), {}};
            } catch (const Cancelled&) {
                return {nullptr, {}};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromStdString(e.what())};
            }
        },
        [this](const Outcome& outcome) {
            prefill_ = outcome.phase;
            prefillError_ = outcome.error;
            timePrefill();
            costMemory();
            emit prefillChanged();
        });
    timePrefill();
    emit prefillChanged();
}

void PartitionDocument::timePrefill() {
    ttft_.reset();
    if (prefill_ && prefillFor_ == inputs_ && hasMapping())
        ttft_ = prefill_->costs->evaluate(mapping_).latency_ms;
}

void PartitionDocument::setNotice(const QString& notice) {
    if (notice == notice_)
        return;
    notice_ = notice;
    emit noticeChanged();
}

void PartitionDocument::clear() {
    setInputs(nullptr);
}

int PartitionDocument::segmentOf(int kernel) const {
    return static_cast<int>(
        std::upper_bound(mapping_.points.begin(), mapping_.points.end(), kernel) -
        mapping_.points.begin());
}

int PartitionDocument::segmentBegin(int segment) const {
    return segment == 0 ? 0 : mapping_.points[static_cast<std::size_t>(segment) - 1];
}

int PartitionDocument::segmentEnd(int segment) const {
    return segment == segmentCount() - 1 ? kernelCount()
                                         : mapping_.points[static_cast<std::size_t>(segment)];
}

int PartitionDocument::lowestPoint(int split) const {
    return split == 0 ? 1 : mapping_.points[static_cast<std::size_t>(split) - 1] + 1;
}

int PartitionDocument::highestPoint(int split) const {
    return split + 1 == static_cast<int>(mapping_.points.size())
               ? kernelCount() - 1
               : mapping_.points[static_cast<std::size_t>(split) + 1] - 1;
}

bool PartitionDocument::isUsable(int pe) const {
    return inputs_ && pe >= 0 && pe < inputs_->peCount() && inputs_->hasLatencies(pe);
}

bool PartitionDocument::moveSplit(int split, int point, int drag) {
    if (!hasMapping() || split < 0 || split >= static_cast<int>(mapping_.points.size()))
        return false;
    point = std::clamp(point, lowestPoint(split), highestPoint(split));
    if (point == mapping_.points[static_cast<std::size_t>(split)])
        return false;
    undo_->push(new MoveSplitCommand(this, split, point, drag));
    return true;
}

bool PartitionDocument::addSplit(int point) {
    if (!hasMapping() || point <= 0 || point >= kernelCount() ||
        std::binary_search(mapping_.points.begin(), mapping_.points.end(), point))
        return false;
    // An idle PE, on an idle host if there is one, so that the split does something at once.
    const auto& cluster = *inputs_->request.cluster;
    const auto used = [&](int pe) {
        return std::find(mapping_.pes.begin(), mapping_.pes.end(), pe) != mapping_.pes.end();
    };
    const auto hostUsed = [&](int pe) {
        return std::any_of(mapping_.pes.begin(), mapping_.pes.end(), [&](int other) {
            return cluster.pes[static_cast<std::size_t>(other)].host_index ==
                   cluster.pes[static_cast<std::size_t>(pe)].host_index;
        });
    };
    int pe = -1;
    for (int candidate = 0; candidate < inputs_->peCount() && pe < 0; ++candidate)
        if (isUsable(candidate) && !hostUsed(candidate))
            pe = candidate;
    for (int candidate = 0; candidate < inputs_->peCount() && pe < 0; ++candidate)
        if (isUsable(candidate) && !used(candidate))
            pe = candidate;
    if (pe < 0)
        pe = mapping_.pes[static_cast<std::size_t>(segmentOf(point))];
    undo_->push(new AddSplitCommand(this, point, pe));
    return true;
}

bool PartitionDocument::removeSplit(int split) {
    if (!hasMapping() || split < 0 || split >= static_cast<int>(mapping_.points.size()))
        return false;
    undo_->push(new RemoveSplitCommand(this, split));
    return true;
}

bool PartitionDocument::assignSegment(int segment, int pe) {
    if (!hasMapping() || segment < 0 || segment >= segmentCount() || !isUsable(pe) ||
        mapping_.pes[static_cast<std::size_t>(segment)] == pe)
        return false;
    undo_->push(new AssignSegmentCommand(this, segment, pe));
    return true;
}

void PartitionDocument::replaceMapping(const partition::Mapping& mapping, const QString& what) {
    undo_->push(new ReplaceMappingCommand(this, mapping, what));
}

void PartitionDocument::applyMapping(const partition::Mapping& mapping) {
    mapping_ = mapping;
    if (hasMapping())
        inputs_->costs->evaluate(mapping_, evaluation_);
    else
        evaluation_ = {};
    timePrefill();
    emit mappingChanged();
    costMemory();
}

} // namespace cleave::ui
