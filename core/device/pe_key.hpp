// AutoDiCE's names for processing elements, `<host>_<resource>`: the resource is `arm` or `cpu`
// followed by the PE's core numbers (`nx01_arm012345`, `lenovo_cpu0123`), or `gpu`. AutoDiCE
// has no form for cores numbered 10 or more; Cleave names those as a range, `cpu0-11`.
#pragma once

#include "device_spec.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::device {

// Whether a CPU PE with these core numbers has a name: fewer than 10 cores all numbered below
// 10 (digits), or consecutive numbers (a range).
bool core_ids_nameable(std::vector<int> ids);

// "arm012345", "cpu0-15", "gpu". Throws std::invalid_argument for core numbers that have no
// name (parse_device_spec refuses them).
std::string pe_resource(const ProcessingElement& pe);
std::string pe_key(const std::string& host, const ProcessingElement& pe);

// The cores a CPU PE's key names ("nx01_arm012345": 6, "pc_cpu0-15": 16); nullopt for a GPU's
// key or one that names no cores.
std::optional<int> key_core_count(const std::string& key);

} // namespace cleave::device
