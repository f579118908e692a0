// cleave version: Cleave's version and the versions of the libraries it was built with, read from
// their headers' version macros at build time (core/library_versions.cmake), as Help > About
// shows them; --json for scripts and bug reports.
#include "commands.hpp"
#include "output.hpp"

#include <cleave/library_versions.hpp>
#include <cleave/version.hpp>
#include <cstdio>
#include <memory>

namespace cleave::cli {

Action add_version_command(CLI::App& app) {
    auto json = std::make_shared<bool>(false);
    auto* command = app.add_subcommand(
        "version", "Cleave's version and the versions of the libraries it was built with");
    command->add_flag("--json", *json,
                      "Print {\"cleave\", \"libraries\": [{\"name\", \"version\", \"use\"}]}; a "
                      "plugin library not found at build time has version null");
    return [json] {
        if (*json) {
            auto libraries = nlohmann::ordered_json::array();
            for (const auto& library : kLibraryVersions)
                libraries.push_back(
                    {{"name", library.name},
                     {"version", *library.version ? nlohmann::ordered_json(library.version)
                                                  : nlohmann::ordered_json()},
                     {"use", library.use}});
            emit_json({{"cleave", kVersion}, {"libraries", libraries}}, true, "");
            return 0;
        }
        std::printf("cleave %s\n", kVersion);
        for (const auto& library : kLibraryVersions)
            std::printf("  %-14s %-10s %s\n", library.name,
                        *library.version ? library.version : "not built", library.use);
        return 0;
    };
}

} // namespace cleave::cli
