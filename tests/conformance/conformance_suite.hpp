// ONNX's own conformance cases (a folder holding model.onnx and test_data_set_0/output_*.pb)
// run through the importer: does each model load, and do the inferred shapes of its graph
// outputs equal the tensors recorded beside it. Shared by the onnx_conformance tool and its test.
#pragma once

#include "core/graph/model.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace cleave::conformance {

struct ConformanceCase {
    std::filesystem::path folder;
    std::string name; // the folder relative to the searched root: "node/test_abs"
    // Why the shapes are not compared (an output that is a sequence, map or optional; no
    // recorded tensor); empty when they are.
    std::string excluded_because;
    std::vector<graph::Shape> recorded; // dims of output_i.pb, one per graph output
    // A graph input with a symbolic or unknown dim: the importer takes it as 1, which the
    // recorded data need not share; named in mismatch notes as a likely cause.
    bool unfixed_input_dims = false;
};

// Every folder under root holding a model.onnx, sorted by name. Throws std::runtime_error when
// root is not a folder.
std::vector<ConformanceCase> find_cases(const std::filesystem::path& root);

struct CaseNote {
    std::string name;
    std::string text; // the refusal message, the exception, the differing output, the time
};

struct SuiteResult {
    bool keep_declared_shapes = true;
    int models = 0;
    int loaded = 0;
    int refused = 0;  // an InputError: a clear message, the accepted way to fail
    int crashed = 0;  // any other exception: always a bug
    int compared = 0; // loaded and not excluded
    int matched = 0;
    std::vector<CaseNote> refusals;
    std::vector<CaseNote> crashes;
    std::vector<CaseNote> mismatches;
    std::vector<CaseNote> excluded;
    std::vector<CaseNote> slow; // loads that took longer than a second
};

// Loads every case with LoadOptions::keep_declared_shapes as given and compares output shapes.
// A load that runs longer than hang_limit_s prints the case's name and aborts the process, so a
// hang names its model instead of waiting for an outer timeout.
SuiteResult run_suite(const std::vector<ConformanceCase>& cases, bool keep_declared_shapes,
                      double hang_limit_s = 60);

// "declared shapes kept: 1072 loaded, 0 refused, 0 crashed; 1049 of 1051 match (21 excluded)"
std::string summary(const SuiteResult& result);

} // namespace cleave::conformance
