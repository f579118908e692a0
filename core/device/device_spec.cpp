#include "device_spec.hpp"

#include "../input_error.hpp"
#include "../json_reader.hpp"
#include "pe_key.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace cleave::device {

namespace {

// 4 -> "4", 1.5 -> "1.5": a figure as a person writes it, for messages.
std::string number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

using nlohmann::json;
using nlohmann::ordered_json;

constexpr int kMaxCores = 4096;
// Every section that holds figures names where they come from.
constexpr const char* kSource =
    "a string naming the datasheet or measurement its figures come from";

const std::vector<std::pair<DeviceKind, std::string>> kDeviceKinds{{DeviceKind::cpu, "cpu"},
                                                                   {DeviceKind::gpu, "gpu"},
                                                                   {DeviceKind::npu, "npu"},
                                                                   {DeviceKind::soc, "soc"}};

bool alphanumeric(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    });
}

// "7.2", "9.0"
bool compute_capability_form(const std::string& text) {
    const auto dot = text.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == text.size())
        return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) &&
           text.find('.', dot + 1) == std::string::npos;
}

// A string that must be one of `choices`.
std::string choice(const JsonReader& reader, const json& object, const std::string& pointer,
                   const std::string& key, const std::vector<std::string>& choices, bool required,
                   const std::string& fallback = "") {
    std::string list;
    for (const auto& c : choices)
        list += (list.empty() ? "" : ", ") + c;
    const json* value = reader.member(object, pointer, key, required, "one of " + list);
    if (!value)
        return fallback;
    if (value->is_string())
        for (const auto& c : choices)
            if (value->get<std::string>() == c)
                return c;
    reader.fail(child_pointer(pointer, key),
                "expected one of " + list + ", found " +
                    (value->is_string() ? value->dump() : value->type_name()));
}

class DeviceReader {
public:
    explicit DeviceReader(const std::string& file) : reader_(file) {}

