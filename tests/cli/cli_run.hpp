// Runs the `cleave` executable under test and keeps its exit code, stdout and stderr.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

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

} // namespace cleave::test
