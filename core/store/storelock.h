#pragma once

#include <chrono>
#include <functional>
#include <string>

struct sqlite3;

namespace paretoscope {

/// Called while a connection waits for another writer of its store: what it waits for ("waiting for another import
/// into this store (pid 1234: importing big.json, for 12 s)…") and how long it has waited. Returning false stops
/// the wait, and the write fails saying another process is writing.
using WaitFn = std::function<bool(const std::string& message, double waitedSeconds)>;

/// Who writes to a store, as the writer says it: a small file beside the store ("STORE-writer") written when a write
/// transaction starts and emptied before it ends, so that a process waiting for the lock can say what it waits for.
/// Best effort: a writer that cannot write the note (a full disk) writes the store all the same.
namespace writernote {
/// Records that this process now writes to the store: `what` is "importing big.json", "storing level 3 of
/// session 12" ...
void publish(const std::string& storePath, const std::string& what);
/// Empties the note if it is still the one this writer published (`what`, this process): a writer that lost its
/// lock (SQLite rolled back by itself) must not erase the next writer's note.
void clear(const std::string& storePath, const std::string& what);
/// The holder as the note describes it ("pid 1234: importing big.json"); "another process" when the note is
/// empty, missing, or names a process that is gone.
std::string describe(const std::string& storePath);
} // namespace writernote

/// The busy handler of a store connection. SQLite calls it while another connection holds the lock this one needs;
/// it keeps waiting (short sleeps, growing to 20 ms) for as long as the holder holds it, since a lock held by a
/// process that dies is released with it. Every few seconds it tells the WaitFn, which may stop the wait.
class BusyWaiter {
public:
    explicit BusyWaiter(std::string storePath);
    /// Installs this waiter on the connection; it must outlive the connection's use of it.
    void install(sqlite3* db);
    void setWaitFn(WaitFn fn) { m_waitFn = std::move(fn); }
    /// Asked at every retry (a few ms apart): false stops the wait at once (a Cancel button).
    void setKeepWaiting(std::function<bool()> fn) { m_keepWaiting = std::move(fn); }
    /// Gives up after this long (the write then fails, saying another process writes); unlimited by default.
    void setMaxWait(double seconds) { m_maxWait = seconds; }
    /// How long the wait lasts before the WaitFn first hears of it, and then between two reports.
    static constexpr double kFirstReportSeconds = 0.5;
    static constexpr double kReportEverySeconds = 5.0;

private:
    static int onBusy(void* self, int count);
    std::string m_path;
    WaitFn m_waitFn;
    std::function<bool()> m_keepWaiting;
    double m_maxWait = -1;
    std::chrono::steady_clock::time_point m_since;
    double m_lastReport = 0;
};

} // namespace paretoscope