    DeviceSpec read(const std::string& text) {
        const json root = reader_.parse(text, "a device file (\"format\": \"cleave-device\")");
        reader_.expect_object(root, "", "a JSON object with \"format\": \"cleave-device\"");
        if (reader_.string(root, "", "format", true) != "cleave-device")
            reader_.fail("/format", "expected \"cleave-device\"");
        const auto version = reader_.member(root, "", "version", true, "a whole number");
        if (!version->is_number_integer())
            reader_.fail("/version",
                         "expected a whole number, found " + std::string(version->type_name()));
        if (version->get<std::int64_t>() != 1)
            reader_.fail("/version", "version " + version->dump() + " is not known; expected 1");
        reader_.only_known(root, "",
                           {"format", "version", "id", "name", "kind", "source", "note",
                            "processing_elements", "memory", "power", "network", "measurement"});

        DeviceSpec device;
        device.file = reader_.file();
        device.id = reader_.string(root, "", "id", true);
        if (!is_device_id(device.id))
            reader_.fail("/id", device_id_problem(device.id));
        device.name = reader_.string(root, "", "name", true);
        const std::string kind =
            choice(reader_, root, "", "kind", {"cpu", "gpu", "npu", "soc"}, true);
        for (const auto& [k, name] : kDeviceKinds)
            if (name == kind)
                device.kind = k;
        device.source = reader_.string(root, "", "source", true, kSource);
        device.note = reader_.string(root, "", "note", false);

        const json* pes =
            reader_.array(root, "", "processing_elements", true, "a list of processing elements");
        if (pes->empty())
            reader_.fail("/processing_elements", "expected at least one processing element");
        for (std::size_t i = 0; i < pes->size(); ++i)
            device.processing_elements.push_back(
                read_pe((*pes)[i], child_pointer("/processing_elements", i)));
        assign_core_ids(device, *pes);

        if (const json* memory =
                reader_.object(root, "", "memory", false, "an object describing memory"))
            device.memory = read_memory(*memory, "/memory");
        if (const json* power =
                reader_.object(root, "", "power", false, "an object describing power"))
            device.power = read_power(*power, "/power");
        if (const json* network = reader_.object(root, "", "network", false,
                                                 "an object describing the network interface"))
            device.network = read_network(*network, "/network");
        if (const json* measurement = reader_.object(root, "", "measurement", false,
                                                     "an object naming the measured data"))
            device.measurement = read_measurement(*measurement, "/measurement");
        return device;
    }

private:
    ProcessingElement read_pe(const json& entry, const std::string& pointer) {
        reader_.expect_object(entry, pointer, "a processing element object");
        ProcessingElement pe;
        const std::string kind = choice(reader_, entry, pointer, "kind", {"cpu", "gpu"}, true);
        const std::vector<std::string> common{"kind",
                                              "name",
                                              "arch",
                                              "clock_ghz",
                                              "max_clock_ghz",
                                              "peak_gflops",
                                              "memory_bandwidth_gbs",
                                              "memory_gib",
                                              "memory_reserve_gib",
                                              "caches",
                                              "busy_w",
                                              "tdp_w",
                                              "source",
                                              "note"};
        std::vector<std::string> known = common;
        if (kind == "cpu") {
            pe.kind = PeKind::cpu;
            known.insert(known.end(), {"core_type", "cores", "core_ids", "threads_per_core"});
            reader_.only_known(entry, pointer, known);
            pe.name = reader_.string(entry, pointer, "name", true);
            pe.arch = choice(reader_, entry, pointer, "arch", {"arm", "x86_64"}, true);
            pe.core_type = reader_.string(entry, pointer, "core_type", false);
            pe.cores = *reader_.whole_number(entry, pointer, "cores", true, 1, kMaxCores);
            pe.threads_per_core =
                reader_.whole_number(entry, pointer, "threads_per_core", false, 1, 16).value_or(1);
        } else {
            pe.kind = PeKind::gpu;
            known.insert(known.end(),
                         {"api", "compute_capability", "sms", "cuda_cores", "tensor_cores"});
            reader_.only_known(entry, pointer, known);
            pe.name = reader_.string(entry, pointer, "name", true);
            pe.arch = reader_.string(entry, pointer, "arch", true);
            if (!alphanumeric(pe.arch))
                reader_.fail(child_pointer(pointer, "arch"),
                             "expected a GPU architecture as AutoDiCE's platform.txt writes it, "
                             "letters and digits such as \"NVIDIAVolta\", found \"" +
                                 pe.arch + "\"");
            pe.api = reader_.string(entry, pointer, "api", false);
            pe.compute_capability = reader_.string(entry, pointer, "compute_capability", false);
            if (!pe.compute_capability.empty() && !compute_capability_form(pe.compute_capability))
                reader_.fail(child_pointer(pointer, "compute_capability"),
                             "expected MAJOR.MINOR such as \"7.2\", found \"" +
                                 pe.compute_capability + "\"");
            pe.sms = reader_.whole_number(entry, pointer, "sms", false, 1, 100000).value_or(0);
            pe.cuda_cores =
                reader_.whole_number(entry, pointer, "cuda_cores", false, 1, 10000000).value_or(0);
            pe.tensor_cores =
                reader_.whole_number(entry, pointer, "tensor_cores", false, 1, 10000000)
                    .value_or(0);
        }
        pe.clock_ghz = reader_.number(entry, pointer, "clock_ghz", false, "GHz");
        pe.max_clock_ghz = reader_.number(entry, pointer, "max_clock_ghz", false, "GHz");
        if (pe.clock_ghz && pe.max_clock_ghz && *pe.max_clock_ghz < *pe.clock_ghz)
            reader_.fail(child_pointer(pointer, "max_clock_ghz"),
                         "expected a clock at least clock_ghz (" + json(*pe.clock_ghz).dump() +
                             " GHz)");
        if (const json* peak = reader_.object(entry, pointer, "peak_gflops", false,
                                              "an object with fp32, fp16 and int8 rates"))
            pe.peak_gflops = read_peak(*peak, child_pointer(pointer, "peak_gflops"));
        pe.memory_bandwidth_gbs =
            reader_.number(entry, pointer, "memory_bandwidth_gbs", false, "GB/s");
        pe.memory_gib = reader_.number(entry, pointer, "memory_gib", false, "GiB");
        pe.memory_reserve_gib =
            reader_.number(entry, pointer, "memory_reserve_gib", false, "GiB", true);
        if (pe.memory_reserve_gib && !pe.memory_gib)
            reader_.fail(child_pointer(pointer, "memory_reserve_gib"),
                         "expected it only beside memory_gib (a PE sharing the device memory has "
                         "the device's reserve, memory.reserve_gib)");
        if (pe.memory_reserve_gib && *pe.memory_reserve_gib >= *pe.memory_gib)
            reader_.fail(child_pointer(pointer, "memory_reserve_gib"),
                         "expected a reserve below memory_gib (" + number_text(*pe.memory_gib) +
                             " GiB)");
        if (const json* caches = reader_.array(entry, pointer, "caches", false, "a list of caches"))
            for (std::size_t i = 0; i < caches->size(); ++i)
                pe.caches.push_back(
                    read_cache((*caches)[i], child_pointer(child_pointer(pointer, "caches"), i)));
        pe.busy_w = reader_.number(entry, pointer, "busy_w", false, "W");
        pe.tdp_w = reader_.number(entry, pointer, "tdp_w", false, "W");
        pe.source = reader_.string(entry, pointer, "source", true, kSource);
        pe.note = reader_.string(entry, pointer, "note", false);
        return pe;
    }

