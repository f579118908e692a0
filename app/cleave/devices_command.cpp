// cleave devices list | show: the device library (and this machine), or one device in full.
#include "commands.hpp"
#include "core/calibration/device_bundle.hpp"
#include "core/device/device_library.hpp"
#include "core/device/pe_key.hpp"
#include "core/device/user_library.hpp"
#include "core/input_error.hpp"
#include "core/predict/predictor_library.hpp"
#include "output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace cleave::cli {

namespace {

using device::DeviceSpec;
using device::PeKind;
using device::ProcessingElement;

struct DevicesOptions {
    std::string device;    // show: an id or a device file; export, remove: a user device id
    std::string file;      // import: a bundle or a device file
    std::string predictor; // import: the predictor of a lone device file
    bool json = false;
    std::string out;
};

// The predictor the device's PEs get when none is named: the user library's or a shipped one
// (a path), else null (a roofline from the PEs' figures).
nlohmann::ordered_json predictor_json(const DeviceSpec& d) {
    const auto file = predict::shipped_predictor(d.id);
    return file ? nlohmann::ordered_json(file->string()) : nlohmann::ordered_json(nullptr);
}

// 844.8, 1979000, 0.625: at most four decimals, no trailing zeros.
std::string figure(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.4f", value);
    std::string shown = text;
    shown.erase(shown.find_last_not_of('0') + 1);
    if (shown.back() == '.')
        shown.pop_back();
    return shown;
}

std::string figure(const std::optional<double>& value) {
    return value ? figure(*value) : "-";
}

nlohmann::ordered_json optional_json(const std::optional<double>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json pe_summary_json(const DeviceSpec& d, const ProcessingElement& pe) {
    nlohmann::ordered_json out{{"resource", device::pe_resource(pe)},
                               {"kind", device::to_string(pe.kind)},
                               {"name", pe.name},
                               {"arch", pe.arch}};
    if (pe.kind == PeKind::cpu)
        out["cores"] = pe.cores;
    out["peak_gflops"] = {{"fp32", optional_json(pe.peak_gflops.fp32)},
                          {"fp16", optional_json(pe.peak_gflops.fp16)},
                          {"int8", optional_json(pe.peak_gflops.int8)},
                          {"derived", pe.peak_gflops.derived}};
    out["memory_bandwidth_gbs"] = optional_json(device::memory_bandwidth_gbs(d, pe));
    if (pe.memory_gib)
        out["memory_gib"] = *pe.memory_gib; // a memory of its own
    return out;
}

nlohmann::ordered_json list_json(const std::vector<DeviceSpec>& devices) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& d : devices) {
        auto pes = nlohmann::ordered_json::array();
        for (const auto& pe : d.processing_elements)
            pes.push_back(pe_summary_json(d, pe));
        list.push_back(
            {{"id", d.id},
             {"name", d.name},
             {"kind", device::to_string(d.kind)},
             {"origin", device::device_origin(d)},
             {"measured", d.measurement.has_value()},
             {"predictor", predictor_json(d)},
             {"pes", pes},
             {"memory_gib", optional_json(d.memory ? d.memory->capacity_gib : std::nullopt)},
             {"memory_bandwidth_gbs",
              optional_json(d.memory ? d.memory->bandwidth_gbs : std::nullopt)},
             {"network_gbps", optional_json(d.network ? d.network->bandwidth_gbps : std::nullopt)},
             {"source", d.source}});
    }
    return {{"devices", list}};
}

// One line per device; columns as wide as their widest cell, figures right-aligned. A derived
// peak carries a '*', explained under the table.
void print_list(const std::vector<DeviceSpec>& devices) {
    std::vector<std::array<std::string, 8>> rows{
        {"id", "from", "kind", "PEs", "fp32 GFLOP/s per PE", "memory", "GB/s", "name"}};
    bool any_derived = false;
    for (const auto& d : devices) {
        std::string pes, peaks;
        for (const auto& pe : d.processing_elements) {
            const bool derived = pe.peak_gflops.fp32 && pe.peak_gflops.derived;
            any_derived = any_derived || derived;
            pes += (pes.empty() ? "" : " ") + device::pe_resource(pe);
            peaks += (peaks.empty() ? "" : " / ") + figure(pe.peak_gflops.fp32) +
                     (derived ? "*" : "");
        }
        const std::string memory =
            d.memory && d.memory->capacity_gib
                ? figure(std::round(*d.memory->capacity_gib * 10) / 10) + " GiB"
                : "-";
        rows.push_back({d.id, device::device_origin(d), device::to_string(d.kind), pes, peaks,
                        memory, figure(d.memory ? d.memory->bandwidth_gbs : std::nullopt), d.name});
    }
    std::array<std::size_t, 8> width{};
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(width[c] - row[c].size(), ' ');
            const bool figures = c == 5 || c == 6;
            line += figures ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : "");
            line += c + 1 < row.size() ? "  " : "";
        }
        std::printf("%s\n", line.c_str());
    }
    if (any_derived)
        std::printf("\n* derived: cores x clock x FLOP per clock, no document giving the rate "
                    "(cleave devices show ID gives the derivation)\n");
}

