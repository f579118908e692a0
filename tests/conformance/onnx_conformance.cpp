// onnx_conformance: loads every ONNX conformance case under a folder (default: Debian's
// libonnx-testdata) with declared output shapes kept and with them re-inferred, and reports what
// loaded, what was refused, what crashed and whose output shapes differ from the recorded data.
// Exit codes: 0 nothing crashed, 1 a model crashed the importer, 2 bad usage or no such folder.
#include "conformance_suite.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

namespace {

using cleave::conformance::CaseNote;
using cleave::conformance::SuiteResult;

nlohmann::ordered_json notes_to_json(const std::vector<CaseNote>& notes, const char* field) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& note : notes)
        list.push_back({{"model", note.name}, {field, note.text}});
    return list;
}

nlohmann::ordered_json to_json(const SuiteResult& r) {
    return {{"keep_declared_shapes", r.keep_declared_shapes},
            {"models", r.models},
            {"loaded", r.loaded},
            {"refused", r.refused},
            {"crashed", r.crashed},
            {"compared", r.compared},
            {"matched", r.matched},
            {"excluded", r.excluded.size()},
            {"refusals", notes_to_json(r.refusals, "message")},
            {"crashes", notes_to_json(r.crashes, "reason")},
            {"mismatches", notes_to_json(r.mismatches, "reason")},
            {"excluded_models", notes_to_json(r.excluded, "reason")},
            {"slow", notes_to_json(r.slow, "time")}};
}

void print_notes(const std::vector<CaseNote>& notes, const char* kind) {
    for (const auto& note : notes)
        std::cout << "  " << kind << ' ' << note.name << ": " << note.text << '\n';
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Loads ONNX conformance models and compares inferred output shapes with the "
                 "recorded outputs (test_data_set_0/output_*.pb).",
                 "onnx_conformance"};
    std::string root = "/usr/share/libonnx-testdata/data";
    bool json = false;
    double hang_limit_s = 60;
    app.add_option("folder", root, "Folder searched for */model.onnx")->capture_default_str();
    app.add_flag("--json", json, "Print the results as JSON on stdout");
    app.add_option("--hang-limit", hang_limit_s,
                   "Seconds one load may take before it is taken for a hang and aborts")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.footer("Exit codes: 0 nothing crashed, 1 a model crashed the importer, 2 bad usage.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }

    std::vector<cleave::conformance::ConformanceCase> cases;
    try {
        cases = cleave::conformance::find_cases(root);
    } catch (const std::exception& e) {
        std::cerr << "onnx_conformance: " << e.what()
                  << " (Debian's libonnx-testdata installs them)\n";
        return 2;
    }
    const SuiteResult results[] = {cleave::conformance::run_suite(cases, true, hang_limit_s),
                                   cleave::conformance::run_suite(cases, false, hang_limit_s)};

    if (json) {
        nlohmann::ordered_json document = {{"folder", root}, {"modes", nlohmann::json::array()}};
        for (const auto& r : results)
            document["modes"].push_back(to_json(r));
        std::cout << document.dump(2) << '\n';
    } else {
        std::cout << cases.size() << " ONNX conformance models in " << root << '\n';
        for (const auto& r : results) {
            std::cout << cleave::conformance::summary(r) << '\n';
            print_notes(r.crashes, "CRASHED");
            print_notes(r.refusals, "refused");
            print_notes(r.mismatches, "mismatch");
            print_notes(r.slow, "slow");
        }
    }
    for (const auto& r : results)
        if (r.crashed > 0)
            return 1;
    return 0;
}
