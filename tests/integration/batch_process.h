#pragma once
// The real npustudio executable run in --batch by the integration tests: without a display,
// its exit code (-2 when it crashed, -1 on a timeout), stdout and stderr.

#include <QProcess>
#include <QString>
#include <QStringList>

struct BatchRun {
    int exitCode = -1;
    QString out, err;
};

inline BatchRun runNpustudio(const QStringList& args, int timeoutMs = 240000, const QString& workingDir = {}) {
    QProcess p;
    if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));  // batch mode must not need one
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(NPUSTUDIO_EXE), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}
