// The plugin registry finds libcleave_plugin_*.so files, loads the OpenCV profiler built with
// Cleave, and says why a plugin is missing or did not load.
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/profiler.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

namespace {

using cleave::plugin::PluginRegistry;

PluginRegistry registry_of(const QString& folder) {
    return PluginRegistry({folder.toStdString()});
}

void write(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
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
