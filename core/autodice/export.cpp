#include "export.hpp"

#include "core/device/pe_key.hpp"
#include "core/graph/autodice_names.hpp"
#include "core/input_error.hpp"
#include "core/partition/waiting_cycle.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace cleave::autodice {

namespace {

namespace fs = std::filesystem;

std::string in_quotes(const std::string& s) {
    return "'" + s + "'";
}

std::string buffer_name(const graph::Model& model, int tensor) {
    return graph::sub_model_tensor_name(model.tensors[static_cast<std::size_t>(tensor)].name,
                                        graph::SubModelNaming::autodice);
}

std::string comm_json(const graph::Model& model, const std::vector<PackagePart>& parts,
                      const std::vector<std::vector<CommEntry>>& tables) {
    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    for (std::size_t r = 0; r < parts.size(); ++r) {
        nlohmann::ordered_json table = nlohmann::ordered_json::object();
        for (const auto& entry : tables[r])
            table[buffer_name(model, entry.tensor)] = entry.ranks;
        root[parts[r].key] = table;
    }
    return root.dump(2) + "\n";
}

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
    throw InputError(path.string(), "", what + " (" + std::strerror(errno) + ")");
}

void sync_folder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        fail(folder, "cannot open the folder to flush it");
    const int result = ::fsync(fd);
    ::close(fd);
    if (result != 0)
        fail(folder, "cannot flush the folder");
}

void write_text(const fs::path& file, const std::string& text) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(file, "cannot create the file");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            errno = error;
            fail(file, "cannot write the file");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
        fail(file, "cannot close the file");
}

// fsyncs the files at once, from up to 32 threads: the block layer merges concurrent cache
// flushes, so 30 files cost about one flush, not 30 in a row.
void sync_files(const fs::path& folder, const std::vector<WrittenFile>& files) {
    constexpr std::size_t kMaxThreads = 32;
    std::vector<int> errors(files.size(), 0);
    std::vector<std::thread> threads;
    const std::size_t count = std::min(files.size(), kMaxThreads);
    for (std::size_t first = 0; first < count; ++first)
        threads.emplace_back([&, first] {
            for (std::size_t i = first; i < files.size(); i += count) {
                const int fd = ::open((folder / files[i].name).c_str(), O_RDONLY | O_CLOEXEC);
                if (fd < 0 || ::fsync(fd) != 0)
                    errors[i] = errno;
                if (fd >= 0)
                    ::close(fd);
            }
        });
    for (auto& t : threads)
        t.join();
    for (std::size_t i = 0; i < files.size(); ++i)
        if (errors[i] != 0) {
            errno = errors[i];
            fail(folder / files[i].name, "cannot flush the file");
        }
}

// Removes a folder this export made; errors are ignored (the first failure is what matters).
void remove_quietly(const fs::path& folder) {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
}

} // namespace

std::vector<PackagePart> package_parts(const graph::Model& model,
                                       const fusion::KernelGraph& kernels,
                                       const partition::KernelAssignment& assignment,
                                       const device::Cluster& cluster) {
    std::vector<std::vector<int>> nodes(cluster.pes.size());
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const int k = kernels.kernel_of_node[n];
        nodes[static_cast<std::size_t>(assignment.pe_of_kernel[static_cast<std::size_t>(k)])]
            .push_back(static_cast<int>(n));
    }
    std::vector<PackagePart> parts;
    for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
        if (!nodes[pe].empty())
            parts.push_back({cluster.pes[pe].key, std::move(nodes[pe])});
    return parts;
}

std::string rank_slots(const device::Cluster& cluster, const device::ClusterPe& pe) {
    if (pe.kind == device::PeKind::cpu) {
        std::vector<int> ids = pe.spec.core_ids;
        std::sort(ids.begin(), ids.end());
        if (device::pe_resource(pe.spec).find('-') != std::string::npos)
            return std::to_string(ids.front()) + "-" + std::to_string(ids.back());
        std::string slots;
        for (const int id : ids)
            slots += (slots.empty() ? "" : ",") + std::to_string(id);
        return slots;
    }
    // A GPU rank still runs on a CPU core of its host: the last one.
    int last = 0;
    for (const auto& other : cluster.pes)
        if (other.host == pe.host && other.kind == device::PeKind::cpu)
            for (const int id : other.spec.core_ids)
                last = std::max(last, id);
    return std::to_string(last);
}

