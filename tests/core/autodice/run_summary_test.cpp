// run-summary.json as rank 0 writes it: every figure read, and a summary that is cut short or
// holds the wrong figure refused with the file and the JSON pointer.
#include "core/autodice/run_summary.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

using cleave::autodice::parse_run_summary;

namespace {

// What the MPI runner wrote for two ranks, with run-partition --cluster's prediction beside it.
const std::string kSummary = R"json({
  "format": "cleave-run-summary", "version": 1, "package": "resnet18-2", "model": "resnet18.onnx",
  "runtime": "OpenCV 4.6.0 DNN (CPU)", "ranks": 2, "inputs": 4, "threads": 1,
  "wall_ms": 250.5, "throughput_ips": 15.97, "max_abs_diff": 0,
  "per_rank": [
    {"rank": 0, "key": "h1_cpu0", "host": "h1", "compute_ms": 120.25,
     "compute_ms_per_input": 30.06, "receive_wait_ms": 0, "send_wait_ms": 1.5,
     "wall_ms": 250.5, "peak_rss_kib": 181234},
    {"rank": 1, "key": "h2_cpu0", "host": "h2", "compute_ms": 110,
     "compute_ms_per_input": 27.5, "receive_wait_ms": 40.75, "send_wait_ms": 0,
     "wall_ms": 249, "peak_rss_kib": 170000}],
  "predicted": {"cluster": "x2.cluster.json", "predictor": "shipped or roofline",
                "throughput_ips": 18.2, "measured_over_predicted": 0.8775,
                "per_rank": [{"key": "h1_cpu0", "time_ms": 27.1}, {"key": "h2_cpu0", "time_ms": 25}]}
})json";

