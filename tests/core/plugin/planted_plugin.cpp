// A plugin as someone else could plant it: its constructor runs the moment it is loaded, and
// leaves a mark (an environment variable) that the registry test looks for.
#include "core/plugin/plugin_registry.hpp"

#include <cstdlib>

namespace {

__attribute__((constructor)) void mark_that_it_ran() {
    ::setenv("CLEAVE_PLANTED_PLUGIN_RAN", "1", 1);
}

} // namespace

extern "C" const cleave::plugin::PluginDescriptor* cleave_plugin() {
    static const cleave::plugin::PluginDescriptor descriptor{cleave::plugin::kPluginAbiVersion,
                                                             "profiler", "planted", "a test plugin",
                                                             []() -> void* { return nullptr; }};
    return &descriptor;
}
