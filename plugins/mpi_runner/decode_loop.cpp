#include "decode_loop.hpp"

#include "core/graph/input_dim_binding.hpp"
#include "core/graph/sub_model.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <random>

namespace cleave::autodice {

namespace {

constexpr double kTieMargin = 1e-3; // top two logits closer than this: a near tie, no error

bool is_cache_output(const std::string& name) {
    return name.starts_with("present");
}
std::string cache_input(const std::string& output) {
    return "past_key_values" + output.substr(std::string_view("present").size());
}

// What the loop knows of the split: who makes the logits, who reads the ids, and which of this
// rank's outputs are caches its engine keeps.
struct DecodeLayout {
    int logits_rank = -1;
    std::size_t logits_output = 0; // the whole model's output index
    std::int64_t vocab = 0;
    std::vector<int> id_ranks; // ranks whose sub-model reads input_ids
    std::vector<std::pair<std::string, std::string>> keep;       // this rank's present -> past
    std::vector<std::string> fetched;                            // its outputs less the kept
    std::vector<std::pair<std::string, std::string>> whole_keep; // the whole model's
};

DecodeLayout decode_layout(const PartitionRunOptions& options, const RankPlan& plan, int rank) {
    DecodeLayout d;
    const auto& whole = plan.whole;
    bool logits = false;
    for (std::size_t o = 0; o < whole.outputs.size(); ++o) {
        const auto& tensor = whole.tensors[static_cast<std::size_t>(whole.outputs[o])];
        if (tensor.name == "logits" && tensor.shape && !tensor.shape->empty()) {
            logits = true;
            d.logits_output = o;
            d.vocab = tensor.shape->back();
        } else if (is_cache_output(tensor.name)) {
            d.whole_keep.emplace_back(tensor.name, cache_input(tensor.name));
        }
    }
    if (!logits || d.vocab < 1)
        throw InputError(options.model.string(), "logits",
                         "a decode run needs the decoder's logits output, [batch, tokens, "
                         "vocabulary]");
    d.logits_rank = final_producers(options, plan)[d.logits_output];
    for (std::size_t r = 0; r < plan.layout.ranks.size(); ++r) {
        const auto inputs = graph::read_model_io(plan.layout.ranks[r].sub_model).inputs;
        if (std::find(inputs.begin(), inputs.end(), "input_ids") != inputs.end())
            d.id_ranks.push_back(static_cast<int>(r));
    }
    for (const auto& out : plan.outputs) {
        if (!is_cache_output(out)) {
            d.fetched.push_back(out);
            continue;
        }
        const auto past = cache_input(out);
        if (std::none_of(plan.inputs.begin(), plan.inputs.end(),
                         [&](const Input& in) { return in.name == past && in.from < 0; }))
            throw InputError(plan.layout.ranks[static_cast<std::size_t>(rank)].sub_model.string(),
                             out,
                             "this rank writes the cache but does not read " + past +
                                 "; a decode run needs each layer's attention on one rank");
        d.keep.emplace_back(out, past);
    }
    return d;
}

// The prompt of sequence `s`: `count` token ids drawn from the vocabulary, the same on every rank
// and in the check.
std::vector<std::int64_t> prompt(int s, int count, std::int64_t vocab) {
    std::mt19937_64 random(1000 + static_cast<std::uint64_t>(s));
    std::uniform_int_distribution<std::int64_t> id(0, vocab - 1);
    std::vector<std::int64_t> ids(static_cast<std::size_t>(count));
    for (auto& v : ids)
        v = id(random);
    return ids;
}

void int64_tensor(const std::vector<std::int64_t>& values, HostTensor& t) {
    t.dtype = graph::DataType::Int64;
    t.dims = {1, static_cast<std::int64_t>(values.size())};
    t.bytes.resize(values.size() * sizeof(std::int64_t));
    std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
}

// A step of one sequence: the tokens cached before it, the tokens it feeds and their ids (known
// on the ranks reading input_ids).
struct Step {
    std::int64_t past = 0;
    std::int64_t count = 1;
    const std::vector<std::int64_t>* ids = nullptr;
};

// Graph input `tensor` of the whole model at `step`, into `t`; false for a cache the engine keeps
// (after the prefill, whose caches are empty).
bool decoder_input(const graph::Tensor& tensor, const Step& step, HostTensor& t,
                   const std::string& file) {
    const auto& name = tensor.name;
    const auto count = step.count;
    if (name == "input_ids") {
        int64_tensor(*step.ids, t);
    } else if (name == "attention_mask") {
        int64_tensor(std::vector<std::int64_t>(static_cast<std::size_t>(step.past + count), 1), t);
    } else if (name == "position_ids") {
        std::vector<std::int64_t> positions(static_cast<std::size_t>(count));
        std::iota(positions.begin(), positions.end(), step.past);
        int64_tensor(positions, t);
    } else if (name.starts_with("past_key_values") && tensor.shape) {
        if (step.past > 0)
            return false;
        t.dtype = tensor.dtype;
        t.dims = *tensor.shape;
        const auto roles = graph::input_dim_roles(name, t.dims.size());
        bool cached = false;
        for (std::size_t i = 0; i < roles.size(); ++i)
            if (roles[i] == graph::DimRole::Batch)
                t.dims[i] = 1;
            else if (roles[i] == graph::DimRole::CachedTokens)
                t.dims[i] = 0, cached = true;
        if (!cached)
            throw InputError(file, name, "a cache input without a cached-tokens dim");
        t.bytes.clear();
    } else {
        throw InputError(file, name,
                         "an input the decode loop cannot make; it makes input_ids, "
                         "attention_mask, position_ids and past_key_values.*");
    }
    return true;
}

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    if (exponent == 0x1f)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
        const float value = static_cast<float>(mantissa) / 16777216.0f; // 2^-24
        return sign ? -value : value;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// The logits of the last token fed: the last row of [batch, tokens, vocabulary].
std::vector<float> last_row(const HostTensor& logits) {
    const auto vocab = static_cast<std::size_t>(logits.dims.back());
    const bool half = logits.dtype == graph::DataType::Float16;
    if (!half && logits.dtype != graph::DataType::Float32)
        throw std::runtime_error("logits of element type " + std::string(graph::to_string(logits.dtype)) +
                                 "; expected float32 or float16");
    const std::size_t size = half ? 2 : 4, n = logits.bytes.size() / size;
    std::vector<float> row(vocab);
    for (std::size_t i = 0; i < vocab; ++i) {
        const std::byte* at = logits.bytes.data() + (n - vocab + i) * size;
        if (half) {
            std::uint16_t h;
            std::memcpy(&h, at, 2);
            row[i] = half_to_float(h);
        } else {
            std::memcpy(&row[i], at, 4);
        }
    }
    return row;
}

// Greedy argmax, and how far the best logit is above the next.
struct Pick {
    std::int64_t token = 0;
    double margin = 0;
};
Pick pick(const std::vector<float>& row) {
    Pick p;
    float best = -INFINITY, second = -INFINITY;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (row[i] > best) {
            second = best;
            best = row[i];
            p.token = static_cast<std::int64_t>(i);
        } else if (row[i] > second) {
            second = row[i];
        }
    }
    p.margin = static_cast<double>(best) - static_cast<double>(second);
    return p;
}

// Every sequence's tokens and the times they were picked (ms from the start), by the rank making
// the logits; rank 0 gets them in one message.
struct Tokens {
    std::vector<std::vector<std::int64_t>> ids;
    std::vector<std::vector<double>> ms;
};

void exchange_tokens(Tokens& tokens, int rank, int logits_rank, int per_sequence) {
    if (logits_rank == 0)
        return;
    const auto sequences = tokens.ids.size();
    std::vector<double> flat(sequences * static_cast<std::size_t>(per_sequence) * 2);
    if (rank == logits_rank) {
        std::size_t i = 0;
        for (std::size_t s = 0; s < sequences; ++s)
            for (int k = 0; k < per_sequence; ++k, i += 2) {
                flat[i] = static_cast<double>(tokens.ids[s][static_cast<std::size_t>(k)]);
                flat[i + 1] = tokens.ms[s][static_cast<std::size_t>(k)];
            }
        MPI_Send(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, kTimesTag,
                 MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, logits_rank, kTimesTag,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        std::size_t i = 0;
        for (std::size_t s = 0; s < sequences; ++s)
            for (int k = 0; k < per_sequence; ++k, i += 2) {
                tokens.ids[s].push_back(static_cast<std::int64_t>(flat[i]));
                tokens.ms[s].push_back(flat[i + 1]);
            }
    }
}

// Rank 0's summary of the run: time to first token and per output token of each sequence, and
// the throughput of the decode steps once every prefill is done.
nlohmann::ordered_json decode_summary(const PartitionRunOptions& options, const Tokens& tokens) {
    const int n = options.generate;
    auto sequences = nlohmann::ordered_json::array();
    double ttft = 0, tpot = 0, decoding = 0, last = 0;
    for (const auto& ms : tokens.ms) {
        decoding = std::max(decoding, ms.front());
        last = std::max(last, ms.back());
    }
    int after = 0; // tokens made once every sequence is decoding
    for (std::size_t s = 0; s < tokens.ms.size(); ++s) {
        const auto& ms = tokens.ms[s];
        const double per_token = n > 1 ? (ms.back() - ms.front()) / (n - 1) : 0.0;
        ttft += ms.front();
        tpot += per_token;
        after += static_cast<int>(std::count_if(ms.begin(), ms.end(),
                                                [&](double t) { return t > decoding; }));
        sequences.push_back(
            {{"ttft_ms", ms.front()}, {"tpot_ms", per_token}, {"tokens", tokens.ids[s]}});
    }
    const auto count = static_cast<double>(tokens.ms.size());
    return {{"prompt_tokens", options.prompt_tokens},
            {"generate", n},
            {"sequences", options.sequences},
            {"ttft_ms", ttft / count},
            {"tpot_ms", tpot / count},
            {"tokens_per_s", 1000.0 * count * n / last},
            {"decode_tokens_per_s",
             last > decoding ? nlohmann::ordered_json(1000.0 * after / (last - decoding))
                             : nlohmann::ordered_json()},
            {"per_sequence", sequences}};
}

// Rank 0's check: the whole model fed the tokens the ranks made, step by step with its own
// caches, against the logits of every step's last token (those that pick the next); a token that
// differs where the whole model's top two logits are more than kTieMargin apart is a mismatch,
// elsewhere a near tie.
double check_decode(const PartitionRunOptions& options, const RankPlan& plan,
                    const DecodeLayout& d, const Tokens& tokens,
                    std::vector<std::vector<HostTensor>>& own, RankEngine& whole,
                    Watchdog& watchdog, nlohmann::ordered_json& summary) {
    double most = 0;
    int mismatches = 0, near_ties = 0;
    const auto& model = plan.whole;
    std::vector<HostTensor> inputs(model.inputs.size());
    HostTensor got;
    for (int k = 0; k < options.generate; ++k) // in the order the logits were sent
        for (int s = 0; s < options.sequences; ++s) {
            const KeptState state{s, d.whole_keep, "", "logits"};
            const auto ids =
                k == 0 ? prompt(s, options.prompt_tokens, d.vocab)
                       : std::vector{tokens.ids[static_cast<std::size_t>(s)]
                                               [static_cast<std::size_t>(k - 1)]};
            const Step step{k == 0 ? 0 : options.prompt_tokens + k - 1,
                            static_cast<std::int64_t>(ids.size()), &ids};
            std::vector<NamedTensor> feeds;
            for (std::size_t g = 0; g < model.inputs.size(); ++g) {
                const auto& tensor = model.tensors[static_cast<std::size_t>(model.inputs[g])];
                if (decoder_input(tensor, step, inputs[g], options.model.string()))
                    feeds.push_back({tensor.name, &inputs[g]});
            }
            const auto expected = whole.run(feeds, {"logits"}, &state);
            if (d.logits_rank == 0) {
                got = std::move(own[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)]);
            } else {
                watchdog.begin("the logits from rank " + std::to_string(d.logits_rank));
                receive(got, d.logits_rank, kFinalTag + static_cast<int>(d.logits_output));
                watchdog.end();
            }
            most = std::max(most, max_abs_diff(got, expected[0]));
            const auto best = pick(last_row(expected[0]));
            if (best.token !=
                tokens.ids[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)])
                ++(best.margin > kTieMargin ? mismatches : near_ties);
        }
    summary["token_mismatches"] = mismatches;
    summary["near_ties"] = near_ties;
    return most;
}

