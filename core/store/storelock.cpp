#include "core/store/storelock.h"

#include <sqlite3.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace paretoscope {
namespace writernote {

namespace {

std::string notePath(const std::string& storePath)
{
    return storePath + "-writer";
}

// an in-memory store has no file beside which a note could stand, nor another process to read it
bool noteless(const std::string& storePath)
{
    return storePath.empty() || storePath == ":memory:";
}

bool alive(long long pid)
{
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

std::string noteText(const std::string& what)
{
    return std::to_string(::getpid()) + "\n" + what + "\n";
}

} // namespace

void publish(const std::string& storePath, const std::string& what)
{
    if (noteless(storePath))
        return;
    // written aside and renamed over the note, so that a reader never finds it half written
    const std::string text = noteText(what);
    const std::string aside = notePath(storePath) + "." + std::to_string(::getpid()) + ".tmp";
    const int fd = ::open(aside.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written || ::rename(aside.c_str(), notePath(storePath).c_str()) != 0)
        ::unlink(aside.c_str());
}

void clear(const std::string& storePath, const std::string& what)
{
    if (noteless(storePath))
        return;
    std::ifstream in(notePath(storePath));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text != noteText(what))
        return;
    // truncated, not removed: a folder that holds the store may be writable for SQLite's files and not for ours
    if (const int fd = ::open(notePath(storePath).c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC); fd >= 0)
        ::close(fd);
}

std::string describe(const std::string& storePath)
{
    std::ifstream in(notePath(storePath));
    long long pid = 0;
    std::string what;
    if (!(in >> pid) || !std::getline(in >> std::ws, what) || !alive(pid))
        return "another process";
    if (pid == ::getpid())
        return "this program: " + what;
    return "pid " + std::to_string(pid) + ": " + what;
}

} // namespace writernote

BusyWaiter::BusyWaiter(std::string storePath)
    : m_path(std::move(storePath))
{
}

void BusyWaiter::install(sqlite3* db)
{
    sqlite3_busy_handler(db, &BusyWaiter::onBusy, this);
}

int BusyWaiter::onBusy(void* self, int count)
{
    auto* w = static_cast<BusyWaiter*>(self);
    const auto now = std::chrono::steady_clock::now();
    if (count == 0) {
        w->m_since = now;
        w->m_lastReport = 0;
    }
    const double waited = std::chrono::duration<double>(now - w->m_since).count();
    if ((w->m_maxWait >= 0 && waited >= w->m_maxWait) || (w->m_keepWaiting && !w->m_keepWaiting()))
        return 0;
    const bool due
        = w->m_lastReport == 0 ? waited >= kFirstReportSeconds : waited - w->m_lastReport >= kReportEverySeconds;
    if (due && w->m_waitFn) {
        w->m_lastReport = waited;
        std::ostringstream msg;
        msg << "waiting while another writer has this store (" << writernote::describe(w->m_path) << ", "
            << static_cast<long long>(waited) << " s so far)…";
        if (!w->m_waitFn(msg.str(), waited))
            return 0;
    }
    // a lock is usually held for a few milliseconds (a session level, a small import), sometimes for many seconds
    const int sleepMs = count < 5 ? 1 << count : 20;
    std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
    return 1;
}

} // namespace paretoscope