    // Core numbers: as given, else the next free ones after the CPU PEs before. Every number
    // once per device, and nameable as an AutoDiCE key.
    void assign_core_ids(DeviceSpec& device, const json& pes) {
        std::map<int, std::string> owner; // core number -> pointer of the PE that has it
        int next = 0;
        bool gpu_seen = false;
        for (std::size_t i = 0; i < device.processing_elements.size(); ++i) {
            auto& pe = device.processing_elements[i];
            const std::string pointer = child_pointer("/processing_elements", i);
            if (pe.kind == PeKind::gpu) {
                if (gpu_seen)
                    reader_.fail(pointer, "a second GPU; expected at most one GPU per device "
                                          "(AutoDiCE names a host's GPU \"gpu\")");
                gpu_seen = true;
                continue;
            }
            const json& entry = pes[i];
            const std::string ids_pointer = child_pointer(pointer, "core_ids");
            if (const json* ids = reader_.array(entry, pointer, "core_ids", false,
                                                "a list of CPU numbers, one per core")) {
                if (ids->size() != static_cast<std::size_t>(pe.cores))
                    reader_.fail(ids_pointer, "expected " + std::to_string(pe.cores) +
                                                  " CPU numbers, one per core, found " +
                                                  std::to_string(ids->size()));
                for (std::size_t k = 0; k < ids->size(); ++k) {
                    const json& id = (*ids)[k];
                    if (!id.is_number_integer() || id.get<std::int64_t>() < 0 ||
                        id.get<std::int64_t>() >= kMaxCores)
                        reader_.fail(child_pointer(ids_pointer, k),
                                     "expected a CPU number from 0 to " +
                                         std::to_string(kMaxCores - 1) + ", found " + id.dump());
                    pe.core_ids.push_back(id.get<int>());
                }
            } else {
                for (int k = 0; k < pe.cores; ++k)
                    pe.core_ids.push_back(next + k);
            }
            for (std::size_t k = 0; k < pe.core_ids.size(); ++k) {
                const int id = pe.core_ids[k];
                if (const auto it = owner.find(id); it != owner.end())
                    reader_.fail(entry.contains("core_ids") ? child_pointer(ids_pointer, k)
                                                            : child_pointer(pointer, "cores"),
                                 "CPU " + std::to_string(id) + " is already in " + it->second +
                                     "; expected each CPU number once per device");
                owner[id] = pointer;
                next = std::max(next, id + 1);
            }
            if (!core_ids_nameable(pe.core_ids))
                reader_.fail(entry.contains("core_ids") ? ids_pointer
                                                        : child_pointer(pointer, "cores"),
                             "CPUs numbered 10 or more, or 10 cores or more, are named as a "
                             "range (cpu0-11); expected consecutive CPU numbers");
        }
    }