// The non-empty parts, comma-separated.
std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& part : parts)
        if (!part.empty())
            text += (text.empty() ? "" : ", ") + part;
    return text;
}

void print_line(const char* label, const std::string& text) {
    if (!text.empty())
        std::printf("%-10s %s\n", label, text.c_str());
}

std::string caches_text(const ProcessingElement& pe) {
    std::string text;
    for (const auto& c : pe.caches) {
        const std::string kind = c.kind == "data"          ? "d"
                                 : c.kind == "instruction" ? "i"
                                                           : std::string();
        std::string per = c.shared_by == 0   ? "in all"
                          : c.shared_by == 1 ? "per core"
                                             : "per " + std::to_string(c.shared_by) + " cores";
        text += (text.empty() ? "" : ", ") +
                ("L" + std::to_string(c.level) + kind + " " + figure(c.size_kib) + " KiB " + per);
    }
    return text;
}

void print_device(const DeviceSpec& d) {
    std::printf("%s: %s\n", d.id.c_str(), d.name.c_str());
    print_line("kind", device::to_string(d.kind));
    print_line("file", d.file);
    print_line("source", d.source);
    print_line("note", d.note);
    if (const auto& m = d.measurement)
        print_line("measured",
                   m->runtime +
                       (m->threads ? ", " + std::to_string(*m->threads) + " threads" : "") +
                       (m->dtype.empty() ? "" : ", " + m->dtype) + " (" + m->data + ")");
    for (const auto& pe : d.processing_elements) {
        std::string what;
        if (pe.kind == PeKind::cpu) {
            what = std::to_string(pe.cores) + " " + pe.arch + " cores" +
                   (pe.core_type.empty() ? "" : " (" + pe.core_type + ")");
            if (pe.threads_per_core > 1)
                what += ", " + std::to_string(pe.threads_per_core) + " threads per core";
        } else {
            what = pe.arch;
            if (!pe.api.empty() || !pe.compute_capability.empty())
                what += " (" + pe.api +
                        (pe.compute_capability.empty()
                             ? ""
                             : (pe.api.empty() ? "" : ", ") + std::string("compute capability ") +
                                   pe.compute_capability) +
                        ")";
            if (pe.sms)
                what += ", " + std::to_string(pe.sms) + " SMs";
            if (pe.cuda_cores)
                what += ", " + std::to_string(pe.cuda_cores) + " CUDA cores";
            if (pe.tensor_cores)
                what += ", " + std::to_string(pe.tensor_cores) + " Tensor Cores";
        }
        if (pe.clock_ghz)
            what += ", " + figure(*pe.clock_ghz) + " GHz";
        if (pe.max_clock_ghz)
            what += " (up to " + figure(*pe.max_clock_ghz) + " GHz)";
        std::printf("\nPE %-12s %s: %s\n", device::pe_resource(pe).c_str(), pe.name.c_str(),
                    what.c_str());
        const auto& peak = pe.peak_gflops;
        std::printf("  %-10s fp32 %s, fp16 %s, int8 %s GFLOP/s%s\n", "peak",
                    figure(peak.fp32).c_str(), figure(peak.fp16).c_str(),
                    figure(peak.int8).c_str(), peak.derived ? ", derived" : "");
        if (pe.memory_gib)
            std::printf("  %-10s %s GiB of its own%s, %s GB/s\n", "memory",
                        figure(pe.memory_gib).c_str(),
                        pe.memory_reserve_gib
                            ? (", " + figure(pe.memory_reserve_gib) + " GiB reserved").c_str()
                            : "",
                        figure(device::memory_bandwidth_gbs(d, pe)).c_str());
        else
            std::printf("  %-10s %s GB/s\n", "memory",
                        figure(device::memory_bandwidth_gbs(d, pe)).c_str());
        if (!pe.caches.empty())
            std::printf("  %-10s %s\n", "caches", caches_text(pe).c_str());
        if (pe.busy_w || pe.tdp_w)
            std::printf("  %-10s %s\n", "power",
                        joined({pe.busy_w ? "busy " + figure(*pe.busy_w) + " W" : "",
                                pe.tdp_w ? "TDP " + figure(*pe.tdp_w) + " W" : ""})
                            .c_str());
        for (const auto& [label, text] :
             {std::pair{"source", pe.source}, std::pair{"note", pe.note},
              std::pair{"peak from", peak.source}, std::pair{"peak note", peak.note}})
            if (!text.empty())
                std::printf("  %-10s %s\n", label, text.c_str());
    }
    std::printf("\n");
    if (const auto& m = d.memory) {
        std::string size = m->capacity_gib ? figure(*m->capacity_gib) + " GiB" : "";
        size += (size.empty() || m->type.empty() ? "" : " ") + m->type;
        print_line(
            "memory",
            joined({size, m->bus_width_bits ? std::to_string(*m->bus_width_bits) + "-bit" : "",
                    m->bandwidth_gbs ? figure(*m->bandwidth_gbs) + " GB/s" : ""}));
        print_line("  source", m->source);
        print_line("  note", m->note);
    }
    if (const auto& p = d.power) {
        std::string modes;
        for (const double w : p->modes_w)
            modes += (modes.empty() ? "" : ", ") + figure(w);
        print_line("power", joined({p->idle_w ? "idle " + figure(*p->idle_w) + " W" : "",
                                    modes.empty() ? "" : "modes " + modes + " W",
                                    p->communication_w
                                        ? "communication " + figure(*p->communication_w) + " W"
                                        : ""}));
        print_line("  source", p->source);
        print_line("  note", p->note);
    }
    if (const auto& n = d.network) {
        print_line(
            "network",
            joined({n->interface, n->bandwidth_gbps ? figure(*n->bandwidth_gbps) + " Gbit/s" : "",
                    n->latency_us ? "latency " + figure(*n->latency_us) + " us" : ""}));
        print_line("  source", n->source);
        print_line("  note", n->note);
    }
}

} // namespace

