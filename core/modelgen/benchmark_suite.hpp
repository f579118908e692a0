// The device benchmark suite of Arch2End's device modelling (docs/model-generation.md): small
// networks in series whose latencies make a device's HP vector (Table II's categories).
#pragma once

#include "model_spec.hpp"

#include <vector>

namespace cleave::modelgen {

// Categories: affinity (conv kinds at equal shape), scale (conv channels and matmul sizes),
// activation (special activations after one conv), sparsity (zeroed weights), memory (equal
// MACs, activations traded for weights), mobilenet (MobileNetV2 widths x resolutions), batch
// (one CNN at batch 1 to 16), fusion (blocks a runtime fuses into one kernel).
std::vector<ModelSpec> benchmark_suite();

} // namespace cleave::modelgen
