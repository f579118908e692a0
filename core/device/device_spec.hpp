// What Cleave knows of a device: its processing elements (CPU core clusters, a GPU) with the
// figures a cost model needs (peak rates per precision, the memory bandwidth each sees), memory,
// power and network, each section naming the datasheet or measurement it comes from. Stored as
// JSON (`"format": "cleave-device"`, docs/devices.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cleave::device {

enum class DeviceKind { cpu, gpu, npu, soc };
enum class PeKind { cpu, gpu };

std::string to_string(DeviceKind kind);
std::string to_string(PeKind kind);

struct Cache {
    int level = 1;
    std::string kind = "unified"; // "data", "instruction" or "unified"
    double size_kib = 0;          // one instance
    int shared_by = 0;            // cores sharing one instance; 0: one instance for the whole PE
};

// Peak rates in GFLOP/s (int8: GOP/s); absent where no public figure gives them.
struct PeakRates {
    std::optional<double> fp32;
    std::optional<double> fp16;
    std::optional<double> int8;
    // The rates are computed (cores x clock x FLOP per clock) rather than printed in a document;
    // `source` gives the computation and the documents its factors come from.
    bool derived = false;
    std::string source;
    std::string note;
};

struct ProcessingElement {
    PeKind kind = PeKind::cpu;
    std::string name;
    // CPU: "arm" or "x86_64". GPU: the architecture as AutoDiCE's platform.txt names it
    // ("NVIDIAVolta").
    std::string arch;
    // CPU only.
    std::string core_type;     // "NVIDIA Carmel (Armv8.2)"
    int cores = 0;             // for a measured device: the threads it ran with
    std::vector<int> core_ids; // operating-system CPU numbers, one per core (filled at load)
    int threads_per_core = 1;
    // GPU only.
    std::string api;                // "CUDA"
    std::string compute_capability; // "7.2"
    int sms = 0;
    int cuda_cores = 0;
    int tensor_cores = 0;
    // Both.
    std::optional<double> clock_ghz;     // the clock the peak rates assume
    std::optional<double> max_clock_ghz; // highest clock, where above clock_ghz
    PeakRates peak_gflops;
    std::optional<double> memory_bandwidth_gbs; // absent: the device memory's
    // A memory of its own (a discrete GPU's VRAM), a pool apart from the device's; absent: the PE
    // shares the device memory (a CPU, a Jetson's GPU).
    std::optional<double> memory_gib;
    std::optional<double> memory_reserve_gib; // the runtime's share of it; absent: the default
    std::vector<Cache> caches;
    std::optional<double> busy_w; // drawn while it computes
    std::optional<double> tdp_w;  // the vendor's thermal design power
    std::string source;
    std::string note;
};

struct Memory {
    std::optional<double> capacity_gib;
    std::string type; // "LPDDR4x", "HBM3"
    std::optional<int> bus_width_bits;
    std::optional<double> bandwidth_gbs; // peak, GB/s
    // What the OS and a runtime keep of it besides a model's own bytes; absent: the default
    // (partition::runtime_reserve_bytes).
    std::optional<double> reserve_gib;
    std::string source;
    std::string note;
};

struct Power {
    std::optional<double> idle_w;
    std::vector<double> modes_w; // the vendor's power budgets (Jetson nvpmodel modes)
    std::optional<double> communication_w;
    std::string source;
    std::string note;
};

struct NetworkInterface {
    std::string interface; // "10/100/1000 BASE-T Ethernet"
    std::optional<double> bandwidth_gbps;
    std::optional<double> latency_us;
    std::string source;
    std::string note;
};

// For a device defined by measurements: which runs of which data file it stands for.
struct Measurement {
    std::string data;    // the data file
    std::string runtime; // "ONNX Runtime 1.30.0, CPU execution provider"
    std::optional<int> threads;
    std::string dtype; // "float32", "float16"
};

struct DeviceSpec {
    std::string id; // lower-case kebab case: "jetson-xavier-nx"
    std::string name;
    DeviceKind kind = DeviceKind::soc;
    std::string source; // the datasheet, measurement or "detected" the figures come from
    std::string note;
    std::vector<ProcessingElement> processing_elements;
    std::optional<Memory> memory;
    std::optional<Power> power;
    std::optional<NetworkInterface> network;
    std::optional<Measurement> measurement;
    std::string file; // where it was read from: a path, "built-in" or "detected"
};

// The longest device id. An id names files of the user library (devices/ID.json), which the
// file system limits to 255 bytes; a name is read by people, and 64 characters is plenty.
inline constexpr std::size_t kMaxDeviceIdLength = 64;

// Lower-case kebab case, at most kMaxDeviceIdLength characters: "jetson-xavier-nx".
bool is_device_id(const std::string& id);
// What is wrong with an id that is not a device id, for a message ("expected ..., found ...").
std::string device_id_problem(const std::string& id);

// Parses a device file; throws InputError(file, JSON pointer, expected) on any mistake.
DeviceSpec parse_device_spec(const std::string& json_text, const std::string& file);
DeviceSpec load_device_spec(const std::string& path);
// The device in its file format; parse_device_spec reads it back unchanged.
std::string device_spec_json(const DeviceSpec& device);

// The memory bandwidth a PE sees: its own figure, else the device memory's.
std::optional<double> memory_bandwidth_gbs(const DeviceSpec& device, const ProcessingElement& pe);
int cpu_cores(const DeviceSpec& device);                   // over every CPU PE
// The device's memory capacity in bytes (memory.capacity_gib), if its spec gives one.
std::optional<std::int64_t> capacity_bytes(const DeviceSpec& device);
// A PE's own memory in bytes (memory_gib), nullopt when it shares the device's.
std::optional<std::int64_t> own_memory_bytes(const ProcessingElement& pe);
const ProcessingElement* gpu_of(const DeviceSpec& device); // nullptr without one

} // namespace cleave::device
