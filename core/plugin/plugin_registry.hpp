// Optional back ends (profilers, predictors, runners) live in shared libraries named
// libcleave_plugin_*.so, loaded at run time. Each exports one C entry point returning a
// PluginDescriptor: the interface kind it implements, its name and a factory. Callers ask the
// registry for an object of an interface by name and never name a plugin library.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::plugin {

// Raised whenever a struct or interface that crosses the plugin boundary changes.
inline constexpr int kPluginAbiVersion = 2;

// The symbol every plugin exports: `extern "C" const PluginDescriptor* cleave_plugin();`
inline constexpr const char* kPluginEntryPoint = "cleave_plugin";

struct PluginDescriptor {
    int abi_version;  // stays the first member in every version, so that mismatches are caught
    const char* kind; // the interface: Interface::kPluginKind ("profiler", "predictor")
    const char* name; // what users pick it by ("opencv")
    const char* description; // one line: the library it adapts and that library's version
    // A new object implementing the kind's interface, as `Interface*` converted to void*; the
    // caller owns it.
    void* (*create)();
};

struct PluginFile {
    std::filesystem::path path;
    const PluginDescriptor* descriptor = nullptr; // null when it did not load
    std::string error;                            // why it did not load
};

class PluginRegistry {
public:
    // In search order: $CLEAVE_PLUGIN_DIR, then <the executable's folder>/../lib/cleave/plugins
    // (the install tree's, or the build tree's for a program run from the build tree: it lays
    // plugins out alike). No path of the machine that built Cleave is compiled in.
    static std::vector<std::filesystem::path> default_folders();

    // Loads every libcleave_plugin_*.so in the folders that exist (each folder once); of two
    // plugins with one kind and name the first is kept and the second records why it was not.
    // A folder or file others can write is refused before anything in it is loaded, since
    // loading runs its code: untrusted_reason() says why.
    // Libraries are never unloaded: those they wrap (OpenCV) keep worker threads in their code.
    explicit PluginRegistry(std::vector<std::filesystem::path> folders = default_folders());

    const std::vector<std::filesystem::path>& folders() const { return folders_; }
    const std::vector<PluginFile>& files() const { return files_; }
    std::vector<const PluginDescriptor*> plugins(std::string_view kind) const;
    const PluginDescriptor* find(std::string_view kind, std::string_view name) const;

    // A new object of the plugin `name` of the interface's kind. Throws InputError (place:
    // `option`, the flag that named it) when there is none; the message says why.
    template <class Interface>
    std::unique_ptr<Interface> create(std::string_view name, const std::string& option) const {
        return std::unique_ptr<Interface>(
            static_cast<Interface*>(create_object(Interface::kPluginKind, name, option)));
    }

    // Why no plugin `name` of `kind` is loaded: what is available of that kind, the files that
    // failed to load with their reasons, the folders searched. Empty when it is loaded.
    std::string why_missing(std::string_view kind, std::string_view name) const;

    // Why a plugin folder or file is not trusted, or empty when it is: others can write it
    // (group- or world-writable, or owned by a user other than root and this process's user).
    // The reason names the path and says how to fix it.
    static std::string untrusted_reason(const std::filesystem::path& path);

private:
    void* create_object(std::string_view kind, std::string_view name,
                        const std::string& option) const;
    void load(const std::filesystem::path& path, const std::string& folder_refused);

    std::vector<std::filesystem::path> folders_;
    std::vector<PluginFile> files_;
};

} // namespace cleave::plugin
