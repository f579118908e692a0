#include "cluster.hpp"

#include "../atomic_file.hpp"
#include "../input_error.hpp"
#include "../json_reader.hpp"
#include "cpu_threads.hpp"
#include "device_library.hpp"
#include "device_matching.hpp"
#include "link_kinds.hpp"
#include "pe_key.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cleave::device {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string read_text(const std::string& path, const std::string& expected) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot read; expected " + expected);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A link object: its kind's figures (or `fallback`), then the figures it gives. Without a kind,
// `required` asks for both figures.
Link read_link(const JsonReader& reader, const json& object, const std::string& pointer,
               const Link& fallback, bool required) {
    Link link = fallback;
    const std::string kind = reader.string(object, pointer, "kind", false);
    if (!kind.empty()) {
        const auto* known = find_link_kind(kind);
        if (!known)
            reader.fail(child_pointer(pointer, "kind"), "expected a link kind, one of " +
                                                            link_kind_ids() + ", found \"" + kind +
                                                            "\"");
        link = known->link;
        required = false;
    }
    if (const auto bandwidth = reader.number(object, pointer, "bandwidth_gbps", required, "Gbit/s"))
        link.bandwidth_gbps = *bandwidth;
    if (const auto latency = reader.number(object, pointer, "latency_us", required, "us", true))
        link.latency_us = *latency;
    return link;
}

ordered_json link_json(const Link& link) {
    return {{"bandwidth_gbps", link.bandwidth_gbps}, {"latency_us", link.latency_us}};
}

// `links`: the default link and the pairs, each host named one of `seen`.
std::pair<Link, std::vector<LinkPair>> read_links(const JsonReader& reader, const json& root,
                                                  const std::map<std::string, std::string>& seen) {
    Link default_link = kDefaultLink;
    std::vector<LinkPair> pairs;
    if (const json* links =
            reader.object(root, "", "links", false, "an object with \"default\" and \"pairs\"")) {
        reader.only_known(*links, "/links", {"default", "pairs"});
        if (const json* fallback =
                reader.object(*links, "/links", "default", false,
                              "an object with a kind, or bandwidth_gbps and latency_us")) {
            reader.only_known(*fallback, "/links/default",
                              {"kind", "bandwidth_gbps", "latency_us"});
            default_link = read_link(reader, *fallback, "/links/default", kDefaultLink, false);
        }
        if (const json* entries = reader.array(*links, "/links", "pairs", false,
                                               "a list of {a, b, bandwidth_gbps, latency_us}")) {
            std::set<std::pair<std::string, std::string>> joined;
            for (std::size_t i = 0; i < entries->size(); ++i) {
                const std::string pointer = child_pointer("/links/pairs", i);
                const json& entry = (*entries)[i];
                reader.expect_object(entry, pointer,
                                     "an object with a, b, bandwidth_gbps and latency_us");
                reader.only_known(entry, pointer,
                                  {"a", "b", "kind", "bandwidth_gbps", "latency_us"});
                LinkPair pair;
                pair.a = reader.string(entry, pointer, "a", true);
                pair.b = reader.string(entry, pointer, "b", true);
                for (const auto& [key, host] : {std::pair{"a", pair.a}, std::pair{"b", pair.b}})
                    if (!seen.count(host))
                        reader.fail(child_pointer(pointer, key),
                                    "no host \"" + host +
                                        "\" in /hosts; expected one of its hosts");
                if (pair.a == pair.b)
                    reader.fail(child_pointer(pointer, "b"),
                                "expected a host other than a (\"" + pair.a + "\")");
                if (!joined.insert(std::minmax(pair.a, pair.b)).second)
                    reader.fail(pointer, "the link " + pair.a + " - " + pair.b +
                                             " is given twice; expected each pair once");
                pair.link = read_link(reader, entry, pointer, default_link, true);
                pairs.push_back(std::move(pair));
            }
        }
    }
    return {default_link, std::move(pairs)};
}

} // namespace

