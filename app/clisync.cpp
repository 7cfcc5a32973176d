#include "app/clisync.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>

#include <unistd.h>

#include "core/model/printable.h"
#include "core/model/runselection.h"
#include "core/store/syncstate.h"
#include "core/sync/sync.h"

namespace paretoscope::cli {
namespace {

std::atomic<bool> g_syncInterrupted { false };

extern "C" void onSyncInterrupt(int)
{
    g_syncInterrupted.store(true);
}

} // namespace

int cmdSync(const Invocation& in)
{
    const Args& a = in.args;
    SyncOptions options;
    if (auto source = a.value("source"))
        options.source = *source;
    options.models = a.list("models");
    for (const std::string& s : a.list("sequences")) {
        auto seq = parseSyncSequence(s);
        if (!seq)
            return usageError(seq.error());
        options.sequences.push_back(*seq);
    }
    if (a.has("history") && a.has("latest-only"))
        return usageError("give --history or --latest-only, not both");
    options.history = !a.has("latest-only");
    options.evaluations = a.has("evaluations");
    options.since = a.value("since").value_or("");
    if (!options.since.empty() && !isIsoDate(options.since))
        return usageError("--since '" + options.since + "': not a calendar day (yyyy-mm-dd)");
    std::string error;
    int jobs = 0;
    if (!intOption(a, "jobs", jobs, error))
        return usageError(error);
    if (jobs > 16)
        return usageError("--jobs " + std::to_string(jobs) + ": at most 16 requests at once");
    if (jobs > 0)
        options.jobs = jobs;
    int maxTime = 0;
    if (!intOption(a, "max-time", maxTime, error))
        return usageError(error);
    if (maxTime > 86400)
        return usageError("--max-time " + std::to_string(maxTime) + ": at most 86400 seconds (a day) a request");
    if (maxTime > 0)
        options.http.maxTimeMs = 1000L * maxTime;
    options.http.anyHostRedirect = a.has("any-redirect");
    const NewStoreGuard created(a);
    auto store = in.store();
    if (!store)
        return 1;
    auto plan = planSync(*store, options);
    if (!plan) {
        std::cerr << "paretoscope-cli sync: " << printable(plan.error()) << "\n";
        store.reset();
        created.discard(); // a store this sync made goes again
        return 1;
    }
    for (const std::string& note : plan->notes)
        std::cerr << "note: " << printable(note) << "\n";
    const bool tty = isatty(STDERR_FILENO);
    std::mutex printing;
    SyncCallbacks callbacks;
    callbacks.keepGoing = [] { return !g_syncInterrupted.load(); };
    callbacks.progress = [&](const SyncEvent& e) {
        std::lock_guard lock(printing);
        // the line's own control (a carriage return, erase to its end) written as it is; what came from the
        // server (a model's name, an error naming it) made printable, so it can neither drive the terminal nor
        // start a line of its own
        const std::string label = printable(plan->items[e.item].label);
        std::cerr.flush();
        if (e.stage == SyncStage::Failed)
            std::fprintf(stderr, "%sfailed: %s\n", tty ? "\r\033[K" : "", printable(e.message).c_str());
        else if (tty && e.stage == SyncStage::Fetching)
            std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %.1f MB", e.item + 1, plan->items.size(), label.c_str(),
                double(e.bytes) / 1e6);
        else if (tty && e.stage == SyncStage::Importing)
            std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: importing", e.item + 1, plan->items.size(), label.c_str());
    };
    g_syncInterrupted.store(false);
    auto previous = std::signal(SIGINT, onSyncInterrupt);
    const SyncReport report = runSync(*store, *plan, options, callbacks);
    std::signal(SIGINT, previous);
    if (tty)
        std::fprintf(stderr, "\r\033[K");
    std::cout << syncReportJson(report) << "\n";
    const bool failed = report.cancelled || report.failed() > 0;
    const bool stored = std::any_of(
        report.items.begin(), report.items.end(), [](const SyncItemResult& r) { return r.error.empty() && r.fetched; });
    if (failed && !stored) {
        store.reset();
        created.discard(); // a store this sync made, with nothing of it, goes again
    }
    return failed ? 1 : 0;
}

int cmdChanges(const Invocation& in)
{
    const Args& a = in.args;
    const std::string since = a.value("since").value_or("");
    const int day = dayNumber(since);
    if (day == 0)
        return usageError("changes needs --since yyyy-mm-dd");
    auto store = in.store();
    if (!store)
        return 1;
    // the day's start, UTC, in seconds since the epoch
    std::tm tm {};
    tm.tm_year = day / 10000 - 1900;
    tm.tm_mon = day / 100 % 100 - 1;
    tm.tm_mday = day % 100;
    const std::int64_t from = static_cast<std::int64_t>(timegm(&tm));
    auto log = readSyncLog(*store, from);
    if (!log) {
        std::cerr << "paretoscope-cli changes: " << log.error() << "\n";
        return 1;
    }
    for (const SyncLogEntry& entry : *log)
        std::cout << entry.summary << "\n";
    if (log->empty())
        std::cerr << "no sync since " << since << " in " << store->path() << "\n";
    return 0;
}

} // namespace paretoscope::cli
