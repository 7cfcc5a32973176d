#pragma once

#include <QProcess>
#include <QStringList>

namespace paretoscope::testsupport {

/// paretoscope-engine-sim started on an ephemeral port for one test, stopped (SIGTERM, then SIGKILL) with it.
class SimProcess {
public:
    explicit SimProcess(const QStringList& args);
    ~SimProcess();
    bool ok() const { return m_port > 0; }
    int port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString output() const { return m_output; }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
    int m_port = 0;
    QString m_output;
};

} // namespace paretoscope::testsupport
