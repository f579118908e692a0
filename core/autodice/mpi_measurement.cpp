#include "mpi_measurement.hpp"

#include "core/input_error.hpp"
#include "export.hpp"
#include "mapping_file.hpp"
#include "run_summary.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace cleave::autodice {

namespace {

std::string format_seconds(double seconds) {
    std::ostringstream out;
    out << seconds;
    return out.str();
}

// The last `lines` lines of a log file, for an error message.
std::string tail(const std::filesystem::path& file, int lines) {
    std::ifstream in(file);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
        all.push_back(line);
    std::string text;
    const auto first = all.size() > static_cast<std::size_t>(lines) ? all.size() - lines : 0;
    for (auto i = first; i < all.size(); ++i)
        text += (text.empty() ? "" : "\n") + all[i];
    return text.empty() ? "(no output)" : text;
}

// Kills the job's whole process group: mpirun and every rank it started here.
void kill_group(pid_t pid) {
    ::kill(-pid, SIGTERM);
    for (int i = 0; i < 40; ++i) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(-pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
}

class SpawnAttributes {
public:
    SpawnAttributes() {
        posix_spawnattr_init(&attributes_);
        posix_spawn_file_actions_init(&actions_);
    }
    ~SpawnAttributes() {
        posix_spawnattr_destroy(&attributes_);
        posix_spawn_file_actions_destroy(&actions_);
    }
    SpawnAttributes(const SpawnAttributes&) = delete;
    SpawnAttributes& operator=(const SpawnAttributes&) = delete;
    posix_spawnattr_t attributes_;
    posix_spawn_file_actions_t actions_;
};

} // namespace

std::vector<std::string> mpirun_command(const MpiLaunch& launch,
                                        const std::filesystem::path& package,
                                        const std::filesystem::path& model, int ranks) {
    std::vector<std::string> argv{launch.mpirun};
    if (launch.use_rankfile) {
        argv.insert(argv.end(), {"-rf", (package / "rankfile").string(), "-np",
                                 std::to_string(ranks)});
    } else {
        // Every rank here: more ranks than cores share them, and binding would pin them all to
        // the first core.
        argv.insert(argv.end(),
                    {"-np", std::to_string(ranks), "--oversubscribe", "--bind-to", "none"});
    }
    argv.insert(argv.end(), {launch.cleave.string(), "run-partition", package.string(), "--model",
                             model.string(), "--threads", std::to_string(launch.threads),
                             "--timeout-s", format_seconds(launch.rank_timeout_s)});
    if (launch.generate > 0)
        argv.insert(argv.end(), {"--prompt-tokens", std::to_string(launch.prompt_tokens),
                                 "--generate", std::to_string(launch.generate), "--sequences",
                                 std::to_string(launch.sequences)});
    else
        argv.insert(argv.end(), {"--inputs", std::to_string(launch.inputs)});
    return argv;
}

PackageMeasurement measure_package(const MpiLaunch& launch, const std::filesystem::path& package,
                                   const std::filesystem::path& model, int ranks) {
    const auto argv_text = mpirun_command(launch, package, model, ranks);
    std::vector<char*> argv;
    for (const auto& arg : argv_text)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    const auto log = package / "mpirun.log";
    const auto summary_file = package / "run-summary.json";
    std::filesystem::remove(summary_file);
    SpawnAttributes spawn;
    // Its own process group, so a job past its time is killed with every rank it started.
    posix_spawnattr_setflags(&spawn.attributes_, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&spawn.attributes_, 0);
    posix_spawn_file_actions_addopen(&spawn.actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&spawn.actions_, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&spawn.actions_, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = 0;
    const int error =
        posix_spawnp(&pid, argv[0], &spawn.actions_, &spawn.attributes_, argv.data(), environ);
    if (error != 0)
        throw InputError("", "--measure",
                         "could not start Open MPI's launcher '" + launch.mpirun +
                             "' (install openmpi-bin): " + std::strerror(error));

    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR)
            throw std::runtime_error("lost the measuring job: " + std::string(std::strerror(errno)));
        try {
            checkpoint(launch.control);
        } catch (const Cancelled&) {
            kill_group(pid);
            throw;
        }
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (waited > launch.job_timeout_s) {
            kill_group(pid);
            throw std::runtime_error("the measuring job ran past " +
                                     format_seconds(launch.job_timeout_s) + " s and was killed; " +
                                     "its last output (" + log.string() + "):\n" + tail(log, 8));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(
            "the measuring job failed (" +
            (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                               : "signal " + std::to_string(WTERMSIG(status))) +
            "); its last output (" + log.string() + "):\n" + tail(log, 8));
    std::ifstream in(summary_file);
    if (!in)
        throw std::runtime_error("the measuring job wrote no " + summary_file.string() +
                                 "; its last output:\n" + tail(log, 8));
    std::stringstream text;
    text << in.rdbuf();
    PackageMeasurement result;
    result.summary = text.str();
    const RunSummary summary = parse_run_summary(result.summary, summary_file.string());
    result.ranks = summary.ranks;
    result.throughput_ips = summary.throughput_ips;
    // Always run with the check; a summary without one has nothing to compare.
    result.max_abs_diff = summary.max_abs_diff.value_or(std::numeric_limits<double>::quiet_NaN());
    result.wall_ms = summary.wall_ms;
    return result;
}

PackageMeasurement measure_assignment(const MpiLaunch& launch, const graph::Model& model,
                                      const fusion::KernelGraph& kernels,
                                      const partition::KernelAssignment& assignment,
                                      const device::Cluster& cluster,
                                      const std::filesystem::path& work_dir) {
    static std::atomic<int> counter{0};
    auto package = make_package(model, package_parts(model, kernels, assignment, cluster), &cluster,
                                "measured mapping");
    package.mapping_json = mapping_file_json(model, kernels, assignment, cluster);
    const auto folder = work_dir / ("measure-" + std::to_string(::getpid()) + "-" +
                                    std::to_string(counter++));
    write_package(model, package, folder);
    // A failed run keeps its folder: the error names its log.
    std::error_code ignored;
    try {
        auto result =
            measure_package(launch, folder, model.file, static_cast<int>(package.parts.size()));
        std::filesystem::remove_all(folder, ignored);
        return result;
    } catch (const Cancelled&) {
        std::filesystem::remove_all(folder, ignored);
        throw;
    }
}

} // namespace cleave::autodice