std::string replaced(const std::string& from, const std::string& to) {
    std::string text = kSummary;
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::logic_error("test text has no " + from);
    return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
    try {
        parse_run_summary(text, "pkg/run-summary.json");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class RunSummaryTest : public QObject {
    Q_OBJECT

private slots:
    void readsEveryFigure() {
        const auto s = parse_run_summary(kSummary, "pkg/run-summary.json");
        QCOMPARE(s.runtime, std::string("OpenCV 4.6.0 DNN (CPU)"));
        QCOMPARE(s.ranks, 2);
        QCOMPARE(s.inputs, 4);
        QCOMPARE(s.wall_ms, 250.5);
        QCOMPARE(s.throughput_ips, 15.97);
        QCOMPARE(s.max_abs_diff, std::optional<double>(0.0));
        QCOMPARE(s.per_rank.size(), std::size_t{2});
        const auto& r1 = s.per_rank[1];
        QCOMPARE(r1.rank, 1);
        QCOMPARE(r1.key, std::string("h2_cpu0"));
        QCOMPARE(r1.host, std::string("h2"));
        QCOMPARE(r1.compute_ms, 110.0);
        QCOMPARE(r1.compute_ms_per_input, 27.5);
        QCOMPARE(r1.receive_wait_ms, 40.75);
        QCOMPARE(r1.send_wait_ms, 0.0);
        QCOMPARE(r1.wall_ms, 249.0);
        QCOMPARE(r1.peak_rss_kib, 170000.0);
        QVERIFY(s.predicted);
        QCOMPARE(s.predicted->throughput_ips, 18.2);
        QCOMPARE(s.predicted->measured_over_predicted, 0.8775);
    }

    // A run without the whole model's check writes null.
    void anUncheckedRunHasNoDifference() {
        auto json = nlohmann::json::parse(kSummary);
        json["max_abs_diff"] = nullptr;
        QVERIFY(!parse_run_summary(json.dump(), "pkg/run-summary.json").max_abs_diff);
        json["max_abs_diff"] = "none";
        QVERIFY_THROWS_EXCEPTION(cleave::InputError,
                                 parse_run_summary(json.dump(), "pkg/run-summary.json"));
    }

    // A decode run's figures and its prediction; a ratio without a measurement is null.
    void aDecodeRunsFiguresAreRead() {
        auto json = nlohmann::json::parse(kSummary);
        json["decode"] = {{"prompt_tokens", 128},
                          {"generate", 64},
                          {"sequences", 1},
                          {"ttft_ms", 410.5},
                          {"tpot_ms", 42.25},
                          {"tokens_per_s", 21.5},
                          {"decode_tokens_per_s", 23.7},
                          {"hop_ms", 0.75},
                          {"token_mismatches", 0},
                          {"near_ties", 2},
                          {"per_sequence", {}}};
        json["predicted"]["ttft_ms"] = 400.0;
        json["predicted"]["tpot_ms"] = 40.0;
        json["predicted"]["measured_over_predicted"] = nullptr;
        json["per_rank"][0]["engine_ms"] = 100.5;
        const auto s = parse_run_summary(json.dump(), "run-summary.json");
        QVERIFY(s.decode.has_value());
        QCOMPARE(s.decode->prompt_tokens, 128);
        QCOMPARE(s.decode->tpot_ms, 42.25);
        QCOMPARE(s.decode->decode_tokens_per_s, std::optional(23.7));
        QCOMPARE(s.decode->hop_ms, std::optional(0.75));
        QCOMPARE(s.decode->token_mismatches, std::optional(0));
        QCOMPARE(s.predicted->ttft_ms, std::optional(400.0));
        QVERIFY(std::isnan(s.predicted->measured_over_predicted));
        QCOMPARE(s.per_rank[0].engine_ms, 100.5);
        QCOMPARE(s.per_rank[1].engine_ms, 0.0);
        json["decode"]["tpot_ms"] = "fast";
        try {
            parse_run_summary(json.dump(), "run-summary.json");
            QFAIL("a time per token that is no number was read");
        } catch (const cleave::InputError& e) {
            QVERIFY2(std::string(e.what()).find("/decode/tpot_ms") != std::string::npos, e.what());
        }
    }

    void aSummaryWithoutPredictionHasNone() {
        const auto at = kSummary.find(",\n  \"predicted\"");
        const auto s = parse_run_summary(kSummary.substr(0, at) + "}", "run-summary.json");
        QVERIFY(!s.predicted);
    }

    void aCutSummaryNamesTheByte() {
        const std::string error = error_of(kSummary.substr(0, 100));
        QVERIFY2(error.starts_with("pkg/run-summary.json: byte 101: not valid JSON; expected a "
                                   "run summary"),
                 error.c_str());
    }

    void anotherFormatIsRefused() {
        QCOMPARE(error_of(replaced("cleave-run-summary", "cleave-device")),
                 std::string("pkg/run-summary.json: /format: expected \"cleave-run-summary\""));
    }

    void aFigureOfTheWrongTypeNamesItsPointer() {
        QCOMPARE(error_of(replaced("\"throughput_ips\": 15.97", "\"throughput_ips\": \"fast\"")),
                 std::string("pkg/run-summary.json: /throughput_ips: expected a number >= 0 "
                             "(inputs/s), found string"));
        QCOMPARE(error_of(replaced("\"key\": \"h2_cpu0\", \"host\"", "\"key\": 2, \"host\"")),
                 std::string("pkg/run-summary.json: /per_rank/1/key: expected a PE key, found "
                             "number"));
        QCOMPARE(error_of(replaced("\"measured_over_predicted\": 0.8775", "\"x\": 1")),
                 std::string("pkg/run-summary.json: /predicted: missing "
                             "\"measured_over_predicted\"; expected a number or null"));
    }

    void oneEntryPerRankInOrder() {
        QCOMPARE(error_of(replaced("\"ranks\": 2", "\"ranks\": 3")),
                 std::string("pkg/run-summary.json: /per_rank: expected 3 entries, one per rank, "
                             "found 2"));
        QCOMPARE(error_of(replaced("\"rank\": 1,", "\"rank\": 0,")),
                 std::string("pkg/run-summary.json: /per_rank/1/rank: expected 1, the ranks in "
                             "order"));
    }
};

QTEST_GUILESS_MAIN(RunSummaryTest)
#include "run_summary_test.moc"
