// What `cleave export-autodice` and `cleave split` print about a written AutoDiCE package: each
// rank with its PE key, nodes, input and output buffers and file, as text or JSON.
#pragma once

#include "core/autodice/export.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cleave::cli {

struct PackageReport {
    const graph::Model* model = nullptr;
    const device::Cluster* cluster = nullptr; // may be null (split without --cluster)
    std::string rules;
    int kernels = 0;
    std::string folder;
    const autodice::Package* package = nullptr;
    std::vector<autodice::WrittenFile> files;
    double seconds = 0;
    std::vector<std::string> cut_kernels; // kernels the mapping cut (autodice::MappedKernels::cut)
};

nlohmann::ordered_json package_report_json(const PackageReport& report);
void print_package_report(const PackageReport& report);
// JSON on stdout with `json`, else the text.
void emit_package_report(const PackageReport& report, bool json);

} // namespace cleave::cli