    PeakRates read_peak(const json& peak, const std::string& pointer) {
        reader_.only_known(peak, pointer, {"fp32", "fp16", "int8", "derived", "source", "note"});
        PeakRates rates;
        rates.fp32 = reader_.number(peak, pointer, "fp32", false, "GFLOP/s");
        rates.fp16 = reader_.number(peak, pointer, "fp16", false, "GFLOP/s");
        rates.int8 = reader_.number(peak, pointer, "int8", false, "GOP/s");
        rates.derived =
            reader_
                .boolean(peak, pointer, "derived", false,
                         "true or false (true: the rates are computed from cores, clock and FLOP "
                         "per clock, the computation in source)")
                .value_or(false);
        rates.source = reader_.string(peak, pointer, "source", true, kSource);
        rates.note = reader_.string(peak, pointer, "note", false);
        return rates;
    }

    Cache read_cache(const json& entry, const std::string& pointer) {
        reader_.expect_object(entry, pointer, "a cache object with level and size_kib");
        reader_.only_known(entry, pointer, {"level", "kind", "size_kib", "shared_by"});
        Cache cache;
        cache.level = *reader_.whole_number(entry, pointer, "level", true, 1, 4);
        cache.kind = choice(reader_, entry, pointer, "kind", {"data", "instruction", "unified"},
                            false, "unified");
        cache.size_kib = *reader_.number(entry, pointer, "size_kib", true, "KiB");
        cache.shared_by =
            reader_.whole_number(entry, pointer, "shared_by", false, 1, kMaxCores).value_or(0);
        return cache;
    }

    Memory read_memory(const json& memory, const std::string& pointer) {
        reader_.only_known(memory, pointer,
                           {"capacity_gib", "type", "bus_width_bits", "bandwidth_gbs",
                            "reserve_gib", "source", "note"});
        Memory m;
        m.capacity_gib = reader_.number(memory, pointer, "capacity_gib", false, "GiB");
        m.type = reader_.string(memory, pointer, "type", false);
        m.bus_width_bits = reader_.whole_number(memory, pointer, "bus_width_bits", false, 1, 65536);
        m.bandwidth_gbs = reader_.number(memory, pointer, "bandwidth_gbs", false, "GB/s");
        m.reserve_gib = reader_.number(memory, pointer, "reserve_gib", false, "GiB", true);
        if (m.reserve_gib && m.capacity_gib && *m.reserve_gib >= *m.capacity_gib)
            reader_.fail(child_pointer(pointer, "reserve_gib"),
                         "expected a reserve below capacity_gib (" + number_text(*m.capacity_gib) +
                             " GiB)");
        m.source = reader_.string(memory, pointer, "source", true, kSource);
        m.note = reader_.string(memory, pointer, "note", false);
        return m;
    }

    Power read_power(const json& power, const std::string& pointer) {
        reader_.only_known(power, pointer,
                           {"idle_w", "modes_w", "communication_w", "source", "note"});
        Power p;
        p.idle_w = reader_.number(power, pointer, "idle_w", false, "W", true);
        if (const json* modes =
                reader_.array(power, pointer, "modes_w", false, "a list of power budgets in W"))
            for (std::size_t i = 0; i < modes->size(); ++i) {
                const json& mode = (*modes)[i];
                if (!mode.is_number() || mode.get<double>() <= 0)
                    reader_.fail(child_pointer(child_pointer(pointer, "modes_w"), i),
                                 "expected a power budget > 0 (W), found " + mode.dump());
                p.modes_w.push_back(mode.get<double>());
            }
        p.communication_w = reader_.number(power, pointer, "communication_w", false, "W", true);
        p.source = reader_.string(power, pointer, "source", true, kSource);
        p.note = reader_.string(power, pointer, "note", false);
        return p;
    }

    NetworkInterface read_network(const json& network, const std::string& pointer) {
        reader_.only_known(network, pointer,
                           {"interface", "bandwidth_gbps", "latency_us", "source", "note"});
        NetworkInterface n;
        n.interface = reader_.string(network, pointer, "interface", false);
        n.bandwidth_gbps = reader_.number(network, pointer, "bandwidth_gbps", false, "Gbit/s");
        n.latency_us = reader_.number(network, pointer, "latency_us", false, "us", true);
        n.source = reader_.string(network, pointer, "source", true, kSource);
        n.note = reader_.string(network, pointer, "note", false);
        return n;
    }

