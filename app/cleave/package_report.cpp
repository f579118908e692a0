#include "package_report.hpp"

#include "output.hpp"

#include <cstdio>

namespace cleave::cli {

namespace {

std::uint64_t total_bytes(const std::vector<autodice::WrittenFile>& files) {
    std::uint64_t total = 0;
    for (const auto& f : files)
        total += f.bytes;
    return total;
}

std::vector<std::string> buffer_names(const graph::Model& model, const std::vector<int>& tensors) {
    std::vector<std::string> names;
    for (const int t : tensors)
        names.push_back(graph::sub_model_tensor_name(
            model.tensors[static_cast<std::size_t>(t)].name, graph::SubModelNaming::autodice));
    return names;
}

std::string slots_of(const PackageReport& report, const std::string& key) {
    if (!report.cluster)
        return {};
    const auto* pe = report.cluster->find_pe(key);
    return pe ? autodice::rank_slots(*report.cluster, *pe) : std::string();
}

} // namespace

nlohmann::ordered_json package_report_json(const PackageReport& report) {
    const auto& model = *report.model;
    const auto& package = *report.package;
    auto ranks = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < package.parts.size(); ++r) {
        const auto& part = package.parts[r];
        const auto& plan = package.sub_models[r];
        nlohmann::ordered_json rank{{"rank", r}, {"key", part.key}};
        if (report.cluster) {
            rank["host"] = report.cluster->find_pe(part.key)->host;
            rank["slots"] = slots_of(report, part.key);
        }
        rank["nodes"] = plan.nodes.size();
        rank["inputs"] = buffer_names(model, plan.inputs);
        rank["outputs"] = buffer_names(model, plan.outputs);
        rank["initializers"] = plan.initializers.size();
        rank["sub_model"] = nlohmann::ordered_json();
        for (const auto& f : report.files)
            if (f.name == part.key + ".onnx")
                rank["sub_model"] = {{"file", f.name}, {"bytes", f.bytes}};
        ranks.push_back(std::move(rank));
    }
    auto files = nlohmann::ordered_json::array();
    for (const auto& f : report.files)
        files.push_back({{"name", f.name}, {"bytes", f.bytes}});
    return {{"model", model.file},
            {"cluster", report.cluster ? nlohmann::ordered_json(report.cluster->file)
                                       : nlohmann::ordered_json()},
            {"rules", report.rules},
            {"kernels", report.kernels},
            {"cut_kernels", report.cut_kernels},
            {"out", report.folder},
            {"ranks", ranks},
            {"files", files},
            {"bytes", total_bytes(report.files)},
            {"seconds", report.seconds}};
}

void print_package_report(const PackageReport& report) {
    const auto& package = *report.package;
    std::printf("%s: %zu ranks, %zu files, %s bytes in %.3f s\n", report.folder.c_str(),
                package.parts.size(), report.files.size(),
                grouped(static_cast<std::int64_t>(total_bytes(report.files))).c_str(),
                report.seconds);
    std::printf("  %4s %-18s %-12s %6s %7s %8s %15s\n", "rank", "key", "slots", "nodes", "inputs",
                "outputs", "sub-model bytes");
    for (std::size_t r = 0; r < package.parts.size(); ++r) {
        const auto& part = package.parts[r];
        const auto& plan = package.sub_models[r];
        std::string bytes = "-";
        for (const auto& f : report.files)
            if (f.name == part.key + ".onnx")
                bytes = grouped(static_cast<std::int64_t>(f.bytes));
        std::printf("  %4zu %-18s %-12s %6zu %7zu %8zu %15s\n", r, part.key.c_str(),
                    slots_of(report, part.key).c_str(), plan.nodes.size(), plan.inputs.size(),
                    plan.outputs.size(), bytes.c_str());
    }
}

void emit_package_report(const PackageReport& report, bool json) {
    if (json)
        emit_json(package_report_json(report), true, "");
    else
        print_package_report(report);
}

} // namespace cleave::cli
