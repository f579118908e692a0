#include "package_reader.hpp"

#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace cleave::autodice {

namespace {

// {key: {buffer: [ranks]}} for every key of the package, in any key order.
void read_table(const std::filesystem::path& file, PackageLayout& layout, bool receiver) {
    const auto path = file.string();
    const auto root = read_ordered_json_file(
        path, receiver ? "AutoDiCE's receiver.json: {key: {buffer: [producing rank]}}"
                       : "AutoDiCE's sender.json: {key: {buffer: [reading ranks]}}");
    const JsonReader reader(path);
    reader.expect_object(root, "", "an object with one entry per mapping key");
    const int ranks = static_cast<int>(layout.ranks.size());
    for (const auto& entry : root.items()) {
        // Not a structured binding: clang before 16 cannot capture one in a lambda.
        const std::string& key = entry.key();
        const auto& buffers = entry.value();
        const auto rank = std::find_if(layout.ranks.begin(), layout.ranks.end(),
                                       [&](const PackageRank& r) { return r.key == key; });
        const std::string at = child_pointer("", key);
        if (rank == layout.ranks.end())
            reader.fail(at, "not a key of mapping.json");
        reader.expect_object(buffers, at, "an object {buffer: [ranks]}");
        for (const auto& [tensor, peers] : buffers.items()) {
            const std::string pointer = child_pointer(at, tensor);
            if (!peers.is_array() || peers.empty() || (receiver && peers.size() != 1))
                reader.fail(pointer, receiver ? "expected [the rank producing it]"
                                              : "expected the ranks reading it, [r, ...]");
            RankBuffer buffer{tensor, {}};
            for (std::size_t i = 0; i < peers.size(); ++i) {
                const int peer = reader.whole_number_at(peers[i], child_pointer(pointer, i), 0,
                                                        ranks - 1);
                if (&*rank == &layout.ranks[static_cast<std::size_t>(peer)])
                    reader.fail(child_pointer(pointer, i), "expected a peer rank, not the key's own");
                buffer.ranks.push_back(peer);
            }
            (receiver ? rank->receives : rank->sends).push_back(std::move(buffer));
        }
    }
}

} // namespace

PackageLayout read_package(const std::filesystem::path& folder) {
    PackageLayout layout;
    layout.folder = folder;
    const auto mapping = (folder / "mapping.json").string();
    const auto root =
        read_ordered_json_file(mapping, "AutoDiCE's mapping.json of an exported package");
    const JsonReader reader(mapping);
    reader.expect_object(root, "", "an object with one key per rank");
    if (root.empty())
        reader.fail("", "expected an object with one key per rank, found none");
    for (const auto& [key, nodes] : root.items()) {
        PackageRank rank;
        rank.key = key;
        const auto cut = key.rfind('_');
        if (cut == std::string::npos || cut == 0)
            reader.fail(child_pointer("", key), "expected a key <host>_<resource>");
        rank.host = key.substr(0, cut);
        rank.sub_model = folder / (key + ".onnx");
        if (!std::filesystem::exists(rank.sub_model))
            throw InputError(rank.sub_model.string(), "",
                             "missing: the package was exported with --no-submodels or is "
                             "incomplete; expected the sub-model of " +
                                 key);
        layout.ranks.push_back(std::move(rank));
    }
    read_table(folder / "receiver.json", layout, true);
    read_table(folder / "sender.json", layout, false);
    // Every receive is matched by its producer's send.
    for (std::size_t r = 0; r < layout.ranks.size(); ++r)
        for (const auto& buffer : layout.ranks[r].receives) {
            const auto& producer = layout.ranks[static_cast<std::size_t>(buffer.ranks.front())];
            const auto send =
                std::find_if(producer.sends.begin(), producer.sends.end(),
                             [&](const RankBuffer& b) { return b.tensor == buffer.tensor; });
            if (send == producer.sends.end() || std::find(send->ranks.begin(), send->ranks.end(),
                                                          static_cast<int>(r)) == send->ranks.end())
                throw InputError((folder / "sender.json").string(),
                                 child_pointer(child_pointer("", producer.key), buffer.tensor),
                                 "expected rank " + std::to_string(r) + " (" + layout.ranks[r].key +
                                     ") among the readers, as receiver.json says");
        }
    return layout;
}

} // namespace cleave::autodice
