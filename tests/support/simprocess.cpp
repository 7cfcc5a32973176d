#include "simprocess.h"
#include "tests/support/testpaths.h"

#include <QRegularExpression>

namespace paretoscope::testsupport {

SimProcess::SimProcess(const QStringList& args)
{
    m_process.setProgram(engineSimProgram());
    m_process.setArguments(QStringList { QStringLiteral("--port"), QStringLiteral("0") } + args);
    m_process.start();
    if (!m_process.waitForStarted(10000))
        return;
    // the first line names the port; a bad argument ends the process with a usage message instead
    while (!m_process.canReadLine() && m_process.state() == QProcess::Running)
        m_process.waitForReadyRead(10000);
    m_output = QString::fromUtf8(m_process.readLine());
    auto match = QRegularExpression(QStringLiteral("127\\.0\\.0\\.1:(\\d+)")).match(m_output);
    if (match.hasMatch())
        m_port = match.captured(1).toInt();
}

SimProcess::~SimProcess()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

} // namespace paretoscope::testsupport
