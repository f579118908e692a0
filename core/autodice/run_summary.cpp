#include "run_summary.hpp"

#include "core/json_reader.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace cleave::autodice {

namespace {

using nlohmann::json;

constexpr const char* kExpected = "a run summary (\"format\": \"cleave-run-summary\")";
constexpr int kMost = std::numeric_limits<int>::max();

double at_least_zero(const JsonReader& reader, const json& object, const std::string& pointer,
                     const std::string& key, const std::string& unit) {
    return *reader.number(object, pointer, key, true, unit, true);
}

RankSummary read_rank(const JsonReader& reader, const json& value, const std::string& pointer) {
    reader.expect_object(value, pointer, "a rank's figures");
    RankSummary rank;
    rank.rank = *reader.whole_number(value, pointer, "rank", true, 0, kMost);
    rank.key = reader.string(value, pointer, "key", true, "a PE key");
    rank.host = reader.string(value, pointer, "host", false, "a host name");
    rank.compute_ms = at_least_zero(reader, value, pointer, "compute_ms", "ms");
    rank.compute_ms_per_input = at_least_zero(reader, value, pointer, "compute_ms_per_input", "ms");
    rank.engine_ms = reader.number(value, pointer, "engine_ms", false, "ms", true).value_or(0.0);
    rank.receive_wait_ms = at_least_zero(reader, value, pointer, "receive_wait_ms", "ms");
    rank.send_wait_ms = at_least_zero(reader, value, pointer, "send_wait_ms", "ms");
    rank.wall_ms = at_least_zero(reader, value, pointer, "wall_ms", "ms");
    rank.peak_rss_kib = at_least_zero(reader, value, pointer, "peak_rss_kib", "KiB");
    return rank;
}

// A number at `key` that may be null (absent too where not `required`).
std::optional<double> number_or_null(const JsonReader& reader, const json& object,
                                     const std::string& pointer, const std::string& key,
                                     bool required, const std::string& unit) {
    const json* value = reader.member(object, pointer, key, required, "a number or null");
    if (!value || value->is_null())
        return std::nullopt;
    return reader.number(object, pointer, key, true, unit, true);
}

DecodeRun read_decode(const JsonReader& reader, const json& d) {
    const std::string at = "/decode";
    DecodeRun run;
    run.prompt_tokens = *reader.whole_number(d, at, "prompt_tokens", true, 1, kMost);
    run.generate = *reader.whole_number(d, at, "generate", true, 1, kMost);
    run.sequences = *reader.whole_number(d, at, "sequences", true, 1, kMost);
    run.ttft_ms = at_least_zero(reader, d, at, "ttft_ms", "ms");
    run.tpot_ms = at_least_zero(reader, d, at, "tpot_ms", "ms");
    run.tokens_per_s = at_least_zero(reader, d, at, "tokens_per_s", "tokens/s");
    run.decode_tokens_per_s =
        number_or_null(reader, d, at, "decode_tokens_per_s", true, "tokens/s");
    if (const json* hop = reader.member(d, at, "hop_ms", false, "a number"))
        run.hop_ms = hop->is_number() ? std::optional(hop->get<double>()) : std::nullopt;
    run.token_mismatches = reader.whole_number(d, at, "token_mismatches", false, 0, kMost);
    run.near_ties = reader.whole_number(d, at, "near_ties", false, 0, kMost);
    return run;
}

} // namespace

RunSummary parse_run_summary(const std::string& text, const std::string& file) {
    const JsonReader reader(file);
    const json root = reader.parse(text, kExpected);
    reader.expect_object(root, "", kExpected);
    if (reader.string(root, "", "format", true) != "cleave-run-summary")
        reader.fail("/format", "expected \"cleave-run-summary\"");
    reader.whole_number(root, "", "version", true, 1, 1);

    RunSummary summary;
    summary.runtime = reader.string(root, "", "runtime", true, "the runtime's name");
    summary.ranks = *reader.whole_number(root, "", "ranks", true, 1, kMost);
    summary.inputs = *reader.whole_number(root, "", "inputs", true, 1, kMost);
    summary.wall_ms = at_least_zero(reader, root, "", "wall_ms", "ms");
    summary.throughput_ips = at_least_zero(reader, root, "", "throughput_ips", "inputs/s");
    if (const auto* diff = reader.member(root, "", "max_abs_diff", true, "a number or null");
        !diff->is_null())
        summary.max_abs_diff = at_least_zero(reader, root, "", "max_abs_diff", "");
    const json& ranks = *reader.array(root, "", "per_rank", true, "one entry per rank");
    if (ranks.size() != static_cast<std::size_t>(summary.ranks))
        reader.fail("/per_rank", "expected " + std::to_string(summary.ranks) +
                                     " entries, one per rank, found " +
                                     std::to_string(ranks.size()));
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string pointer = child_pointer("/per_rank", i);
        summary.per_rank.push_back(read_rank(reader, ranks[i], pointer));
        if (summary.per_rank.back().rank != static_cast<int>(i))
            reader.fail(pointer + "/rank",
                        "expected " + std::to_string(i) + ", the ranks in order");
    }
    if (const json* predicted = reader.object(root, "", "predicted", false, "the prediction")) {
        summary.predicted = PredictedRun{
            at_least_zero(reader, *predicted, "/predicted", "throughput_ips", "inputs/s"),
            number_or_null(reader, *predicted, "/predicted", "measured_over_predicted", true, "")
                .value_or(std::nan("")),
            number_or_null(reader, *predicted, "/predicted", "ttft_ms", false, "ms"),
            number_or_null(reader, *predicted, "/predicted", "tpot_ms", false, "ms")};
    }
    if (const json* decode = reader.object(root, "", "decode", false, "a decode run's figures"))
        summary.decode = read_decode(reader, *decode);
    return summary;
}

} // namespace cleave::autodice
