// The kinds of link a cluster's hosts are joined by, with a bandwidth and latency each and where
// they come from: a cluster file names one (`"kind": "2.5gbe"`) instead of giving the figures
// (docs/devices.md, "The cluster file").
#pragma once

#include "cluster.hpp"

#include <string>
#include <vector>

namespace cleave::device {

struct LinkKind {
    std::string id;   // "1gbe"
    std::string name; // "Gigabit Ethernet through one switch"
    Link link;
    std::string source; // the standard, or the derivation and its assumptions
};

// In the order docs/devices.md lists them.
const std::vector<LinkKind>& link_kinds();
// nullptr for an id not listed.
const LinkKind* find_link_kind(const std::string& id);
// "1gbe, 2.5gbe, wifi-6, thunderbolt", for messages.
std::string link_kind_ids();

} // namespace cleave::device