// One rank's part of the run: its steps in the order every rank takes them, sequence by
// sequence within each step.
class DecodeRank {
public:
    DecodeRank(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine, int rank,
               Watchdog& watchdog)
        : options_(options), plan_(plan), engine_(engine), rank_(rank), watchdog_(watchdog),
          d_(decode_layout(options, plan, rank)),
          reads_ids_(std::find(d_.id_ranks.begin(), d_.id_ranks.end(), rank) != d_.id_ranks.end()),
          makes_logits_(rank == d_.logits_rank),
          logits_at_(static_cast<std::size_t>(std::find(d_.fetched.begin(), d_.fetched.end(),
                                                        "logits") -
                                              d_.fetched.begin())),
          tokens_{std::vector<std::vector<std::int64_t>>(
                      static_cast<std::size_t>(options.sequences + 1)),
                  std::vector<std::vector<double>>(static_cast<std::size_t>(options.sequences))},
          own_(static_cast<std::size_t>(options.sequences)) {}

    // Untimed, before the start: a prefill and one decode step of a sequence of its own, each run
    // over as the profiler warms up (KeptState::warm), so that the engines' first runs (their
    // allocations, at both shapes) are not timed.
    void warm_up() {
        for (int k = 0; k < std::min(2, options_.generate); ++k)
            step(options_.sequences, k, std::min(2, options_.generate), false);
    }

