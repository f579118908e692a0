// cleave dse on a language-model decoder's workload: its best layer plans on a cluster by
// dynamic programming (--exact), beside the rules runtimes split by, and which library device to
// add (core/partition/decoder_plans.hpp); without --exact also the NSGA-II search held to the
// decoder's layers (core/dse/decoder_search.hpp), its best plans beside the exact ones.
#pragma once

#include "core/dse/nsga2_search.hpp"
#include "core/partition/llm_memory.hpp"
#include "model_options.hpp"
#include "progress.hpp"

#include <functional>
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
    std::string objectives; // the search's (dse::parse_objectives); empty: bottleneck, latency
    bool json = false;
    std::string out;
};

// The NSGA-II search over a space, with its progress; empty: the exact plans alone.
using DecoderSearchRun =
    std::function<dse::SearchResult(const dse::MappingSpace& space, Progress& progress)>;

int run_decoder_plans(const ExactOptions& options, const DecoderSearchRun& search = {});

} // namespace cleave::cli
