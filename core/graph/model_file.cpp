#include "model_file.hpp"

#include "../gzip_codec.hpp"
#include "../input_error.hpp"
#include "../xz_codec.hpp"
#include "mapped_file.hpp"
#include "onnx_source.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

namespace cleave::graph {

namespace fs = std::filesystem;

namespace {

std::string_view as_text(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The suffix of kModelFileSuffixes that `file` ends in, longest first; nullptr for none.
const char* model_suffix(const fs::path& file) {
    const std::string name = file.filename().string();
    for (auto it = kModelFileSuffixes.rbegin(); it != kModelFileSuffixes.rend(); ++it)
        if (name.size() > std::string_view(*it).size() && name.ends_with(*it))
            return *it;
    return nullptr;
}

// The place of `file`'s suffix in kModelFileSuffixes: the plain form first.
std::size_t suffix_rank(const fs::path& file) {
    const char* suffix = model_suffix(file);
    return static_cast<std::size_t>(
        std::find(kModelFileSuffixes.begin(), kModelFileSuffixes.end(), suffix) -
        kModelFileSuffixes.begin());
}

// The external data files the model's initializers name, by the first part of their location
// (a file, or the folder holding it).
std::set<fs::path> external_data_entries(const OnnxSource& source) {
    std::set<fs::path> entries;
    for (const auto& t : source.proto.graph().initializer()) {
        if (t.data_location() != onnx::TensorProto::EXTERNAL)
            continue;
        const auto location = external_data(t, "", "").location;
        if (!location.empty())
            entries.insert(*fs::path(location).lexically_normal().begin());
    }
    return entries;
}

} // namespace

ModelCompression model_compression(const fs::path& file, std::span<const std::uint8_t> bytes) {
    const auto extension = file.extension();
    if (extension == ".xz")
        return ModelCompression::xz;
    if (extension == ".gz")
        return ModelCompression::gzip;
    if (is_xz(as_text(bytes)))
        return ModelCompression::xz;
    if (is_gzip(as_text(bytes)))
        return ModelCompression::gzip;
    return ModelCompression::none;
}

bool is_compressed_model_file(const fs::path& file) {
    std::array<char, 6> head{};
    std::ifstream in(file, std::ios::binary);
    in.read(head.data(), head.size());
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(head.data());
    return model_compression(file, {bytes, static_cast<std::size_t>(in.gcount())}) !=
           ModelCompression::none;
}

std::string unpack_model(ModelCompression compression, std::span<const std::uint8_t> bytes,
                         const std::string& file) {
    switch (compression) {
    case ModelCompression::xz:
        return xz_decompress(as_text(bytes), file, "an ONNX model compressed with xz");
    case ModelCompression::gzip:
        return gzip_decompress(as_text(bytes), file, "an ONNX model compressed with gzip");
    case ModelCompression::none:
        break;
    }
    return std::string(as_text(bytes));
}

std::string model_name(const fs::path& file) {
    const std::string name = file.filename().string();
    if (const char* suffix = model_suffix(file))
        return name.substr(0, name.size() - std::string_view(suffix).size());
    return file.stem().string();
}

bool is_model_file_name(const fs::path& file) {
    return model_suffix(file) != nullptr;
}

fs::path existing_model_file(const fs::path& file) {
    std::error_code error;
    if (fs::exists(file, error))
        return file;
    if (!is_model_file_name(file))
        return {};
    const fs::path folder = file.parent_path();
    const std::string name = model_name(file);
    for (const char* suffix : kModelFileSuffixes)
        if (const fs::path other = folder / (name + suffix); fs::exists(other, error))
            return other;
    return {};
}

std::vector<fs::path> model_files_in(const fs::path& folder) {
    std::map<std::string, fs::path> by_name;
    std::error_code error;
    if (!fs::is_directory(folder, error))
        return {};
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const fs::path& path = entry.path();
        if (!is_model_file_name(path) || !entry.is_regular_file(error))
            continue;
        auto& chosen = by_name[model_name(path)];
        if (chosen.empty() || suffix_rank(path) < suffix_rank(chosen))
            chosen = path;
    }
    std::vector<fs::path> files;
    for (auto& [_, path] : by_name)
        files.push_back(std::move(path));
    return files;
}

void require_weights(const Model& model, const std::string& what) {
    if (!model.missing_external_data.empty())
        throw InputError(model.file, "external data",
                         "the file " + model.missing_external_data.front() +
                             " beside the model is missing; " + what + " reads the weights");
}

UnpackedModelFile::UnpackedModelFile(const Model& model) : path_(model.file) {
    require_weights(model, "running the model");
    if (!is_compressed_model_file(model.file))
        return;
    // The bytes the model was read from; a file named after the model was loaded is read again.
    std::shared_ptr<const MappedFile> file;
    if (model.source && model.source->file && model.source->file->unpacked())
        file = model.source->file;
    else
        file = std::make_shared<const MappedFile>(model.file);
    folder_ = std::make_unique<TemporaryFolder>("cleave-model");
    path_ = folder_->path() / (model_name(model.file) + ".onnx");
    {
        std::ofstream out(path_, std::ios::binary);
        out.write(reinterpret_cast<const char*>(file->bytes().data()),
                  static_cast<std::streamsize>(file->bytes().size()));
        if (!out.flush())
            throw std::runtime_error("cannot write the unpacked copy of " + model.file + " to " +
                                     path_.string());
    }
    if (!model.source)
        return;
    // External data is looked for beside the model and must lie inside its folder (symbolic
    // links out of it are refused, here as by ONNX Runtime): the copy gets hard links to the
    // model's own files, or copies of them where the temporary folder is on another file system.
    const fs::path source_folder = fs::absolute(model.source->folder);
    for (const auto& entry : external_data_entries(*model.source)) {
        if (entry == path_.filename())
            continue;
        const fs::path target = folder_->path() / entry;
        std::error_code error;
        fs::copy(source_folder / entry, target,
                 fs::copy_options::recursive | fs::copy_options::create_hard_links, error);
        if (error) {
            fs::remove_all(target, error);
            error.clear();
            fs::copy(source_folder / entry, target, fs::copy_options::recursive, error);
        }
        if (error)
            throw std::runtime_error("cannot give the unpacked copy of " + model.file +
                                     " its external data " + entry.string() + ": " +
                                     error.message());
    }
}

} // namespace cleave::graph
