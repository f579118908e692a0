// A plugin built for another plugin ABI, which the registry must refuse to use.
#include "core/plugin/plugin_registry.hpp"

extern "C" const cleave::plugin::PluginDescriptor* cleave_plugin() {
    static const cleave::plugin::PluginDescriptor descriptor{
        cleave::plugin::kPluginAbiVersion + 1, "profiler", "other-abi", "a test plugin",
        []() -> void* { return nullptr; }};
    return &descriptor;
}
