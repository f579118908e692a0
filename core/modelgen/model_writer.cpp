#include "model_writer.hpp"

#include "core/atomic_file.hpp"

#include <nlohmann/json.hpp>

namespace cleave::modelgen {

WrittenModel write_model(const ModelSpec& spec, const std::filesystem::path& folder,
                         std::uint64_t seed) {
    // Each model's weights from the seed and its name (FNV-1a), whatever the order.
    std::uint64_t hash = 14695981039346656037ull;
    for (const char ch : spec.name)
        hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    NetBuilder builder(spec.name, spec.input_shape, seed ^ hash);
    spec.build(builder);
    const std::string file = spec.name + ".onnx";
    builder.save(folder / file);
    return {spec.name, spec.category, file, std::filesystem::file_size(folder / file)};
}

std::vector<WrittenModel> write_models(const std::vector<ModelSpec>& specs,
                                       const std::filesystem::path& folder, std::uint64_t seed,
                                       const TaskControl* control) {
    std::filesystem::create_directories(folder);
    std::vector<WrittenModel> written;
    auto manifest = nlohmann::ordered_json::array();
    int done = 0;
    for (const auto& s : specs) {
        written.push_back(write_model(s, folder, seed));
        const std::string& file = written.back().file;
        manifest.push_back({{"name", s.name},
                            {"category", s.category},
                            {"description", s.description},
                            {"input_shape", s.input_shape},
                            {"file", file}});
        ++done;
        report_progress(control,
                        {.fraction = static_cast<double>(done) / static_cast<double>(specs.size()),
                         .stage = "[" + std::to_string(done) + "/" + std::to_string(specs.size()) +
                                  "] " + s.name});
    }
    write_file_atomically(folder / "manifest.json",
                          nlohmann::ordered_json{{"format", "cleave-generated-models"},
                                                 {"version", 1},
                                                 {"seed", seed},
                                                 {"models", manifest}}
                                  .dump(2) +
                              "\n");
    return written;
}

} // namespace cleave::modelgen
