#include "rank_engine.hpp"

#include "core/input_error.hpp"

namespace cleave::autodice {

#ifdef CLEAVE_WITH_ORT
std::unique_ptr<RankEngine> make_ort_engine(const std::filesystem::path& model, int threads,
                                            const std::filesystem::path& log);
std::string ort_engine_runtime();
#endif
#ifdef CLEAVE_WITH_OPENCV
std::unique_ptr<RankEngine> make_opencv_engine(const std::filesystem::path& model, int threads);
std::string opencv_engine_runtime();
#endif

namespace {

[[noreturn]] void missing(const std::string& engine) {
    throw InputError("", "--runner",
                     engine == "ort" || engine == "opencv"
                         ? "an engine this build has; " + engine +
                               " was not found when Cleave was built"
                         : "ort or opencv, found '" + engine + "'");
}

} // namespace

std::unique_ptr<RankEngine> make_rank_engine(const std::string& engine,
                                             const std::filesystem::path& model, int threads,
                                             [[maybe_unused]] const std::filesystem::path& log) {
#ifdef CLEAVE_WITH_ORT
    if (engine == "ort")
        return make_ort_engine(model, threads, log);
#endif
#ifdef CLEAVE_WITH_OPENCV
    if (engine == "opencv")
        return make_opencv_engine(model, threads);
#endif
    (void)model;
    (void)threads;
    missing(engine);
}

std::string rank_engine_runtime(const std::string& engine) {
#ifdef CLEAVE_WITH_ORT
    if (engine == "ort")
        return ort_engine_runtime();
#endif
#ifdef CLEAVE_WITH_OPENCV
    if (engine == "opencv")
        return opencv_engine_runtime();
#endif
    missing(engine);
}

} // namespace cleave::autodice
