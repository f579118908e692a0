// A measurement back end: runs a model on this machine and times it end to end and per kernel,
// with the runtime's own fusion mapped back to the model's nodes. Back ends are plugins
// (core/plugin, docs/profiling.md); `cleave profile` writes what they measure as a dataset.
#pragma once

#include "core/graph/model.hpp"
#include "core/task_control.hpp"
#include "measured_dataset.hpp"

#include <string>

namespace cleave::profile {

struct ProfileOptions {
    int threads = 1;
    int warmups = 3;  // untimed runs before the first round
    int repeats = 10; // timed runs per round
    // Rounds are measured until the end-to-end coefficient of variation is at most max_cv or
    // max_rounds rounds have run; the round with the lowest one is reported.
    double max_cv = 0.05;
    int max_rounds = 5;
    // Told what is being done, in lasting lines for people; a cancel stops the profiling
    // between runs with cleave::Cancelled.
    const TaskControl* control = nullptr;
};

class Profiler {
public:
    static constexpr const char* kPluginKind = "profiler";

    virtual ~Profiler() = default;

    // The runtime and how it is configured, as a dataset names it ("OpenCV 4.6.0 DNN, ...").
    virtual std::string runtime() const = 0;

    // Runs `model` (from its file, at its inputs' shapes) and returns one run in the dataset
    // format: the reported round's e2e_ms and cv, per kernel its median time in that round and
    // the nodes of `model` it covers. Nodes computed once at load time are in no kernel. Throws
    // InputError naming the model and the node when the runtime refuses the model.
    virtual MeasuredRun profile(const graph::Model& model, const ProfileOptions& options) = 0;
};

} // namespace cleave::profile
