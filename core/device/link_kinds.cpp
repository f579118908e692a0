#include "link_kinds.hpp"

namespace cleave::device {

const std::vector<LinkKind>& link_kinds() {
    static const std::vector<LinkKind> kinds{
        {"1gbe", "Gigabit Ethernet through one switch", kDefaultLink,
         "IEEE 802.3ab (1000BASE-T): 1 Gbit/s; the 100 us is Cleave's assumption for one hop "
         "through a switch, the network stack included"},
        {"2.5gbe",
         "2.5 Gigabit Ethernet through one switch",
         {2.5, 100.0},
         "IEEE 802.3bz (2.5GBASE-T): 2.5 Gbit/s; latency as for 1gbe (assumed)"},
        {"wifi-6",
         "Wi-Fi 6 through one access point",
         {0.6, 2000.0},
         "derived: IEEE 802.11ax with two spatial streams on an 80 MHz channel reaches a PHY "
         "rate of 1201 Mbit/s (MCS 11); half of it is taken as what TCP carries over a shared "
         "channel (assumed), and 2 ms as one hop's latency under light load (assumed)"},
        {"thunderbolt",
         "Thunderbolt 3/4 cable between two hosts (IP over Thunderbolt)",
         {10.0, 50.0},
         "derived: a Thunderbolt 3/4 link runs at 40 Gbit/s (Intel, Thunderbolt 4 "
         "specification); IP networking over it (Linux thunderbolt-net, macOS Thunderbolt "
         "Bridge) is driven by the host, and a quarter of the link, 10 Gbit/s, with 50 us a "
         "hop, is assumed"},
    };
    return kinds;
}

const LinkKind* find_link_kind(const std::string& id) {
    for (const auto& kind : link_kinds())
        if (kind.id == id)
            return &kind;
    return nullptr;
}

std::string link_kind_ids() {
    std::string out;
    for (const auto& kind : link_kinds())
        out += (out.empty() ? "" : ", ") + kind.id;
    return out;
}

} // namespace cleave::device
