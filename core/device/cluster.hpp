// A cluster: hosts, each running one device, the processing elements they bring (named by their
// AutoDiCE keys) and the network links between hosts. Read from a cluster file
// (`*.cluster.json`, docs/devices.md) or from an AutoDiCE platform.txt alone, whose lines are
// matched to library devices and whose hosts share one switch.
#pragma once

#include "device_spec.hpp"
#include "platform_file.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cleave::device {

struct Link {
    double bandwidth_gbps = 1.0;
    double latency_us = 100.0;
    bool operator==(const Link&) const = default;
};

// Gigabit Ethernet through one switch, as in AutoDiCE's testbed; the latency is Cleave's
// assumption for one hop through a switch, not a measurement (docs/devices.md).
inline constexpr Link kDefaultLink{1.0, 100.0};

struct LinkPair {
    std::string a;
    std::string b;
    Link link;
};

struct ClusterHost {
    std::string host;
    std::string device_ref; // as the file wrote it: a library id or a device file
    DeviceSpec device;
    std::string match; // from a platform.txt: how the line was matched; else empty
    // The threads its CPU runs at (cpu_threads.hpp), `device` already scaled to them; none: every
    // core, or a measured device's own count.
    std::optional<int> threads = std::nullopt;
};

struct ClusterPe {
    std::string key; // "nx01_arm012345", "nx01_gpu"
    std::string host;
    std::size_t host_index = 0;
    PeKind kind = PeKind::cpu;
    ProcessingElement spec;
};

struct Cluster {
    std::string file;
    std::string note; // the cluster file's own description
    std::vector<ClusterHost> hosts;
    std::vector<ClusterPe> pes; // host by host, each in its device's order
    Link default_link = kDefaultLink;
    std::vector<LinkPair> pairs;

    const ClusterHost* find_host(const std::string& host) const;
    const ClusterPe* find_pe(const std::string& key) const;
    // The link between two different hosts of the cluster: their pair's, else the default.
    // Throws std::invalid_argument for an unknown host or a == b.
    Link link(const std::string& a, const std::string& b) const;
};

// Fills in the PEs of `hosts` in order.
Cluster make_cluster(std::string file, std::vector<ClusterHost> hosts,
                     Link default_link = kDefaultLink, std::vector<LinkPair> pairs = {});

// A cluster file; device files it names are resolved against its folder. Throws
// InputError(file, JSON pointer, expected).
Cluster parse_cluster_file(const std::string& json_text, const std::string& file);
// Every line matched to a device of `library` (device_matching.hpp); default links.
Cluster cluster_from_platform(const PlatformFile& platform, const std::vector<DeviceSpec>& library);
// A `.json` path is read as a cluster file, anything else as a platform.txt matched against the
// built-in library.
Cluster load_cluster(const std::string& path);

// The cluster file's object (DESIGN.md's format), e.g. to keep a cluster inside a project file;
// cluster_from_json reads it back with the checks and messages of parse_cluster_file, device
// files resolved against the folder of `file`. Throws InputError(file, JSON pointer, expected).
nlohmann::json cluster_to_json(const Cluster& cluster);
Cluster cluster_from_json(const nlohmann::json& root, const std::string& file);

// The cluster file's text: cluster_to_json with "version" first, two-space indented.
std::string cluster_file_json(const Cluster& cluster);
// Written atomically.
void save_cluster_file(const Cluster& cluster, const std::string& path);

// The cluster as a platform.txt: each host's CPU architecture, its CPU numbers as slots and its
// GPU; a host whose device has no CPU becomes a bare host name.
PlatformFile platform_of(const Cluster& cluster);

} // namespace cleave::device
