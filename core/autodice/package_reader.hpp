// Reads an exported AutoDiCE package back (docs/autodice.md) for running it: the ranks in
// mapping.json's key order, each with its host, its sub-model file and what it receives from and
// sends to which rank (receiver.json, sender.json).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cleave::autodice {

struct RankBuffer {
    std::string tensor;     // AutoDiCE's buffer name
    std::vector<int> ranks; // the producing rank (receives) or the reading ranks (sends)
};

struct PackageRank {
    std::string key;  // "nx01_gpu"
    std::string host; // the key up to its last '_'
    std::filesystem::path sub_model;
    std::vector<RankBuffer> receives;
    std::vector<RankBuffer> sends;
};

struct PackageLayout {
    std::filesystem::path folder;
    std::vector<PackageRank> ranks;
};

// Throws InputError naming the file and the JSON pointer for a missing or malformed file, a key
// of sender.json / receiver.json that mapping.json lacks, a peer rank out of range, a buffer
// received from a rank that does not send it, or a missing sub-model.
PackageLayout read_package(const std::filesystem::path& folder);

} // namespace cleave::autodice