namespace {

// Per node its rank (its part's index), checking that every key is a PE of the cluster (when
// given), once, with nodes, and that every node is mapped once.
std::vector<int> ranks_of_nodes(const graph::Model& model, const std::vector<PackagePart>& parts,
                                const device::Cluster* cluster, const std::string& source) {
    const std::size_t count = parts.size();
    std::vector<int> rank_of_node(model.nodes.size(), -1);
    for (std::size_t r = 0; r < count; ++r) {
        const auto& part = parts[r];
        for (std::size_t q = 0; q < r; ++q)
            if (parts[q].key == part.key)
                throw InputError(source, "mapping key " + in_quotes(part.key),
                                 "appears twice; expected each PE key once");
        if (cluster && !cluster->find_pe(part.key)) {
            std::string known;
            for (const auto& pe : cluster->pes)
                known += (known.empty() ? "" : ", ") + pe.key;
            throw InputError(source, "mapping key " + in_quotes(part.key),
                             "is no PE of cluster " + cluster->file + "; its PEs are: " + known);
        }
        if (part.nodes.empty())
            throw InputError(source, "mapping key " + in_quotes(part.key),
                             "has no nodes; expected at least one");
        for (const int n : part.nodes) {
            if (n < 0 || n >= static_cast<int>(model.nodes.size()))
                throw InputError(source, "mapping key " + in_quotes(part.key),
                                 "node #" + std::to_string(n) + " is no node of the model");
            int& rank = rank_of_node[static_cast<std::size_t>(n)];
            if (rank >= 0)
                throw InputError(source, "node " + in_quotes(model.nodes[n].name),
                                 "is mapped twice, to " +
                                     parts[static_cast<std::size_t>(rank)].key + " and " +
                                     part.key + "; expected each node once");
            rank = static_cast<int>(r);
        }
    }
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        if (rank_of_node[n] < 0)
            throw InputError(source, "node " + in_quotes(model.nodes[n].name),
                             "is mapped to no PE key; expected every node exactly once");
    return rank_of_node;
}

// Per rank, the tensors it receives from other ranks and those it sends them.
void plan_messages(const graph::Model& model, const std::vector<int>& rank_of_node,
                   Package& package) {
    const std::size_t count = package.sub_models.size();
    package.receivers.resize(count);
    package.senders.resize(count);
    for (std::size_t r = 0; r < count; ++r) {
        const auto& plan = package.sub_models[r];
        for (const int t : plan.inputs) {
            const int producer = model.tensors[static_cast<std::size_t>(t)].producer;
            if (producer >= 0)
                package.receivers[r].push_back(
                    {t, {rank_of_node[static_cast<std::size_t>(producer)]}});
        }
        for (const int t : plan.outputs) {
            std::vector<int> ranks;
            for (const int c : model.tensors[static_cast<std::size_t>(t)].consumers) {
                const int rank = rank_of_node[static_cast<std::size_t>(c)];
                if (rank != static_cast<int>(r))
                    ranks.push_back(rank);
            }
            std::sort(ranks.begin(), ranks.end());
            ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
            if (!ranks.empty())
                package.senders[r].push_back({t, std::move(ranks)});
        }
    }
}

// Refuses parts whose sub-models would wait on each other.
void check_no_waiting_cycle(const std::vector<PackagePart>& parts, const Package& package,
                            const std::string& source) {
    const std::size_t count = parts.size();
    std::vector<std::pair<int, int>> waits; // rank r receives a tensor from rank q
    for (std::size_t r = 0; r < count; ++r)
        for (const auto& entry : package.receivers[r])
            for (const int q : entry.ranks)
                waits.emplace_back(static_cast<int>(r), q);
    if (const auto cycle = partition::waiting_cycle(static_cast<int>(count), waits);
        !cycle.empty()) {
        std::string keys;
        for (const int r : cycle)
            keys += parts[static_cast<std::size_t>(r)].key + " -> ";
        keys += parts[static_cast<std::size_t>(cycle.front())].key;
        throw InputError(source, "mapping",
                         "its sub-models would wait on each other (tensors flow " + keys +
                             "); expected each PE key's nodes to need only tensors of keys "
                             "that do not need theirs");
    }
}

// mapping.json: per PE key its nodes' AutoDiCE names, in node order (the parts' nodes sorted).
std::string mapping_json(const graph::Model& model, std::vector<PackagePart>& parts) {
    nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
    for (auto& part : parts) {
        std::sort(part.nodes.begin(), part.nodes.end());
        auto names = nlohmann::ordered_json::array();
        for (const int n : part.nodes)
            names.push_back(graph::autodice_name(model, model.nodes[static_cast<std::size_t>(n)]));
        mapping[part.key] = std::move(names);
    }
    return mapping.dump(2) + "\n";
}

// platform.txt, the rankfile (a rank per part, on its PE's host and cores) and the hostfile.
void write_cluster_files(const device::Cluster& cluster, const std::vector<PackagePart>& parts,
                         Package& package) {
    package.platform_txt = device::platform_file_text(device::platform_of(cluster));
    std::string rankfile;
    std::string hostfile;
    std::vector<std::string> hosts;
    for (std::size_t r = 0; r < parts.size(); ++r) {
        const device::ClusterPe& pe = *cluster.find_pe(parts[r].key);
        rankfile += "rank " + std::to_string(r) + "=" + pe.host +
                    "    slots=" + rank_slots(cluster, pe) + "\n";
        if (std::find(hosts.begin(), hosts.end(), pe.host) == hosts.end()) {
            hosts.push_back(pe.host);
            hostfile += pe.host + "\n";
        }
    }
    package.rankfile = std::move(rankfile);
    package.hostfile = std::move(hostfile);
}

} // namespace

