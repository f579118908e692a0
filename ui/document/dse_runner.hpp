// The DSE panel's search (core/dse run_search) on a worker thread, over the Partition tab's
// inputs: the PEs with predicted latencies, fastest first, and the MappingCosts already built for
// the partition view. Each generation's front and the hypervolume steps since the last report are
// posted to the UI thread, at most about 20 times a second (the first and last generation of each
// phase always); pause, resume and cancel act between generations. A cancelled search still
// reports the front it had.
#pragma once

#include "core/dse/exploration_inputs.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/partition/llm_memory.hpp"
#include "ui/document/partition_inputs.hpp"

#include <QObject>
#include <QString>
#include <QThread>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cleave::ui {

// What a search over PartitionInputs maps onto and minimises: dse::choose_search_space over the
// PEs the partition view predicted, with a note for each PE it could not.
dse::SearchSpaceChoice dse_space_inputs(const PartitionInputs& inputs, bool latency_objective);

struct DseStep {
    int stage = 0;  // 1-based
    int pes = 0;    // the stage's PEs
    dse::Level level = dse::Level::analytical;
    int phase_index = 0;
    int phases = 0;
    int generation = 0;  // within the phase
    int generations = 0; // of the phase
    std::int64_t evaluations = 0;
    std::int64_t budget = 0;
    double hypervolume = 0;
    std::vector<dse::Solution> front;
    std::vector<dse::HypervolumeStep> history; // the generations since the last step reported
    // The distinct mappings of the populations since the last step reported (the latest figures
    // of each), infeasible ones included: what the panel keeps beyond the front.
    std::vector<dse::Solution> evaluated;
};

class DseRunner : public QObject {
    Q_OBJECT

public:
    explicit DseRunner(QObject* parent = nullptr);
    ~DseRunner() override; // cancels the search and waits for it

    // Starts a search (settings already checked); false while one runs. With a decoder's
    // `workload` the search is held to its layers (dse::decoder_space; level 1, objectives the
    // slowest stage, the largest stage's memory and the time per token) and the exact optima are
    // found beside it (exactPoints).
    bool start(PartitionInputsPtr inputs, const dse::SearchSettings& settings,
               bool latency_objective,
               std::optional<partition::LlmWorkload> workload = std::nullopt);
    void pause();
    void resume();
    void cancel();
    bool isRunning() const { return thread_ != nullptr; }
    bool isPaused() const { return control_ && control_->paused() && !control_->cancelled(); }

    // The inputs of the search running or last run, and its outcome once finished.
    const PartitionInputsPtr& inputs() const { return inputs_; }
    const dse::SearchResult& result() const { return result_; }
    const std::vector<std::string>& notes() const { return notes_; }
    const std::vector<std::string>& objectiveNames() const { return objectiveNames_; }
    const dse::ObjectiveSet& objectives() const { return objectives_; }
    QString error() const { return error_; } // why the last search failed; empty if it did not
    // Evaluated mappings not yet in a step when the search ended (with finished()).
    const std::vector<dse::Solution>& evaluatedTail() const { return tail_; }
    // A decoder's search: the exact plans least by time per token and by slowest stage, scored
    // as the search scores (empty otherwise, or when no plan fits).
    const std::vector<dse::Solution>& exactPoints() const { return exact_; }

signals:
    void started();
    void stepped(const cleave::ui::DseStep& step); // on the UI thread
    void finished(); // result() holds the front, cancelled or not, or error() says why not
    void pausedChanged(bool paused);

private:
    void finish(std::uint64_t run, dse::SearchResult result, std::vector<dse::Solution> tail,
                std::vector<dse::Solution> exact, QString error);

    std::unique_ptr<QThread> thread_;
    std::shared_ptr<TaskControl> control_; // the search running or last run
    std::uint64_t run_ = 0;
    PartitionInputsPtr inputs_;
    dse::SearchResult result_;
    std::vector<dse::Solution> tail_;
    std::vector<dse::Solution> exact_;
    std::vector<std::string> notes_;
    std::vector<std::string> objectiveNames_;
    dse::ObjectiveSet objectives_;
    QString error_;
};

} // namespace cleave::ui
