// A cluster of built-in library devices, one host each ("h1", "h2", ...), for tests that need
// hosts of known devices without a cluster file.
#pragma once

#include "core/device/cluster.hpp"
#include "core/device/device_library.hpp"

#include <string>
#include <vector>

namespace cleave::test {

inline device::Cluster library_cluster(const std::vector<std::string>& device_ids) {
    std::vector<device::ClusterHost> hosts;
    for (std::size_t i = 0; i < device_ids.size(); ++i) {
        device::ClusterHost host;
        host.host = "h" + std::to_string(i + 1);
        host.device_ref = device_ids[i];
        host.device = *device::library_device(device_ids[i]);
        hosts.push_back(std::move(host));
    }
    return device::make_cluster("test", std::move(hosts));
}

} // namespace cleave::test
