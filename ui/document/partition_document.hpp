// The mapping the partition view edits: split points with a PE per segment over the kernels of
// the model on show, its evaluation (partition::MappingCosts, microseconds, so every edit is
// evaluated at once) and the undo history of its edits. Its inputs come from a request (model,
// kernels, cluster) predicted on every PE off the UI thread (prepare_partition), or are set as
// they are. Views observe inputsChanged() and mappingChanged(). For a language-model decoder it
// also holds the workload (context, sequences in flight, prompt and reply) and what the mapping
// holds in memory under it, pool by pool (partition::llm_memory), re-sized at once when only the
// context moves; and the prefill of the prompt, read and predicted off the UI thread, which
// gives the mapping's time to first token.
#pragma once

#include "core/partition/decoder_plans.hpp"
#include "core/partition/llm_memory.hpp"
#include "ui/document/partition_inputs.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

class QUndoStack;

namespace cleave::ui {

class TaskRunner;

class PartitionDocument : public QObject {
    Q_OBJECT

public:
    explicit PartitionDocument(QObject* parent = nullptr);

    // Kernels and a cluster to map: predicted on every PE off the UI thread, then the inputs
    // (prepared() either way; failure() says why there are none). A request without a model,
    // kernels or cluster clears the inputs at once. The mapping on show stays until then.
    void prepare(PartitionRequest request);
    const PartitionRequest& request() const { return request_; }
    bool isPreparing() const;
    const QString& failure() const { return failure_; } // of the newest request; empty if none

    // New kernels, cluster or latencies: the default mapping (default_mapping), no history.
    void setInputs(PartitionInputsPtr inputs);
    void clear();
    const PartitionInputsPtr& inputs() const { return inputs_; }
    bool hasMapping() const { return inputs_ && !mapping_.pes.empty(); }
    const partition::Mapping& mapping() const { return mapping_; }
    const partition::Evaluation& evaluation() const { return evaluation_; }
    QUndoStack* undoStack() const { return undo_; }

    int kernelCount() const { return inputs_ ? inputs_->kernelCount() : 0; }
    int segmentCount() const { return static_cast<int>(mapping_.pes.size()); }
    int segmentOf(int kernel) const;
    int segmentBegin(int segment) const; // its first kernel
    int segmentEnd(int segment) const;   // one past its last kernel
    int peOfKernel(int kernel) const {
        return mapping_.pes[static_cast<std::size_t>(segmentOf(kernel))];
    }
    // Where split `split` may go: strictly between its neighbours.
    int lowestPoint(int split) const;
    int highestPoint(int split) const;
    // A PE the user may give a segment: one of the cluster's with predicted latencies.
    bool isUsable(int pe) const;

    // Edits, each one undo step; false, and nothing recorded, when an edit would change nothing
    // or is not possible. Moves of one drag (the same `drag` id, >= 0) merge into one step.
    bool moveSplit(int split, int point, int drag = -1);
    bool addSplit(int point);    // the new segment on the right takes an idle PE, if any
    bool removeSplit(int split); // the segment on the right joins the one on the left
    bool assignSegment(int segment, int pe);
    // A whole mapping (from a mapping.json); it must pass check_mapping with usable PEs.
    void replaceMapping(const partition::Mapping& mapping, const QString& what);

    // What the studio says about the mapping on show (the kernels a mapping file cut, the PEs it
    // runs in several stretches); new inputs clear it.
    void setNotice(const QString& notice);
    const QString& notice() const { return notice_; }

    // For the undo commands: shows `mapping` and evaluates it.
    void applyMapping(const partition::Mapping& mapping);

    // ---- a decoder's workload
    // Whether the model on show is a decoder (past key/value inputs), so a workload applies.
    bool isDecoder() const { return decoderBatch_ > 0; }
    // The workload memory is costed under; its batch is the model's. A decoder's default: one
    // sequence, the context the model is bound at. Not an undo step; a project saves it.
    const partition::LlmWorkload& workload() const { return workload_; }
    // Refused (false, nothing changes) for a context below 1 or past the model's context_length,
    // fewer than 1 sequence in flight, a negative count of tokens, or a prompt and reply longer
    // than the context_length. A new prompt length costs its prefill anew.
    bool setWorkload(partition::LlmWorkload workload);
    bool setContext(std::int64_t context);
    // The model's longest context (its context_length), 0 when it records none.
    std::int64_t maxContext() const { return maxContext_; }
    // What the mapping on show holds per PE and pool under the workload; nullopt without a
    // decoder and a mapping.
    const std::optional<partition::LlmMemory>& llmMemory() const { return llmMemory_; }
    // The mapping's time to first token: the prefill of the workload's prompt through the
    // pipeline (MappingCosts on the model read again at the prompt's length); nullopt without a
    // prompt, while its prefill is costed, or when it cannot be (prefillError).
    std::optional<double> timeToFirstTokenMs() const { return ttft_; }
    bool isCostingPrefill() const;
    const QString& prefillError() const { return prefillError_; }

signals:
    void preparing(); // a request is being predicted
    void prepared();  // the newest request's inputs, or its failure, are on show
    void inputsChanged();
    void mappingChanged();
    void noticeChanged();
    void workloadChanged();
    void llmMemoryChanged();
    void prefillChanged(); // costing started or ended, or the time to first token moved

private:
    PartitionRequest request_;
    TaskRunner* runner_;
    QString failure_;
    PartitionInputsPtr inputs_;
    partition::Mapping mapping_;
    partition::Evaluation evaluation_;
    QUndoStack* undo_;
    QString notice_;
    bool takeDecoder();
    void costMemory();
    void costPrefill();             // for the workload's prompt, unless it is costed already
    void timePrefill();             // ttft_ for the mapping on show
    std::int64_t decoderBatch_ = 0; // the model's batch when it is a decoder, else 0
    std::int64_t maxContext_ = 0;
    partition::LlmWorkload workload_;
    std::optional<partition::LlmMemory> llmMemory_; // at_context re-sizes it as the context moves
    TaskRunner* prefillRunner_;
    // The prefill of prefillTokens_ tokens over inputs prefillFor_.
    std::shared_ptr<const partition::CostedPhase> prefill_;
    std::int64_t prefillTokens_ = 0;
    PartitionInputsPtr prefillFor_;
    QString prefillError_;
    std::optional<double> ttft_;
};

} // namespace cleave::ui