const ClusterHost* Cluster::find_host(const std::string& host) const {
    for (const auto& h : hosts)
        if (h.host == host)
            return &h;
    return nullptr;
}

const ClusterPe* Cluster::find_pe(const std::string& key) const {
    for (const auto& pe : pes)
        if (pe.key == key)
            return &pe;
    return nullptr;
}

Link Cluster::link(const std::string& a, const std::string& b) const {
    for (const auto& host : {a, b})
        if (!find_host(host))
            throw std::invalid_argument("no host \"" + host + "\" in the cluster");
    if (a == b)
        throw std::invalid_argument("a link joins two different hosts, not " + a + " and itself");
    for (const auto& pair : pairs)
        if ((pair.a == a && pair.b == b) || (pair.a == b && pair.b == a))
            return pair.link;
    return default_link;
}

Cluster make_cluster(std::string file, std::vector<ClusterHost> hosts, Link default_link,
                     std::vector<LinkPair> pairs) {
    Cluster cluster;
    cluster.file = std::move(file);
    cluster.hosts = std::move(hosts);
    cluster.default_link = default_link;
    cluster.pairs = std::move(pairs);
    for (std::size_t h = 0; h < cluster.hosts.size(); ++h) {
        const auto& host = cluster.hosts[h];
        for (const auto& pe : host.device.processing_elements)
            cluster.pes.push_back({pe_key(host.host, pe), host.host, h, pe.kind, pe});
    }
    return cluster;
}

Cluster parse_cluster_file(const std::string& json_text, const std::string& file) {
    return cluster_from_json(JsonReader(file).parse(json_text, "a cluster file (docs/devices.md)"),
                             file);
}

Cluster cluster_from_json(const json& root, const std::string& file) {
    const JsonReader reader(file);
    reader.expect_object(root, "", "a JSON object with \"version\": 1 and \"hosts\"");
    reader.only_known(root, "", {"version", "hosts", "links", "note"});
    const json* version = reader.member(root, "", "version", true, "1, the format's version");
    if (!version->is_number_integer())
        reader.fail("/version", "expected the whole number 1, found " + version->dump());
    if (*version != 1)
        reader.fail("/version", "version " + version->dump() + " is not known; expected 1");

    const std::string note = reader.string(root, "", "note", false);

    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    const json* list =
        reader.array(root, "", "hosts", true, "a list of {\"host\", \"device\"} objects");
    if (list->empty())
        reader.fail("/hosts", "expected at least one host");
    std::vector<ClusterHost> hosts;
    std::map<std::string, std::string> seen; // host -> pointer
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string pointer = child_pointer("/hosts", i);
        const json& entry = (*list)[i];
        reader.expect_object(entry, pointer, "an object with \"host\" and \"device\"");
        reader.only_known(entry, pointer, {"host", "device", "threads"});
        ClusterHost host;
        host.host = reader.string(entry, pointer, "host", true);
        if (host.host.size() > kMaxHostNameLength)
            reader.fail(child_pointer(pointer, "host"), host_name_too_long(host.host));
        if (!valid_host_name(host.host))
            reader.fail(child_pointer(pointer, "host"),
                        "expected a host name of letters, digits, '-' and '.' ('_' joins host "
                        "and resource in AutoDiCE keys), found \"" +
                            host.host + "\"");
        if (const auto it = seen.find(host.host); it != seen.end())
            reader.fail(child_pointer(pointer, "host"), "host " + host.host + " is already at " +
                                                            it->second +
                                                            "; expected each host once");
        seen[host.host] = pointer;
        host.device_ref = reader.string(entry, pointer, "device", true);
        if (auto device = library_device(host.device_ref)) {
            host.device = std::move(*device);
        } else if (is_device_file(host.device_ref)) {
            const std::filesystem::path path(host.device_ref);
            host.device =
                load_device_spec(path.is_absolute() ? path.string() : (folder / path).string());
        } else {
            std::string ids;
            for (const auto& id : library_device_ids())
                ids += (ids.empty() ? "" : ", ") + id;
            reader.fail(child_pointer(pointer, "device"), "no such device \"" + host.device_ref +
                                                              "\"; expected one of " + ids +
                                                              " or a device file (.json)");
        }
        host.threads = reader.whole_number(entry, pointer, "threads", false, 1, 4096);
        if (host.threads)
            host.device = device_at_threads(host.device, *host.threads, file,
                                            child_pointer(pointer, "threads"));
        hosts.push_back(std::move(host));
    }

    auto [default_link, pairs] = read_links(reader, root, seen);
    Cluster cluster = make_cluster(file, std::move(hosts), default_link, std::move(pairs));
    cluster.note = note;
    return cluster;
}