    DecodeOutcome run(RankEngine* whole) {
        MPI_Barrier(MPI_COMM_WORLD);
        start_ = now_ms();
        for (int k = 0; k < options_.generate; ++k)
            for (int s = 0; s < options_.sequences; ++s)
                step(s, k, options_.generate, true);
        const double sending = now_ms();
        stage_.wait();
        out_.stats.send_ms = now_ms() - sending;
        out_.stats.wall_ms = now_ms() - start_;
        out_.stats.rss_kib = peak_rss_kib();
        tokens_.ids.pop_back(); // the warm-up's
        exchange_tokens(tokens_, rank_, d_.logits_rank, options_.generate);
        if (rank_ == 0) {
            out_.summary = decode_summary(options_, tokens_);
            out_.wall_ms = out_.stats.wall_ms;
            if (whole)
                out_.max_abs_diff = check_decode(options_, plan_, d_, tokens_, own_, *whole,
                                                 watchdog_, out_.summary);
        }
        finals_.wait();
        return std::move(out_);
    }

private:
    // Step `k` (0: the prefill) of sequence `s`, of `steps`; `timed` ones count in the figures.
    void step(int s, int k, int steps, bool timed) {
        const auto S = static_cast<std::size_t>(s);
        const double waited = now_ms();
        const auto ids = step_ids(s, k);
        const Step step{k == 0 ? 0 : options_.prompt_tokens + k - 1,
                        k == 0 ? options_.prompt_tokens : 1, &ids};
        std::vector<NamedTensor> feeds;
        for (auto& in : plan_.inputs) {
            if (in.from < 0) {
                const auto& tensor =
                    plan_.whole.tensors[static_cast<std::size_t>(plan_.whole.inputs[in.graph])];
                if (!decoder_input(tensor, step, in.tensor, options_.model.string()))
                    continue;
            } else {
                receive_input(in, plan_, watchdog_, "step " + std::to_string(k));
            }
            feeds.push_back({in.name, &in.tensor});
        }
        const double computed = now_ms();
        // The logits stay in the engine unless rank 0 checks them (their last row, which picks
        // the token): otherwise only the token comes back.
        const bool token_only = makes_logits_ && !(timed && options_.reference);
        const KeptState state{s, d_.keep, token_only ? "logits" : "",
                              makes_logits_ && !token_only ? "logits" : "", !timed};
        auto results = run_engine(engine_, feeds, d_.fetched, &state, stage_, finals_);
        if (timed) {
            out_.stats.receive_ms += computed - waited;
            out_.stats.compute_ms += now_ms() - computed;
            out_.stats.engine_ms += engine_.last_run_ms();
            if (k > 0)
                out_.stats.step_engine_ms += engine_.last_run_ms();
        }
        for (std::size_t o = 0; o < d_.fetched.size(); ++o)
            if (const auto to = plan_.sends.find(d_.fetched[o]); to != plan_.sends.end())
                for (const int peer : to->second)
                    stage_.send(results[o], peer, plan_.tag_of(d_.fetched[o]));
        if (!makes_logits_)
            return;
        std::int64_t next = 0;
        if (token_only)
            std::memcpy(&next, results[logits_at_].bytes.data(), sizeof next);
        else
            next = pick(last_row(results[logits_at_])).token;
        tokens_.ids[S].push_back(next);
        if (k + 1 < steps) {
            int64_tensor({next}, token_);
            for (const int peer : d_.id_ranks)
                if (peer != rank_)
                    stage_.send(token_, peer, kTokenTag);
        }
        if (!timed)
            return;
        tokens_.ms[S].push_back(now_ms() - start_);
        if (!options_.reference)
            return;
        if (rank_ == 0)
            own_[S].push_back(std::move(results[logits_at_]));
        else
            finals_.send(results[logits_at_], 0, kFinalTag + static_cast<int>(d_.logits_output));
    }

