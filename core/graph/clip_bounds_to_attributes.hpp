// Runtimes whose ONNX importers predate opset 11 (OpenCV 4.6 DNN) read Clip's bounds only from
// the `min` and `max` attributes of Clip-6 and refuse the bound inputs that exporters now write.
// For them only, a model is rewritten with constant bounds as attributes: the result is not
// valid ONNX at the model's own opset, so it is never written over the user's file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cleave::graph {

struct ClipBoundsRewrite {
    std::string model; // the rewritten ModelProto, serialized
    int clips = 0;     // Clips whose bounds became attributes
};

// nullopt when no Clip has constant bound inputs. Clips whose bounds are computed at run time
// are left as they are. Throws InputError naming the file when it is not an ONNX model.
std::optional<ClipBoundsRewrite> clip_bounds_to_attributes(const std::filesystem::path& file);

} // namespace cleave::graph
