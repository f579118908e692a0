#include "plugin_registry.hpp"

#include "core/input_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace cleave::plugin {

namespace {

constexpr std::string_view kFilePrefix = "libcleave_plugin_";
constexpr std::string_view kFileSuffix = ".so";

bool is_plugin_file(const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    return name.size() > kFilePrefix.size() + kFileSuffix.size() && name.starts_with(kFilePrefix) &&
           name.ends_with(kFileSuffix);
}

std::string describe(const PluginDescriptor& d) {
    return std::string(d.kind) + " plugin '" + d.name + "'";
}

} // namespace

std::vector<std::filesystem::path> PluginRegistry::default_folders() {
    std::vector<std::filesystem::path> folders;
    if (const char* dir = std::getenv("CLEAVE_PLUGIN_DIR"); dir && *dir)
        folders.emplace_back(dir);
    std::error_code ec;
    const auto executable = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        folders.push_back(
            (executable.parent_path() / ".." / "lib" / "cleave" / "plugins").lexically_normal());
    return folders;
}

std::string PluginRegistry::untrusted_reason(const std::filesystem::path& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        const int why = errno;
        return path.string() + " cannot be checked: " + std::generic_category().message(why);
    }
    if (status.st_uid != 0 && status.st_uid != ::geteuid())
        return path.string() + " is writable by others: it belongs to user " +
               std::to_string(status.st_uid) + ", neither this user (" +
               std::to_string(::geteuid()) + ") nor root; plugins load only from folders and " +
               "files of this user or root (chown it, or use a copy of your own)";
    if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
        return path.string() + " is writable by others (mode " + mode +
               "); plugins load only from folders and files that no one but their owner can " +
               "write: chmod go-w " + path.string();
    }
    return {};
}

PluginRegistry::PluginRegistry(std::vector<std::filesystem::path> folders)
    : folders_(std::move(folders)) {
    std::vector<std::filesystem::path> scanned; // canonical, so that one folder is read once
    for (const auto& folder : folders_) {
        std::error_code ec;
        const auto canonical = std::filesystem::canonical(folder, ec);
        if (ec || !std::filesystem::is_directory(canonical, ec) ||
            std::find(scanned.begin(), scanned.end(), canonical) != scanned.end())
            continue;
        scanned.push_back(canonical);
        std::vector<std::filesystem::path> paths;
        for (const auto& entry : std::filesystem::directory_iterator(canonical, ec))
            if (is_plugin_file(entry.path()))
                paths.push_back(entry.path());
        std::sort(paths.begin(), paths.end());
        const std::string folder_refused = untrusted_reason(canonical);
        for (const auto& path : paths)
            load(path, folder_refused);
    }
}

void PluginRegistry::load(const std::filesystem::path& path, const std::string& folder_refused) {
    PluginFile& file = files_.emplace_back();
    file.path = path;
    // Loading runs the library's constructors, so trust comes first: the folder, the file, and
    // the folder a link leads to.
    file.error = folder_refused;
    std::error_code ec;
    const auto target = std::filesystem::canonical(path, ec);
    if (file.error.empty() && ec)
        file.error = "cannot be resolved: " + ec.message();
    if (file.error.empty())
        file.error = untrusted_reason(target);
    if (file.error.empty() && target.parent_path() != path.parent_path())
        file.error = untrusted_reason(target.parent_path());
    if (!file.error.empty())
        return;
    // RTLD_NODELETE: libraries stay loaded (see the header).
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        const char* reason = ::dlerror();
        file.error = reason ? reason : "dlopen failed";
        return;
    }
    using EntryPoint = const PluginDescriptor* (*)();
    void* symbol = ::dlsym(handle, kPluginEntryPoint);
    if (!symbol) {
        file.error = std::string("not a Cleave plugin: it exports no '") + kPluginEntryPoint + "'";
        return;
    }
    const PluginDescriptor* d = reinterpret_cast<EntryPoint>(symbol)();
    if (!d) {
        file.error = std::string(kPluginEntryPoint) + "() returned no descriptor";
        return;
    }
    if (d->abi_version != kPluginAbiVersion) {
        file.error = "built for plugin ABI " + std::to_string(d->abi_version) +
                     ", this Cleave loads ABI " + std::to_string(kPluginAbiVersion) +
                     "; rebuild the plugin with this Cleave";
        return;
    }
    if (!d->kind || !*d->kind || !d->name || !*d->name || !d->create) {
        file.error = "its descriptor lacks a kind, a name or a factory";
        return;
    }
    for (const auto& other : files_)
        if (other.descriptor && std::string_view(other.descriptor->kind) == d->kind &&
            std::string_view(other.descriptor->name) == d->name) {
            file.error = "the " + describe(*d) + " is already loaded from " + other.path.string();
            return;
        }
    file.descriptor = d;
}

std::vector<const PluginDescriptor*> PluginRegistry::plugins(std::string_view kind) const {
    std::vector<const PluginDescriptor*> found;
    for (const auto& file : files_)
        if (file.descriptor && file.descriptor->kind == kind)
            found.push_back(file.descriptor);
    return found;
}

const PluginDescriptor* PluginRegistry::find(std::string_view kind, std::string_view name) const {
    for (const auto* d : plugins(kind))
        if (d->name == name)
            return d;
    return nullptr;
}

std::string PluginRegistry::why_missing(std::string_view kind, std::string_view name) const {
    if (find(kind, name))
        return {};
    std::string message = "no " + std::string(kind) + " plugin named '" + std::string(name) + "'";
    std::string available;
    for (const auto* d : plugins(kind))
        available += (available.empty() ? "" : ", ") + std::string(d->name);
    message +=
        available.empty() ? " (none of that kind is loaded)" : " (available: " + available + ")";
    for (const auto& file : files_)
        if (file.descriptor && file.descriptor->name == name)
            message += "; '" + std::string(name) + "' is a " + describe(*file.descriptor);
    // Files that did not load for one reason (a refused folder) are named together.
    std::vector<std::pair<std::string, std::string>> failed; // paths, the reason
    for (const auto& file : files_) {
        if (file.descriptor)
            continue;
        const auto same = std::find_if(failed.begin(), failed.end(),
                                       [&](const auto& f) { return f.second == file.error; });
        if (same == failed.end())
            failed.emplace_back(file.path.string(), file.error);
        else
            same->first += ", " + file.path.string();
    }
    for (const auto& [paths, reason] : failed)
        message += "; " + paths + " did not load: " + reason;
    const bool any_file = !files_.empty();
    if (!any_file) {
        std::string searched;
        for (const auto& folder : folders_)
            searched += (searched.empty() ? "" : ", ") + folder.string();
        message += "; no libcleave_plugin_*.so in " + (searched.empty() ? "any folder" : searched) +
                   " (set CLEAVE_PLUGIN_DIR to the folder holding the plugins)";
    }
    return message;
}

void* PluginRegistry::create_object(std::string_view kind, std::string_view name,
                                    const std::string& option) const {
    const PluginDescriptor* d = find(kind, name);
    if (!d)
        throw InputError("", option, why_missing(kind, name));
    void* object = d->create();
    if (!object)
        throw std::runtime_error("the " + describe(*d) + " could not create its object");
    return object;
}

} // namespace cleave::plugin
