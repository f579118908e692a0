// libFuzzer targets for the files a user can feed Cleave, one executable per kind
// (CLEAVE_FUZZ_KIND: predictor_fuzz, device_fuzz, ...): the bytes are written to a file named
// as the kind's files are and read as the product reads it (tests/readers/user_file_readers.hpp).
// Every input must be read or refused with an InputError; a crash, a sanitizer report, a hang or
// any other exception is a bug. docs/fuzzing.md says how to build and run them.
#include "core/input_error.hpp"
#include "tests/readers/user_file_readers.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

std::string file_name(const std::string& kind) {
    if (kind == "cluster")
        return "fuzz.cluster.json";
    if (kind == "platform")
        return "fuzz.platform.txt";
    if (kind == "project")
        return "fuzz.cleave";
    return "fuzz.json";
}

std::filesystem::path& input_path() {
    static std::filesystem::path path;
    return path;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // A folder of this process's own: the input file, the user library a bundle is imported
    // into, and the paths a project names (models/, clusters/).
    const auto folder =
        std::filesystem::temp_directory_path() /
        ("cleave-fuzz-" + std::string(CLEAVE_FUZZ_KIND) + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::error_code ignored;
    std::filesystem::create_directory_symlink(CLEAVE_FUZZ_MODELS_DIR, folder / "models", ignored);
    std::filesystem::create_directory_symlink(CLEAVE_FUZZ_CLUSTERS_DIR, folder / "clusters",
                                              ignored);
    ::setenv("XDG_DATA_HOME", (folder / "user-data").c_str(), 1);
    input_path() = folder / file_name(CLEAVE_FUZZ_KIND);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    {
        std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    static const auto fixtures = cleave::test::fixtures_for(
        CLEAVE_FUZZ_KIND, CLEAVE_FUZZ_MODELS_DIR, CLEAVE_FUZZ_CLUSTERS_DIR);
    try {
        cleave::test::read_user_file(CLEAVE_FUZZ_KIND, input_path().string(), fixtures);
    } catch (const cleave::InputError&) {
        // refused with a message: the expected outcome for most inputs
    }
    return 0;
}
