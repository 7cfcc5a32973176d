#pragma once
// paretoscope-cli as the store fault suites run it: children started with fork and exec, several at once, under a
// lowered file size limit or as another user, and a store filled by the CLI.

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QStringList>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QThread>
#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "tests/support/testpaths.h"
#include "tests/support/testutil.h"

namespace paretoscope::testsupport {

struct Limits {
    qint64 fileSizeBytes = -1; ///< RLIMIT_FSIZE of the child, with SIGXFSZ ignored: writes past it fail
    bool asNobody = false; ///< run as uid/gid 65534 (a folder owned by root is then read-only to it)
};

// A child process of the test (fork and exec, its output in files): QProcess is not used here, since several
// children run at once while the test blocks, and a QProcess learns of its child's end only from an event loop.
class CliChild {
public:
    CliChild(const QStringList& args, const Limits& limits = {})
        : m_out(QDir::temp().filePath(QStringLiteral("storefaults-out-XXXXXX")))
        , m_err(QDir::temp().filePath(QStringLiteral("storefaults-err-XXXXXX")))
    {
        m_out.open();
        m_err.open();
        std::vector<std::string> argv { cliProgram().toStdString() };
        for (const QString& a : args)
            argv.push_back(a.toStdString());
        std::vector<char*> raw;
        raw.reserve(argv.size());
        for (std::string& a : argv)
            raw.push_back(a.data());
        raw.push_back(nullptr);
        const int outFd = m_out.handle(), errFd = m_err.handle();
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(outFd, 1);
            ::dup2(errFd, 2);
            if (limits.fileSizeBytes >= 0) {
                ::signal(SIGXFSZ, SIG_IGN); // kept across exec: the write fails with EFBIG instead of killing
                rlimit r { static_cast<rlim_t>(limits.fileSizeBytes), static_cast<rlim_t>(limits.fileSizeBytes) };
                ::setrlimit(RLIMIT_FSIZE, &r);
            }
            if (limits.asNobody && ::getuid() == 0) {
                [[maybe_unused]] int g = ::setgid(65534);
                [[maybe_unused]] int u = ::setuid(65534);
            }
            ::execv(raw[0], raw.data());
            ::_exit(127);
        }
    }
    ~CliChild()
    {
        if (m_pid > 0 && !m_done) {
            ::kill(m_pid, SIGKILL);
            wait(10);
        }
    }
    pid_t pid() const { return m_pid; }
    QString errFile() const { return m_err.fileName(); }
    /// The child's peak resident memory (kB), once it has ended.
    long peakKb() const { return m_peakKb; }
    bool running()
    {
        if (m_done || m_pid <= 0)
            return false;
        int status = 0;
        rusage usage {};
        if (::wait4(m_pid, &status, WNOHANG, &usage) == m_pid) {
            settle(status);
            m_peakKb = usage.ru_maxrss;
        }
        return !m_done;
    }
    /// Waits for the end; the exit code, or -1 for a crash or a timeout.
    Run wait(double seconds = 300)
    {
        QElapsedTimer t;
        t.start();
        while (running() && double(t.elapsed()) < seconds * 1000)
            QThread::msleep(2);
        return { m_done ? m_code : -1, readAll(m_out.fileName()), readAll(m_err.fileName()) };
    }

private:
    void settle(int status)
    {
        m_done = true;
        m_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    QTemporaryFile m_out, m_err;
    pid_t m_pid = -1;
    bool m_done = false;
    int m_code = -1;
    long m_peakKb = 0;
};

/// Runs the CLI to its end.
inline Run cli(const QStringList& args, const Limits& limits = {})
{
    return CliChild(args, limits).wait();
}

/// What the CLI wrote, its output then its errors.
inline QString text(const Run& r)
{
    return QString::fromUtf8(r.out + r.err);
}

/// A store with the bundled dataset and the InferenceX API fixture (435 runs); empty where the CLI fails.
inline QString filledStore(const QTemporaryDir& dir, const QString& name = QStringLiteral("store.sqlite"))
{
    QString db = dir.filePath(name);
    if (cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code != 0
        || cli({ QStringLiteral("import"), QStringLiteral("--db"), db, fixture(kApi) }).code != 0)
        return {};
    return db;
}

} // namespace paretoscope::testsupport