    Measurement read_measurement(const json& measurement, const std::string& pointer) {
        reader_.only_known(measurement, pointer, {"data", "runtime", "threads", "dtype"});
        Measurement m;
        m.data = reader_.string(measurement, pointer, "data", true);
        m.runtime = reader_.string(measurement, pointer, "runtime", true);
        m.threads = reader_.whole_number(measurement, pointer, "threads", false, 1, kMaxCores);
        m.dtype =
            choice(reader_, measurement, pointer, "dtype", {"float32", "float16", "int8"}, false);
        return m;
    }

    JsonReader reader_;
};

// Whole figures print as integers ("8", not "8.0").
ordered_json figure(double value) {
    if (std::abs(value) < 1e15 && value == std::floor(value))
        return static_cast<std::int64_t>(value);
    return value;
}

void put(ordered_json& object, const char* key, const std::optional<double>& value) {
    if (value)
        object[key] = figure(*value);
}

void put(ordered_json& object, const char* key, const std::string& value) {
    if (!value.empty())
        object[key] = value;
}

void put(ordered_json& object, const char* key, int value) {
    if (value != 0)
        object[key] = value;
}

ordered_json pe_json(const ProcessingElement& pe, std::vector<int>& default_ids) {
    ordered_json out;
    out["kind"] = to_string(pe.kind);
    out["name"] = pe.name;
    out["arch"] = pe.arch;
    if (pe.kind == PeKind::cpu) {
        put(out, "core_type", pe.core_type);
        out["cores"] = pe.cores;
        if (pe.core_ids != default_ids)
            out["core_ids"] = pe.core_ids;
        if (pe.threads_per_core != 1)
            out["threads_per_core"] = pe.threads_per_core;
    } else {
        put(out, "api", pe.api);
        put(out, "compute_capability", pe.compute_capability);
        put(out, "sms", pe.sms);
        put(out, "cuda_cores", pe.cuda_cores);
        put(out, "tensor_cores", pe.tensor_cores);
    }
    put(out, "clock_ghz", pe.clock_ghz);
    put(out, "max_clock_ghz", pe.max_clock_ghz);
    const auto& peak = pe.peak_gflops;
    if (peak.fp32 || peak.fp16 || peak.int8 || peak.derived || !peak.source.empty() ||
        !peak.note.empty()) {
        ordered_json rates = ordered_json::object();
        put(rates, "fp32", peak.fp32);
        put(rates, "fp16", peak.fp16);
        put(rates, "int8", peak.int8);
        if (peak.derived)
            rates["derived"] = true;
        put(rates, "source", peak.source);
        put(rates, "note", peak.note);
        out["peak_gflops"] = rates;
    }
    put(out, "memory_bandwidth_gbs", pe.memory_bandwidth_gbs);
    put(out, "memory_gib", pe.memory_gib);
    put(out, "memory_reserve_gib", pe.memory_reserve_gib);
    if (!pe.caches.empty()) {
        auto caches = ordered_json::array();
        for (const auto& c : pe.caches) {
            ordered_json cache{
                {"level", c.level}, {"kind", c.kind}, {"size_kib", figure(c.size_kib)}};
            put(cache, "shared_by", c.shared_by);
            caches.push_back(cache);
        }
        out["caches"] = caches;
    }
    put(out, "busy_w", pe.busy_w);
    put(out, "tdp_w", pe.tdp_w);
    put(out, "source", pe.source);
    put(out, "note", pe.note);
    return out;
}

} // namespace

std::string to_string(DeviceKind kind) {
    for (const auto& [k, name] : kDeviceKinds)
        if (k == kind)
            return name;
    return "soc";
}

std::string to_string(PeKind kind) {
    return kind == PeKind::gpu ? "gpu" : "cpu";
}

