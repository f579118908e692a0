// cleave dse --exact and --suggest-device: a language-model decoder's best layer plans on a
// cluster by dynamic programming, beside the rules runtimes split by, and which library device
// to add (core/partition/decoder_plans.hpp).
#pragma once

#include "core/partition/llm_memory.hpp"
#include "model_options.hpp"

#include <string>

namespace cleave::cli {

struct ExactOptions {
    ModelOptions model; // bound by the workload unless --decode / --prefill say otherwise
    std::string cluster;
    std::string predictor;
    std::string rules = "ort-cpu";
    partition::LlmWorkload workload;
    bool suggest_device = false;
    // The plan (a rule: exact-time-per-token, exact-bottleneck, equal, memory, llama.cpp) written
    // as llama.cpp command lines to `llama_cpp`; empty plan: the exact one for the workload.
    std::string llama_cpp;
    std::string plan;
    std::string gguf; // the model's GGUF file on the main host; empty: MODEL's name as .gguf
    bool pin = false;
    std::string precision; // a what-if weight precision; empty: as stored
    bool json = false;
    std::string out;
};

int run_exact_plans(const ExactOptions& options);

} // namespace cleave::cli
