// libFuzzer target for the ONNX importer: any bytes must either load or be refused with an
// InputError; a crash, a sanitizer report, a hang or any other exception is a bug.
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        cleave::graph::load_model_from_bytes(std::vector<std::uint8_t>(data, data + size),
                                             "fuzz.onnx");
    } catch (const cleave::InputError&) {
        // refused with a message: the expected outcome for most inputs
    }
    return 0;
}
