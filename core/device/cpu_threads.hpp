// A CPU PE run at fewer threads than it has cores: ONNX Runtime's intra-op threads, or OpenCV's,
// each keep one core busy, so the PE's peak rates scale with the cores used. Its memory
// bandwidth stays the PE's: a few cores already draw most of it (this machine: 1 of 2 cores reads
// 512 MiB at 31 GB/s, both at 40).
#pragma once

#include "device_spec.hpp"

#include <string>

namespace cleave::device {

// The spec with each CPU PE's peak rates scaled to `threads` of its cores and its core count set
// to `threads`. threads <= 0, or at least every core: the spec as it is.
DeviceSpec spec_at_threads(DeviceSpec spec, int threads);

// spec_at_threads for a thread count the user gave at `place` ("--threads", a cluster file's
// pointer): throws InputError(file, place, ...) for a count below 1 or above the CPU's cores,
// a device without a CPU PE, and a measured device run at another count, whose figures hold
// for its own only.
DeviceSpec device_at_threads(const DeviceSpec& spec, int threads, const std::string& file,
                             const std::string& place);

} // namespace cleave::device