Package make_package(const graph::Model& model, std::vector<PackagePart> parts,
                     const device::Cluster* cluster, const std::string& source) {
    if (parts.empty())
        throw InputError(source, "mapping", "maps no nodes; expected at least one PE key");
    const auto rank_of_node = ranks_of_nodes(model, parts, cluster, source);
    Package package;
    for (const auto& part : parts)
        package.sub_models.push_back(graph::plan_sub_model(model, part.nodes));
    plan_messages(model, rank_of_node, package);
    check_no_waiting_cycle(parts, package, source);
    package.mapping_json = mapping_json(model, parts);
    package.sender_json = comm_json(model, parts, package.senders);
    package.receiver_json = comm_json(model, parts, package.receivers);
    if (cluster)
        write_cluster_files(*cluster, parts, package);
    package.parts = std::move(parts);
    return package;
}

std::vector<WrittenFile> write_package(const graph::Model& model, const Package& package,
                                       const fs::path& folder, const ExportOptions& options) {
    const fs::path target = folder.has_filename() ? folder : folder.parent_path();
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    const auto status = fs::symlink_status(target, ec);
    const bool exists = fs::exists(status);
    if (exists) {
        if (!fs::is_directory(status))
            throw InputError(target.string(), "",
                             "exists and is not a folder; expected a folder "
                             "for the AutoDiCE package");
        if (!fs::is_empty(target, ec) && !fs::exists(target / "mapping.json", ec))
            throw InputError(target.string(), "",
                             "is a folder that holds no mapping.json; only an empty folder or an "
                             "earlier export is replaced");
    }
    if (!fs::is_directory(parent, ec))
        throw InputError(target.string(), "", "its parent folder does not exist");

    std::string pattern = (parent / ("." + target.filename().string() + ".new-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        fail(target, "cannot create a folder beside it");
    const fs::path building(pattern);
    std::vector<WrittenFile> written;
    try {
        ::chmod(building.c_str(), 0755);
        auto text = [&](const std::string& name, const std::string& contents) {
            write_text(building / name, contents);
            written.push_back({name, contents.size()});
        };
        text("mapping.json", package.mapping_json);
        if (package.platform_txt)
            text("platform.txt", *package.platform_txt);
        if (package.rankfile)
            text("rankfile", *package.rankfile);
        if (package.hostfile)
            text("hostfile", *package.hostfile);
        text("sender.json", package.sender_json);
        text("receiver.json", package.receiver_json);
        if (options.sub_models)
            for (std::size_t r = 0; r < package.parts.size(); ++r) {
                const std::string name = package.parts[r].key + ".onnx";
                written.push_back(
                    {name, graph::write_sub_model(model, package.sub_models[r], building / name,
                                                  graph::SubModelNaming::autodice, false)});
                // Its external data, where the model keeps weights so.
                const auto data = graph::sub_model_data_file(building / name);
                if (fs::exists(data, ec))
                    written.push_back({data.filename().string(), fs::file_size(data, ec)});
            }
        sync_files(building, written);
        sync_folder(building);
        if (exists) {
            // Swap the complete new folder with the old one in one step, then drop the old.
            if (::renameat2(AT_FDCWD, building.c_str(), AT_FDCWD, target.c_str(),
                            RENAME_EXCHANGE) == 0) {
                remove_quietly(building);
            } else if (errno == EINVAL || errno == ENOSYS) {
                // A file system without exchange: move the old folder aside first.
                const fs::path old = building.string() + ".old";
                if (::rename(target.c_str(), old.c_str()) != 0)
                    fail(target, "cannot move the earlier export aside");
                if (::rename(building.c_str(), target.c_str()) != 0) {
                    const int error = errno;
                    ::rename(old.c_str(), target.c_str());
                    errno = error;
                    fail(target, "cannot move the new folder into place");
                }
                remove_quietly(old);
            } else {
                fail(target, "cannot replace the folder");
            }
        } else if (::rename(building.c_str(), target.c_str()) != 0) {
            fail(target, "cannot move the new folder into place");
        }
        sync_folder(parent);
    } catch (...) {
        remove_quietly(building); // the new files, or after the swap the old ones
        throw;
    }
    return written;
}

} // namespace cleave::autodice
