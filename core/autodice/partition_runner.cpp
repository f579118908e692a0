#include "partition_runner.hpp"

#include "core/device/pe_key.hpp"

namespace cleave::autodice {

int rank_threads(const PartitionRunOptions& options, const std::string& key) {
    if (options.threads > 0)
        return options.threads;
    if (const auto it = options.pe_threads.find(key); it != options.pe_threads.end() && it->second > 0)
        return it->second;
    return device::key_core_count(key).value_or(1);
}

} // namespace cleave::autodice
