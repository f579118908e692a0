// The plugin registry finds libcleave_plugin_*.so files, loads the OpenCV profiler built with
// Cleave, refuses plugins others can write, and says why a plugin is missing or did not load.
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/profiler.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <sys/stat.h>

namespace {

using cleave::plugin::PluginFile;
using cleave::plugin::PluginRegistry;

// What tests/core/plugin/planted_plugin.cpp's constructor sets when it runs.
constexpr const char* kRanMark = "CLEAVE_PLANTED_PLUGIN_RAN";

PluginRegistry registry_of(const QString& folder) {
    return PluginRegistry({folder.toStdString()});
}

void write(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// A copy of the planted plugin in the temporary folder, the folder and the file given these modes;
// the file's canonical path.
std::filesystem::path plant(const QTemporaryDir& dir, mode_t folder_mode, mode_t file_mode) {
    const auto folder = std::filesystem::canonical(dir.path().toStdString());
    const auto file = folder / "libcleave_plugin_planted.so";
    std::filesystem::copy_file(CLEAVE_PLANTED_PLUGIN, file);
    if (::chmod(file.c_str(), file_mode) != 0 || ::chmod(folder.c_str(), folder_mode) != 0)
        throw std::runtime_error("cannot chmod " + file.string());
    return file;
}

// The registry a user gets with CLEAVE_PLUGIN_DIR pointing at the folder.
PluginRegistry registry_from_environment(const std::filesystem::path& folder) {
    ::setenv("CLEAVE_PLUGIN_DIR", folder.c_str(), 1);
    PluginRegistry registry;
    ::unsetenv("CLEAVE_PLUGIN_DIR");
    return registry;
}

const PluginFile* file_of(const PluginRegistry& registry, const std::filesystem::path& path) {
    for (const auto& file : registry.files())
        if (file.path == path)
            return &file;
    return nullptr;
}

} // namespace

class PluginRegistryTest : public QObject {
    Q_OBJECT

private slots:
    void loadsTheOpenCvProfiler() {
        if (!CLEAVE_HAVE_OPENCV_PROFILER)
            QSKIP("built without OpenCV's DNN module (libopencv-dnn-dev): no opencv plugin");
        const PluginRegistry registry;
        const auto* opencv = registry.find(cleave::profile::Profiler::kPluginKind, "opencv");
        QVERIFY(opencv);
        const auto profiler = registry.create<cleave::profile::Profiler>("opencv", "--backend");
        QVERIFY(profiler->runtime().starts_with("OpenCV 4."));
    }

    void pluginFolderFromTheEnvironmentComesFirst() {
        QTemporaryDir dir;
        ::setenv("CLEAVE_PLUGIN_DIR", dir.path().toUtf8().constData(), 1);
        const auto folders = PluginRegistry::default_folders();
        ::unsetenv("CLEAVE_PLUGIN_DIR");
        QVERIFY(folders.size() >= 2);
        QCOMPARE(folders.front(), std::filesystem::path(dir.path().toStdString()));
    }

    void refusesAPluginInAFolderOthersCanWrite() {
        QTemporaryDir dir;
        ::unsetenv(kRanMark);
        const auto file = plant(dir, 0777, 0755);
        const auto registry = registry_from_environment(file.parent_path());
        const auto* planted = file_of(registry, file);
        QVERIFY(planted);
        QVERIFY(!planted->descriptor);
        const std::string expected =
            file.parent_path().string() + " is writable by others (mode 0777)";
        QVERIFY2(planted->error.find(expected) != std::string::npos, planted->error.c_str());
        QVERIFY2(planted->error.find("chmod go-w " + file.parent_path().string()) !=
                     std::string::npos,
                 planted->error.c_str());
        QVERIFY2(!std::getenv(kRanMark), "the planted plugin's constructor ran");
        const auto why = registry.why_missing("profiler", "planted");
        QVERIFY2(why.find(file.string() + " did not load: " + expected) != std::string::npos,
                 why.c_str());
    }

    void refusesAPluginFileOthersCanWrite() {
        QTemporaryDir dir;
        ::unsetenv(kRanMark);
        const auto file = plant(dir, 0755, 0666);
        const auto registry = registry_from_environment(file.parent_path());
        const auto* planted = file_of(registry, file);
        QVERIFY(planted);
        QVERIFY(!planted->descriptor);
        QVERIFY2(planted->error.find(file.string() + " is writable by others (mode 0666)") !=
                     std::string::npos,
                 planted->error.c_str());
        QVERIFY2(!std::getenv(kRanMark), "the planted plugin's constructor ran");
    }

    void refusesAPluginInAGroupWritableFolder() {
        // What a build under umask 002 would make, were the build not to take that write away.
        QTemporaryDir dir;
        ::unsetenv(kRanMark);
        const auto file = plant(dir, 0775, 0755);
        const auto registry = registry_from_environment(file.parent_path());
        const auto* planted = file_of(registry, file);
        QVERIFY(planted);
        QVERIFY2(planted->error.find("writable by others (mode 0775)") != std::string::npos,
                 planted->error.c_str());
        QVERIFY2(!std::getenv(kRanMark), "the planted plugin's constructor ran");
    }

    void loadsAPluginOnlyItsOwnerCanWrite() {
        QTemporaryDir dir;
        ::unsetenv(kRanMark);
        const auto file = plant(dir, 0755, 0755);
        const auto registry = registry_from_environment(file.parent_path());
        const auto* planted = file_of(registry, file);
        QVERIFY(planted);
        QVERIFY2(planted->descriptor, planted->error.c_str());
        QVERIFY(registry.find("profiler", "planted"));
        QVERIFY(std::getenv(kRanMark));
    }

    void reportsWhyAFileDidNotLoad() {
        QTemporaryDir dir;
        write(dir.filePath("libcleave_plugin_broken.so"), "not a shared library");
        write(dir.filePath("libother.so"), "not a plugin's name");
        const auto registry = registry_of(dir.path());
        QCOMPARE(registry.files().size(), std::size_t{1});
        QVERIFY(!registry.files()[0].descriptor);
        QVERIFY(!registry.files()[0].error.empty());
        const auto why = registry.why_missing("profiler", "broken");
        QVERIFY2(why.find("libcleave_plugin_broken.so did not load: ") != std::string::npos,
                 why.c_str());
    }

    void refusesAPluginBuiltForAnotherAbi() {
        const auto registry = registry_of(CLEAVE_OTHER_ABI_PLUGIN_DIR);
        QCOMPARE(registry.files().size(), std::size_t{1});
        QVERIFY(!registry.files()[0].descriptor);
        const auto& error = registry.files()[0].error;
        QVERIFY2(error.find("built for plugin ABI " +
                            std::to_string(cleave::plugin::kPluginAbiVersion + 1)) !=
                     std::string::npos,
                 error.c_str());
        QVERIFY(!registry.find("profiler", "other-abi"));
    }

    void missingPluginNamesTheFoldersSearched() {
        QTemporaryDir dir;
        const auto registry = registry_of(dir.path());
        try {
            registry.create<cleave::profile::Profiler>("opencv", "--backend");
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("--backend"));
            const std::string problem = e.problem();
            QVERIFY2(problem.find("no profiler plugin named 'opencv'") != std::string::npos,
                     problem.c_str());
            QVERIFY2(problem.find(dir.path().toStdString()) != std::string::npos, problem.c_str());
            QVERIFY2(problem.find("CLEAVE_PLUGIN_DIR") != std::string::npos, problem.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(PluginRegistryTest)
#include "plugin_registry_test.moc"