    // The ids step `k` of sequence `s` feeds on this rank: the prompt, else the last token (from
    // the rank making the logits); none where this rank reads no ids.
    std::vector<std::int64_t> step_ids(int s, int k) {
        if (k == 0)
            return prompt(s, options_.prompt_tokens, d_.vocab);
        if (makes_logits_)
            return {tokens_.ids[static_cast<std::size_t>(s)].back()};
        if (!reads_ids_)
            return {};
        watchdog_.begin("the token of step " + std::to_string(k) + " from rank " +
                        std::to_string(d_.logits_rank));
        receive(token_, d_.logits_rank, kTokenTag);
        watchdog_.end();
        std::int64_t id = 0;
        std::memcpy(&id, token_.bytes.data(), sizeof id);
        return {id};
    }

    const PartitionRunOptions& options_;
    RankPlan& plan_;
    RankEngine& engine_;
    int rank_;
    Watchdog& watchdog_;
    DecodeLayout d_;
    bool reads_ids_, makes_logits_;
    std::size_t logits_at_;
    Tokens tokens_; // ids: one more sequence, the warm-up's
    std::vector<std::vector<HostTensor>> own_; // rank 0 making the logits: kept for the check
    Sends stage_, finals_;
    HostTensor token_;
    double start_ = 0;
    DecodeOutcome out_;
};

} // namespace

DecodeOutcome run_decode(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine,
                         RankEngine* whole, int rank, Watchdog& watchdog) {
    DecodeRank decode(options, plan, engine, rank, watchdog);
    decode.warm_up();
    return decode.run(whole);
}

} // namespace cleave::autodice
