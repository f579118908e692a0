// Runs the `cleave` executable under test and keeps its exit code, stdout and stderr.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace cleave::test {

struct CliRun {
    int exit_code = -1;
    QByteArray out;
    QByteArray err;
};

inline CliRun run_cleave(const QStringList& arguments) {
    QProcess process;
    process.start(CLEAVE_CLI_PATH, arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// Writes `text` to `name` in `dir` and returns its path; empty when it cannot.
inline QString written(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(text);
    return path;
}

} // namespace cleave::test