Action add_devices_command(CLI::App& app) {
    auto options = std::make_shared<DevicesOptions>();
    auto* devices = app.add_subcommand(
        "devices", "The device library: processing elements, peak rates, memory, sources");
    devices->require_subcommand(1);
    auto* list = devices->add_subcommand(
        "list", "List the built-in devices, the user's calibrated devices and this machine with "
                "their PEs and key figures");
    list->add_flag("--json", options->json, "Print {\"devices\": [...]} as JSON");
    list->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    auto* show = devices->add_subcommand("show", "Show one device in full, with its sources");
    show->add_option("device", options->device,
                     "A device id (cleave devices list) or a device file (.json)")
        ->required();
    show->add_flag("--json", options->json,
                   "Print the device in its file format (docs/devices.md)");
    show->add_option("--out", options->out, "Write the device file to FILE (atomically)");
    auto* import = devices->add_subcommand(
        "import", "Add a device to the user library: a bundle from cleave devices export, or a "
                  "device file of your own");
    import->add_option("file", options->file, "A device bundle or a device file (.json)")
        ->required();
    import->add_option("--predictor", options->predictor,
                       "A predictor file (cleave train) for a lone device file");
    import->add_flag("--json", options->json, "Print the installed device as JSON");
    auto* exported = devices->add_subcommand(
        "export", "Write a user device and its predictor as one bundle, for cleave devices "
                  "import on another machine");
    exported->add_option("device", options->device, "A user device id")->required();
    exported->add_option("--out", options->out, "The bundle file (.json or .json.xz)")->required();
    auto* remove = devices->add_subcommand("remove", "Remove a device from the user library");
    remove->add_option("device", options->device, "A user device id")->required();
    return [options, list, import, exported, remove] {
        if (list->parsed()) {
            std::vector<DeviceSpec> all = device::library_devices();
            all.push_back(*device::library_device("this-machine"));
            if (options->json || !options->out.empty())
                emit_json(list_json(all), options->json, options->out);
            if (!options->json)
                print_list(all);
            return 0;
        }
        if (import->parsed()) {
            const DeviceSpec d = calibration::import_device(options->file, options->predictor);
            if (options->json)
                emit_json({{"device", d.id},
                           {"device_file", device::user_device_file(d.id).string()},
                           {"predictor", predictor_json(d)}},
                          true, "");
            else
                std::printf("imported %s (%s) into %s\n", d.id.c_str(), d.name.c_str(),
                            device::user_devices_folder().c_str());
            return 0;
        }
        if (exported->parsed()) {
            calibration::export_device_bundle(options->device, options->out);
            std::printf("wrote %s\n", options->out.c_str());
            return 0;
        }
        if (remove->parsed()) {
            if (!device::remove_user_device(options->device))
                throw InputError("", options->device,
                                 "is not in the user library (" +
                                     device::user_devices_folder().string() + ")");
            std::printf("removed %s from the user library\n", options->device.c_str());
            return 0;
        }
        const DeviceSpec d = device::find_device(options->device);
        if (options->json || !options->out.empty())
            emit_json(nlohmann::ordered_json::parse(device::device_spec_json(d)), options->json,
                      options->out);
        if (!options->json)
            print_device(d);
        return 0;
    };
}

} // namespace cleave::cli