Cluster cluster_from_platform(const PlatformFile& platform,
                              const std::vector<DeviceSpec>& library) {
    std::vector<ClusterHost> hosts;
    for (const auto& line : platform.hosts) {
        DeviceMatch match = match_device(line, library, platform.file);
        const std::string id = match.device.id;
        hosts.push_back({line.host, id, std::move(match.device), std::move(match.message)});
    }
    return make_cluster(platform.file, std::move(hosts));
}

Cluster load_cluster(const std::string& path) {
    if (path.ends_with(".json"))
        return parse_cluster_file(read_text(path, "a cluster file (docs/devices.md)"), path);
    return cluster_from_platform(load_platform_file(path), library_devices());
}

namespace {

ordered_json cluster_object(const Cluster& cluster) {
    auto hosts = ordered_json::array();
    for (const auto& h : cluster.hosts) {
        hosts.push_back({{"host", h.host}, {"device", h.device_ref}});
        if (h.threads)
            hosts.back()["threads"] = *h.threads;
    }
    auto pairs = ordered_json::array();
    for (const auto& p : cluster.pairs)
        pairs.push_back({{"a", p.a},
                         {"b", p.b},
                         {"bandwidth_gbps", p.link.bandwidth_gbps},
                         {"latency_us", p.link.latency_us}});
    ordered_json root{{"version", 1}};
    if (!cluster.note.empty())
        root["note"] = cluster.note;
    root["hosts"] = hosts;
    root["links"] = {{"default", link_json(cluster.default_link)}, {"pairs", pairs}};
    return root;
}

} // namespace

json cluster_to_json(const Cluster& cluster) {
    return json(cluster_object(cluster));
}

std::string cluster_file_json(const Cluster& cluster) {
    return cluster_object(cluster).dump(2) + "\n";
}

void save_cluster_file(const Cluster& cluster, const std::string& path) {
    write_file_atomically(path, cluster_file_json(cluster));
}

PlatformFile platform_of(const Cluster& cluster) {
    PlatformFile platform;
    platform.file = cluster.file;
    for (const auto& h : cluster.hosts) {
        PlatformHost line;
        line.host = h.host;
        std::vector<int> ids;
        for (const auto& pe : h.device.processing_elements)
            if (pe.kind == PeKind::cpu) {
                if (line.arch.empty())
                    line.arch = pe.arch == "arm" ? "arm" : "x86";
                ids.insert(ids.end(), pe.core_ids.begin(), pe.core_ids.end());
            }
        if (!ids.empty()) {
            std::sort(ids.begin(), ids.end());
            const bool consecutive = ids.back() - ids.front() + 1 == static_cast<int>(ids.size());
            line.slot_range = consecutive ? Slots{ids.front(), ids.back()}
                                          : Slots{0, static_cast<int>(ids.size()) - 1};
            if (const ProcessingElement* gpu = gpu_of(h.device))
                line.gpu = PlatformGpu{gpu->arch, gpu->api};
        }
        platform.hosts.push_back(std::move(line));
    }
    return platform;
}

} // namespace cleave::device
