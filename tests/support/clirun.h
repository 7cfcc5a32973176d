#pragma once
// paretoscope-cli run to its end as a script runs it (QProcess, the test's environment).

#include <QProcess>
#include <QStringList>

#include "tests/support/testpaths.h"
#include "tests/support/testutil.h"

namespace paretoscope::testsupport {

/// The CLI's exit code (-1 where it did not end within timeoutMs), standard output and error.
inline Run runCli(const QStringList& args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(cliProgram(), args);
    Run r;
    if (!p.waitForFinished(timeoutMs))
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace paretoscope::testsupport
