// libFuzzer target for the ONNX importer: any bytes must either load or be refused with an
// InputError; a crash, a sanitizer report, a hang or any other exception is a bug. docs/fuzzing.md
// says how to build and run it.
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        cleave::graph::load_model_from_bytes(bytes, "fuzz.onnx");
        // A model that loads goes through the other paths too: declared shapes dropped, so
        // libonnx infers every value from the inputs, and every node renamed.
        cleave::graph::LoadOptions reinferred;
        reinferred.keep_declared_shapes = false;
        reinferred.autodice_names = true;
        cleave::graph::load_model_from_bytes(bytes, "fuzz.onnx", reinferred);
    } catch (const cleave::InputError&) {
        // refused with a message: the expected outcome for most inputs
    }
    return 0;
}
