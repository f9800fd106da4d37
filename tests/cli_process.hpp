// Runs a command-line program (trainbench-cli in the tests that drive it) and keeps its exit code
// and what it printed.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace fixtures {

struct CliResult {
    int code;
    QString out, err;
};

// code -1 and err "timeout" when the program has not ended within five minutes.
inline CliResult runCli(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(300000))
        return {-1, {}, QStringLiteral("timeout")};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace fixtures
