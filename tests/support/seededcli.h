#pragma once
// paretoscope-cli run as a script runs it, with a data home of the test's own (its default store is made and seeded
// with the bundled dataset there), and the seed dataset's scope: tst_cli and tst_cliplan.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include "tests/support/testpaths.h"
#include "tests/support/testutil.h"

namespace paretoscope::testsupport::seeded {

inline Run cli(const QStringList& args, const QString& dataHome)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
    p.setProcessEnvironment(env);
    p.start(cliProgram(), args);
    p.waitForFinished(120000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

inline const QStringList kSeedScope { QStringLiteral("--model"), QStringLiteral("DeepSeek-V4.1-Flash"),
    QStringLiteral("--workload"), QStringLiteral("agentic coding") };

} // namespace paretoscope::testsupport::seeded