bool is_device_id(const std::string& id) {
    if (id.empty() || id.size() > kMaxDeviceIdLength || id.front() == '-' || id.back() == '-' ||
        id.find("--") != std::string::npos)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

std::string device_id_problem(const std::string& id) {
    if (id.size() > kMaxDeviceIdLength)
        return "expected an id of at most " + std::to_string(kMaxDeviceIdLength) +
               " characters, found " + std::to_string(id.size());
    return "expected a lower-case kebab-case id such as \"jetson-xavier-nx\", found \"" + id + "\"";
}

DeviceSpec parse_device_spec(const std::string& json_text, const std::string& file) {
    return DeviceReader(file).read(json_text);
}

DeviceSpec load_device_spec(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot read; expected a device file (docs/devices.md)");
    std::stringstream text;
    text << in.rdbuf();
    return parse_device_spec(text.str(), path);
}

std::string device_spec_json(const DeviceSpec& device) {
    ordered_json out{{"format", "cleave-device"},
                     {"version", 1},
                     {"id", device.id},
                     {"name", device.name},
                     {"kind", to_string(device.kind)},
                     {"source", device.source}};
    put(out, "note", device.note);
    auto pes = ordered_json::array();
    int next = 0;
    for (const auto& pe : device.processing_elements) {
        std::vector<int> default_ids;
        if (pe.kind == PeKind::cpu)
            for (int k = 0; k < pe.cores; ++k)
                default_ids.push_back(next + k);
        pes.push_back(pe_json(pe, default_ids));
        for (const int id : pe.core_ids)
            next = std::max(next, id + 1);
    }
    out["processing_elements"] = pes;
    if (const auto& m = device.memory) {
        ordered_json memory = ordered_json::object();
        put(memory, "capacity_gib", m->capacity_gib);
        put(memory, "type", m->type);
        if (m->bus_width_bits)
            memory["bus_width_bits"] = *m->bus_width_bits;
        put(memory, "bandwidth_gbs", m->bandwidth_gbs);
        put(memory, "reserve_gib", m->reserve_gib);
        put(memory, "source", m->source);
        put(memory, "note", m->note);
        out["memory"] = memory;
    }
    if (const auto& p = device.power) {
        ordered_json power = ordered_json::object();
        put(power, "idle_w", p->idle_w);
        if (!p->modes_w.empty()) {
            auto modes = ordered_json::array();
            for (const double w : p->modes_w)
                modes.push_back(figure(w));
            power["modes_w"] = modes;
        }
        put(power, "communication_w", p->communication_w);
        put(power, "source", p->source);
        put(power, "note", p->note);
        out["power"] = power;
    }
    if (const auto& n = device.network) {
        ordered_json network = ordered_json::object();
        put(network, "interface", n->interface);
        put(network, "bandwidth_gbps", n->bandwidth_gbps);
        put(network, "latency_us", n->latency_us);
        put(network, "source", n->source);
        put(network, "note", n->note);
        out["network"] = network;
    }
    if (const auto& m = device.measurement) {
        ordered_json measurement{{"data", m->data}, {"runtime", m->runtime}};
        if (m->threads)
            measurement["threads"] = *m->threads;
        put(measurement, "dtype", m->dtype);
        out["measurement"] = measurement;
    }
    return out.dump(2) + "\n";
}

std::optional<double> memory_bandwidth_gbs(const DeviceSpec& device, const ProcessingElement& pe) {
    if (pe.memory_bandwidth_gbs)
        return pe.memory_bandwidth_gbs;
    if (device.memory)
        return device.memory->bandwidth_gbs;
    return std::nullopt;
}

std::optional<std::int64_t> capacity_bytes(const DeviceSpec& device) {
    if (!device.memory || !device.memory->capacity_gib)
        return std::nullopt;
    return static_cast<std::int64_t>(*device.memory->capacity_gib * 1024.0 * 1024.0 * 1024.0);
}

std::optional<std::int64_t> own_memory_bytes(const ProcessingElement& pe) {
    if (!pe.memory_gib)
        return std::nullopt;
    return static_cast<std::int64_t>(*pe.memory_gib * 1024.0 * 1024.0 * 1024.0);
}

int cpu_cores(const DeviceSpec& device) {
    int cores = 0;
    for (const auto& pe : device.processing_elements)
        if (pe.kind == PeKind::cpu)
            cores += pe.cores;
    return cores;
}

const ProcessingElement* gpu_of(const DeviceSpec& device) {
    for (const auto& pe : device.processing_elements)
        if (pe.kind == PeKind::gpu)
            return &pe;
    return nullptr;
}

} // namespace cleave::device
