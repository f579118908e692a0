#include "decoder_output.hpp"

#include "output.hpp"

#include <cstdio>
#include <string>

namespace cleave::cli {

namespace {

nlohmann::ordered_json part_json(const partition::LlmPeMemory& m) {
    return {{"weight_bytes", m.weight_bytes},
            {"kv_cache_bytes", m.kv_cache_bytes},
            {"kv_bytes_per_token", m.kv_bytes_per_token},
            {"activation_bytes", m.activation_bytes},
            {"total_bytes", m.total()}};
}

nlohmann::ordered_json or_null(const std::optional<std::int64_t>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
}

} // namespace

void add_workload_options(CLI::App& command, partition::LlmWorkload& workload, bool& given) {
    const auto option = [&](const char* flag, std::int64_t partition::LlmWorkload::*field,
                            const char* help) {
        command.add_option_function<std::int64_t>(
            flag,
            [&workload, &given, field](std::int64_t value) {
                workload.*field = value;
                given = true;
            },
            help);
    };
    option("--context", &partition::LlmWorkload::context,
           "A decoder's longest context, which sizes its KV cache (default: prompt + generated "
           "tokens, else the context the model is bound at)");
    option("--sequences", &partition::LlmWorkload::sequences,
           "Batches of a decoder in flight at once, each with a KV cache of its own (default 1)");
    option("--prompt-tokens", &partition::LlmWorkload::prompt_tokens,
           "A decoder's prompt tokens per sequence");
    option("--generate", &partition::LlmWorkload::generated_tokens,
           "Tokens a decoder generates per sequence");
}

PrecisionChoice::PrecisionChoice(const std::string& text) {
    if (!text.empty())
        costed = graph::parse_weight_precision(text);
}

void PrecisionChoice::apply(graph::Model& model) {
    stored = graph::stored_weight_precision(model);
    if (what_if())
        graph::requantize_weights(model, *costed);
}

nlohmann::ordered_json PrecisionChoice::json() const {
    const auto name = [](const std::optional<graph::WeightPrecision>& v) {
        return v ? nlohmann::ordered_json(graph::to_string(*v)) : nlohmann::ordered_json();
    };
    return {{"stored", name(stored)},
            {"costed", name(costed ? costed : stored)},
            {"what_if", what_if()}};
}

std::string PrecisionChoice::line() const {
    if (!what_if())
        return {};
    return std::string("weights costed as ") + graph::to_string(*costed) +
           ": a what-if, the model stores " + (stored ? graph::to_string(*stored) : "none");
}

nlohmann::ordered_json workload_json(const partition::LlmWorkload& w) {
    return {{"batch", w.batch},
            {"sequences", w.sequences},
            {"prompt_tokens", w.prompt_tokens},
            {"generated_tokens", w.generated_tokens},
            {"context", w.cached_context()}};
}

nlohmann::ordered_json llm_memory_json(const partition::LlmMemory& memory,
                                       const device::Cluster& cluster,
                                       const std::vector<int>& pes) {
    const auto key = [&](int pe) { return cluster.pes[static_cast<std::size_t>(pe)].key; };
    auto pe_list = nlohmann::ordered_json::array();
    for (const int pe : pes)
        pe_list.push_back(
            {{"pe", key(pe)}, {"memory", part_json(memory.pes[static_cast<std::size_t>(pe)])}});
    auto pools = nlohmann::ordered_json::array();
    for (const auto& pool : memory.pools) {
        auto keys = nlohmann::ordered_json::array();
        for (const int pe : pool.pes)
            keys.push_back(key(pe));
        pools.push_back({{"host", pool.name},
                         {"pes", keys},
                         {"memory", part_json(pool.used)},
                         {"capacity_bytes", or_null(pool.capacity_bytes)},
                         {"reserve_bytes", pool.reserve_bytes},
                         {"usable_bytes",
                          pool.capacity_bytes
                              ? nlohmann::ordered_json(*pool.capacity_bytes - pool.reserve_bytes)
                              : nlohmann::ordered_json()},
                         {"fits", pool.fits},
                         {"largest_context", or_null(pool.largest_context)},
                         {"summary", pool.describe()}});
    }
    return {{"fits", memory.fits},
            {"binding", memory.binding >= 0
                            ? nlohmann::ordered_json(
                                  memory.pools[static_cast<std::size_t>(memory.binding)].describe())
                            : nlohmann::ordered_json()},
            {"pes", pe_list},
            {"pools", pools}};
}

void print_memory_pools(const partition::LlmMemory& memory, const char* indent) {
    std::printf("%s%-20s %14s %14s %14s %14s %12s %5s\n", indent, "pool", "weights", "KV cache",
                "activations", "usable", "longest ctx", "fits");
    for (const auto& pool : memory.pools) {
        const std::string usable =
            pool.capacity_bytes ? grouped(*pool.capacity_bytes - pool.reserve_bytes) : "?";
        const std::string longest =
            pool.largest_context ? grouped(*pool.largest_context) : std::string("-");
        std::printf("%s%-20s %14s %14s %14s %14s %12s %5s\n", indent, pool.name.c_str(),
                    grouped(pool.used.weight_bytes).c_str(),
                    grouped(pool.used.kv_cache_bytes).c_str(),
                    grouped(pool.used.activation_bytes).c_str(), usable.c_str(), longest.c_str(),
                    pool.fits ? "yes" : "no");
    }
    if (memory.binding >= 0)
        std::printf("%s%s: %s\n", indent, memory.fits ? "tightest" : "binding",
                    memory.pools[static_cast<std::size_t>(memory.binding)].describe().c_str());
}

} // namespace cleave::cli
