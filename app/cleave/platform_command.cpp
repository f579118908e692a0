// cleave platform check: reads an AutoDiCE platform.txt (or a cluster file) as a cluster and
// shows its hosts, the device each runs, their PE keys and the links between them.
#include "commands.hpp"
#include "core/device/cluster.hpp"
#include "output.hpp"

#include <cstdio>

namespace cleave::cli {

namespace {

struct PlatformOptions {
    std::string file;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json link_json(const device::Link& link) {
    return {{"bandwidth_gbps", link.bandwidth_gbps}, {"latency_us", link.latency_us}};
}

nlohmann::ordered_json check_json(const device::Cluster& cluster) {
    auto hosts = nlohmann::ordered_json::array();
    for (std::size_t h = 0; h < cluster.hosts.size(); ++h) {
        const auto& host = cluster.hosts[h];
        auto pes = nlohmann::ordered_json::array();
        for (const auto& pe : cluster.pes)
            if (pe.host_index == h)
                pes.push_back({{"key", pe.key},
                               {"kind", device::to_string(pe.kind)},
                               {"name", pe.spec.name}});
        hosts.push_back({{"host", host.host},
                         {"device", host.device.id},
                         {"match", host.match.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(host.match)},
                         {"pes", pes}});
    }
    auto pairs = nlohmann::ordered_json::array();
    for (const auto& p : cluster.pairs)
        pairs.push_back({{"a", p.a},
                         {"b", p.b},
                         {"bandwidth_gbps", p.link.bandwidth_gbps},
                         {"latency_us", p.link.latency_us}});
    return {{"file", cluster.file},
            {"hosts", hosts},
            {"links", {{"default", link_json(cluster.default_link)}, {"pairs", pairs}}}};
}

std::string link_text(const device::Link& link) {
    char text[96];
    std::snprintf(text, sizeof text, "%g Gbit/s, %g us", link.bandwidth_gbps, link.latency_us);
    return text;
}

void print_check(const device::Cluster& cluster) {
    std::printf("file     %s\nhosts    %zu, %zu PEs\nlinks    default %s; %zu pair%s\n\n",
                cluster.file.c_str(), cluster.hosts.size(), cluster.pes.size(),
                link_text(cluster.default_link).c_str(), cluster.pairs.size(),
                cluster.pairs.size() == 1 ? "" : "s");
    std::printf("%-12s %-18s %s\n", "host", "device", "PEs");
    for (std::size_t h = 0; h < cluster.hosts.size(); ++h) {
        std::string keys;
        for (const auto& pe : cluster.pes)
            if (pe.host_index == h)
                keys += (keys.empty() ? "" : " ") + pe.key;
        std::printf("%-12s %-18s %s\n", cluster.hosts[h].host.c_str(),
                    cluster.hosts[h].device.id.c_str(), keys.c_str());
    }
    for (const auto& p : cluster.pairs)
        std::printf("link     %s - %s: %s\n", p.a.c_str(), p.b.c_str(), link_text(p.link).c_str());
    bool heading = false;
    for (const auto& host : cluster.hosts) {
        if (host.match.empty())
            continue;
        if (!heading)
            std::printf("\nmatched from the platform file's lines:\n");
        heading = true;
        std::printf("  %s\n", host.match.c_str());
    }
}

} // namespace

Action add_platform_command(CLI::App& app) {
    auto options = std::make_shared<PlatformOptions>();
    auto* platform =
        app.add_subcommand("platform", "AutoDiCE platform files and Cleave cluster files");
    platform->require_subcommand(1);
    auto* check = platform->add_subcommand(
        "check", "Read a platform.txt (or a .cluster.json) as a cluster: hosts, matched devices, "
                 "PE keys, links");
    check->add_option("file", options->file, "An AutoDiCE platform.txt or a cluster file (.json)")
        ->required();
    check->add_flag("--json", options->json, "Print hosts, devices, PE keys and links as JSON");
    check->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] {
        const device::Cluster cluster = device::load_cluster(options->file);
        if (options->json || !options->out.empty())
            emit_json(check_json(cluster), options->json, options->out);
        if (!options->json)
            print_check(cluster);
        return 0;
    };
}

} // namespace cleave::cli
