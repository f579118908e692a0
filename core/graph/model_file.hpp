// The forms a model file takes on disk: plain ONNX (.onnx), or compressed with xz (.onnx.xz) or
// gzip (.onnx.gz). Every reader in core/graph takes any of them (MappedFile unpacks them); an
// engine that opens the path itself (ONNX Runtime, OpenCV) is given an unpacked copy instead.
#pragma once

#include "../temporary_folder.hpp"
#include "model.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace cleave::graph {

enum class ModelCompression { none, xz, gzip };

// The suffixes a model file ends in, the plain one first.
inline constexpr std::array<const char*, 3> kModelFileSuffixes{".onnx", ".onnx.xz", ".onnx.gz"};

// How `bytes`, read from `file`, are compressed: the name decides (".xz", ".gz"); a name without
// either is compressed only when the bytes start with xz's or gzip's magic.
ModelCompression model_compression(const std::filesystem::path& file,
                                   std::span<const std::uint8_t> bytes);

// Whether the file at `file` holds a compressed model, told as model_compression tells it from
// its name and first bytes.
bool is_compressed_model_file(const std::filesystem::path& file);

// The bytes unpacked; InputError naming `file` and the byte when they are not valid xz or gzip.
std::string unpack_model(ModelCompression compression, std::span<const std::uint8_t> bytes,
                         const std::string& file);

// "resnet18" for resnet18.onnx, resnet18.onnx.xz and resnet18.onnx.gz; the stem of other names.
std::string model_name(const std::filesystem::path& file);
bool is_model_file_name(const std::filesystem::path& file);

// `file` when it exists; else the same model beside it in another form (x.onnx.xz or x.onnx.gz
// for x.onnx, x.onnx for x.onnx.xz), the plain one first; empty when there is none.
std::filesystem::path existing_model_file(const std::filesystem::path& file);

// One file per model in `folder`, in any form (an unpacked copy before a compressed one), sorted
// by model name; empty when `folder` is not a folder.
std::vector<std::filesystem::path> model_files_in(const std::filesystem::path& folder);

// Throws InputError naming the model and the first external data file it lacks, for the work
// that reads weights (`what`: "profiling"); returns when every weight is there.
void require_weights(const Model& model, const std::string& what);

// A path an engine that reads ONNX files itself can open: the model's own file when it is plain
// ONNX, else the model's bytes unpacked into a temporary folder that goes with this object, with
// the external data files of the model's folder beside it (hard links where it can).
class UnpackedModelFile {
public:
    // Throws std::runtime_error when the copy cannot be written, InputError (require_weights)
    // when the model lacks an external data file.
    explicit UnpackedModelFile(const Model& model);

    const std::filesystem::path& path() const { return path_; }

private:
    std::unique_ptr<TemporaryFolder> folder_; // only for a compressed model
    std::filesystem::path path_;
};

} // namespace cleave::graph
