#include "core/sync/sync.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/import/bytesource.h"
#include "core/import/formats/recordmapper.h"
#include "core/import/importer.h"
#include "core/model/modelnames.h"
#include "core/model/outsidejson.h"
#include "core/model/runselection.h"
#include "core/model/urls.h"
#include "core/store/runstore.h"
#include "core/store/syncstate.h"
#include "core/sync/syncanswer.h"

namespace paretoscope {
namespace {

std::string percentEncoded(const std::string& text)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// The API's root, and the parameters its URL carries (an access key, say), which every route's URL carries after
// its own: "http://host/api/v1?key=K" asks "http://host/api/v1/availability?key=K".
struct SourceRoot {
    std::string root;
    std::string query; // without its '?', empty when none
    std::string route(const std::string& path, const std::string& params = {}) const
    {
        std::string all = params;
        if (!query.empty())
            all += (all.empty() ? "" : "&") + query;
        return root + path + (all.empty() ? "" : "?" + all);
    }
};

SourceRoot rootOf(std::string source)
{
    SourceRoot out;
    // looked for from the path on: a password may hold an unencoded '#' or '?'
    const auto scheme = source.find("://");
    const auto path = source.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    const auto from = path != std::string::npos ? path : (scheme == std::string::npos ? 0 : scheme + 3);
    if (const auto hash = source.find('#', from); hash != std::string::npos)
        source.erase(hash);
    if (const auto q = source.find('?', from); q != std::string::npos) {
        out.query = source.substr(q + 1);
        source.erase(q);
    }
    while (!source.empty() && source.back() == '/')
        source.pop_back();
    out.root = std::move(source);
    return out;
}

bool sameName(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

bool unitNamed(const SyncUnit& unit, const std::string& name)
{
    return sameName(unit.display, name)
        || std::any_of(unit.keys.begin(), unit.keys.end(), [&](const std::string& k) { return sameName(k, name); });
}

// Whether an answer holds no rows: an empty array, whitespace aside (however much of it: "[", 65 spaces and "]" is
// as empty as "[]").
bool emptyArray(int fd)
{
    char buf[4096];
    int seen = 0; // the non-space bytes so far: '[' then ']'
    for (off_t at = 0;;) {
        const ssize_t n = ::pread(fd, buf, sizeof buf, at);
        if (n <= 0)
            return n == 0 && seen == 2;
        for (ssize_t i = 0; i < n; ++i) {
            const char c = buf[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
                continue;
            if ((seen == 0 && c != '[') || (seen == 1 && c != ']') || seen == 2)
                return false;
            ++seen;
        }
        at += n;
    }
}

} // namespace

HttpOptions SyncOptions::defaultHttp()
{
    HttpOptions h;
    h.connectTimeoutMs = 10000;
    h.totalTimeoutMs = 0; // a history may be large: what fails it is a stall
    h.stallSeconds = 60;
    h.maxBytes = kMaxDownloadBytes;
    h.tries = 5;
    h.retryDelayMs = 500;
    return h;
}

std::size_t SyncReport::failed() const
{
    return static_cast<std::size_t>(
        std::count_if(items.begin(), items.end(), [](const SyncItemResult& r) { return !r.error.empty(); }));
}

Result<SyncPlan> planSync(RunStore& store, const SyncOptions& options)
{
    SyncPlan plan;
    const SourceRoot source = rootOf(options.source);
    const std::string& root = source.root;
    plan.source = redactUrl(root);
    if (!isUrl(root))
        return Error { "sync source '" + plan.source + "': give the API's http:// or https:// root, e.g. "
            + kInferenceXApi };
    if (!options.since.empty() && !isIsoDate(options.since))
        return Error { "--since '" + options.since + "': not a calendar day (yyyy-mm-dd)" };
    HttpOptions small = options.http;
    small.maxBytes = 256u << 20;
    small.totalTimeoutMs = 120000;
    const std::string availabilityUrl = source.route("/availability");
    auto body = httpGet(availabilityUrl, small);
    if (!body)
        return Error { body.error() };
    auto catalog = parseAvailability(*body, redactUrl(availabilityUrl));
    if (!catalog)
        return Error { catalog.error() };
    plan.notes = catalog->notes;

    // the units asked for
    for (const std::string& model : options.models)
        if (std::none_of(
                catalog->units.begin(), catalog->units.end(), [&](const SyncUnit& u) { return unitNamed(u, model); })) {
            std::set<std::string> names;
            for (const SyncUnit& u : catalog->units)
                names.insert(u.display);
            std::string list;
            for (const std::string& n : names)
                list += (list.empty() ? "" : ", ") + n;
            return Error { "model '" + model + "' is not among " + plan.source + "'s models: " + list };
        }
    for (const SyncSequence& seq : options.sequences)
        if (std::none_of(
                catalog->units.begin(), catalog->units.end(), [&](const SyncUnit& u) { return u.sequence == seq; }))
            return Error { "sequence " + seq.label() + ": " + plan.source + " has no runs of it" };
    for (SyncUnit& unit : catalog->units) {
        const bool modelAsked = options.models.empty()
            || std::any_of(
                options.models.begin(), options.models.end(), [&](const std::string& m) { return unitNamed(unit, m); });
        const bool sequenceAsked = options.sequences.empty()
            || std::find(options.sequences.begin(), options.sequences.end(), unit.sequence) != options.sequences.end();
        if (modelAsked && sequenceAsked)
            plan.catalog.units.push_back(std::move(unit));
    }

    auto marks = readSyncMarks(store, plan.source);
    if (!marks)
        return Error { marks.error() };
    // per unit: the date after which runs are new, or up to date
    std::map<std::string, std::vector<std::pair<std::size_t, std::string>>> latestByModel; // display -> units
    for (std::size_t i = 0; i < plan.catalog.units.size(); ++i) {
        const SyncUnit& unit = plan.catalog.units[i];
        auto mark = marks->find(unit.label());
        std::string after;
        if (mark != marks->end() && (mark->second.history || !options.history)) {
            if (!unit.dates.empty() && mark->second.lastDate >= unit.dates.back()) {
                plan.upToDate.push_back(i);
                continue;
            }
            after = mark->second.lastDate;
        }
        if (!options.history) {
            latestByModel[unit.display].emplace_back(i, after);
            continue;
        }
        SyncItem item;
        item.label = unit.label();
        item.url = source.route("/benchmarks/history",
            "model=" + percentEncoded(unit.display)
                + (unit.sequence.agentic
                        ? std::string("&benchmarkType=agentic_traces")
                        : "&isl=" + std::to_string(unit.sequence.isl) + "&osl=" + std::to_string(unit.sequence.osl)));
        item.units = { i };
        item.after = { after };
        plan.items.push_back(std::move(item));
    }
    for (auto& [display, units] : latestByModel) {
        SyncItem item;
        item.label = display + " (latest view)";
        item.url = source.route("/benchmarks", "model=" + percentEncoded(display));
        for (auto& [i, after] : units) {
            item.units.push_back(i);
            item.after.push_back(after);
        }
        plan.items.push_back(std::move(item));
    }
    if (options.evaluations)
        plan.items.push_back(SyncItem { "evaluations", source.route("/evaluations"), {}, {} });
    return plan;
}

namespace {

// The downloads of a sync: up to `jobs` requests at once, at most a window ahead of the import, each into an
// unnamed file beside the store.
class Downloads {
public:
    Downloads(const SyncPlan& plan, const SyncOptions& options, std::string storePath, const SyncCallbacks& callbacks)
        : m_plan(plan)
        , m_options(options)
        , m_storePath(std::move(storePath))
        , m_callbacks(callbacks)
        , m_slots(plan.items.size())
    {
        const int jobs = std::clamp(options.jobs, 1, 16);
        for (int t = 0; t < jobs && t < static_cast<int>(plan.items.size()); ++t)
            m_threads.emplace_back([this] { work(); });
    }
    ~Downloads()
    {
        stop();
        for (std::thread& t : m_threads)
            t.join();
        for (Slot& s : m_slots)
            if (s.fd >= 0)
                ::close(s.fd);
    }
    Downloads(const Downloads&) = delete;
    Downloads& operator=(const Downloads&) = delete;

    void stop()
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_cv.notify_all();
    }

    bool keepGoing() const { return !m_stopped.load() && (!m_callbacks.keepGoing || m_callbacks.keepGoing()); }

    /// Waits for item i's download; the caller owns the fd it returns. Frees a place in the window.
    Result<int> take(std::size_t i, std::uint64_t& bytes)
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_slots[i].done; });
        Slot& s = m_slots[i];
        bytes = s.bytes;
        ++m_taken;
        m_cv.notify_all();
        if (!s.error.empty())
            return Error { s.error };
        const int fd = s.fd;
        s.fd = -1;
        return fd;
    }

private:
    struct Slot {
        bool done = false;
        int fd = -1;
        std::uint64_t bytes = 0;
        std::string error;
    };

    void work()
    {
        const std::size_t window = 2 * static_cast<std::size_t>(std::clamp(m_options.jobs, 1, 16));
        for (;;) {
            std::size_t i = 0;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [&] { return m_stopped || m_next >= m_slots.size() || m_next < m_taken + window; });
                if (m_next >= m_slots.size())
                    return;
                i = m_next++;
                if (m_stopped) {
                    m_slots[i].done = true;
                    m_slots[i].error = m_plan.items[i].label + ": cancelled";
                    m_cv.notify_all();
                    continue;
                }
            }
            Slot result = fetch(i);
            std::lock_guard lock(m_mutex);
            m_slots[i] = std::move(result);
            m_slots[i].done = true;
            m_cv.notify_all();
        }
    }

    Slot fetch(std::size_t i)
    {
        Slot s;
        const SyncItem& item = m_plan.items[i];
        if (m_callbacks.progress)
            m_callbacks.progress(SyncEvent { i, SyncStage::Fetching, 0, {} });
        auto fd = unnamedFileBeside(m_storePath);
        if (!fd) {
            s.error = item.label + ": " + fd.error();
            return s;
        }
        HttpOptions http = m_options.http;
        auto last = std::chrono::steady_clock::now();
        http.progress = [&](std::size_t received) {
            const auto now = std::chrono::steady_clock::now();
            if (m_callbacks.progress && now - last > std::chrono::milliseconds(100)) {
                last = now;
                m_callbacks.progress(SyncEvent { i, SyncStage::Fetching, received, {} });
            }
            return keepGoing();
        };
        auto got = httpDownload(item.url, *fd, http);
        if (!got) {
            ::close(*fd);
            s.error = keepGoing() ? got.error() : item.label + ": cancelled";
            return s;
        }
        s.fd = *fd;
        s.bytes = *got;
        return s;
    }

    const SyncPlan& m_plan;
    const SyncOptions& m_options;
    std::string m_storePath;
    const SyncCallbacks& m_callbacks;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<Slot> m_slots;
    std::size_t m_next = 0;
    std::size_t m_taken = 0;
    std::atomic<bool> m_stopped { false };
    std::vector<std::thread> m_threads;
};

std::vector<ReadingScope> readingScopes(const SyncPlan& plan)
{
    std::set<ReadingScope> scopes;
    for (const SyncItem& item : plan.items)
        for (std::size_t u : item.units)
            for (const std::string& key : plan.catalog.units[u].keys)
                scopes.insert({ key, plan.catalog.units[u].sequence });
    return { scopes.begin(), scopes.end() };
}

} // namespace

SyncReport runSync(RunStore& store, const SyncPlan& plan, const SyncOptions& options, const SyncCallbacks& callbacks)
{
    SyncReport report;
    report.source = plan.source;
    report.startedAt = nowEpochSeconds();
    report.notes = plan.notes;
    for (std::size_t u : plan.upToDate)
        report.upToDate.push_back(plan.catalog.units[u].label());
    const std::vector<ReadingScope> scopes = readingScopes(plan);
    const ReadingsSnapshot before = snapshotReadings(store, scopes);
    {
        Downloads downloads(plan, options, store.path(), callbacks);
        for (std::size_t i = 0; i < plan.items.size(); ++i) {
            const SyncItem& item = plan.items[i];
            SyncItemResult result;
            result.label = item.label;
            auto fail = [&](std::string message) {
                result.error = std::move(message);
                if (callbacks.progress)
                    callbacks.progress(SyncEvent { i, SyncStage::Failed, result.bytes, result.error });
            };
            if (!downloads.keepGoing()) {
                report.cancelled = true;
                break;
            }
            auto fd = downloads.take(i, result.bytes);
            if (!fd) {
                if (!downloads.keepGoing()) {
                    report.cancelled = true;
                    break;
                }
                fail(fd.error());
                report.items.push_back(std::move(result));
                continue;
            }
            result.fetched = true;
            if (callbacks.progress)
                callbacks.progress(SyncEvent { i, SyncStage::Importing, result.bytes, {} });
            bool stored = false;
            SyncAnswerCheck answer(plan, item, options);
            if (emptyArray(*fd)) {
                ::close(*fd);
                if (Status empty = answer.emptyAnswer(); !empty)
                    fail(empty.error());
                else
                    stored = true; // nothing to store: the unit is synced all the same
            } else {
                auto source = FileSource::adopt(*fd, redactUrl(item.url));
                if (!source) {
                    fail(source.error());
                } else {
                    auto summary = importSource(store, **source, answer.importOptions(),
                        [&](std::uint64_t, std::uint64_t) { return downloads.keepGoing(); });
                    if (!summary) {
                        if (!downloads.keepGoing()) {
                            report.cancelled = true;
                            break;
                        }
                        fail(summary.error());
                    } else {
                        stored = true;
                        result.imported = summary->imported;
                        result.duplicates = summary->duplicates;
                        result.skipped = summary->skipped;
                        result.notes = summary->notes;
                        if (summary->evaluations)
                            report.changes.newEvaluations += summary->imported;
                        else if (!item.units.empty())
                            report.changes.newRuns[plan.catalog.units[item.units.front()].display] += summary->imported;
                    }
                }
            }
            if (stored) {
                for (std::size_t k = 0; k < item.units.size(); ++k) {
                    const SyncUnit& unit = plan.catalog.units[item.units[k]];
                    const SyncMark mark { answer.markOf(k), options.history && options.since.empty(),
                        nowEpochSeconds() };
                    if (auto st = writeSyncMark(store, plan.source, unit.label(), mark); !st)
                        result.notes.push_back(unit.label() + ": imported, but not marked synced (the next sync "
                            + "fetches it again): " + st.error());
                }
                if (callbacks.progress)
                    callbacks.progress(SyncEvent { i, SyncStage::Done, result.bytes, {} });
            }
            report.items.push_back(std::move(result));
        }
        downloads.stop();
    }
    compareSnapshots(before, snapshotAfter(store, scopes, before), report.changes);
    report.finishedAt = nowEpochSeconds();
    if (!plan.items.empty()) {
        if (auto st
            = appendSyncLog(store, { report.source, report.startedAt, report.finishedAt, syncReportJson(report) });
            !st)
            report.notes.push_back("the sync's summary was not logged in the store: " + st.error());
    }
    return report;
}

std::string syncReportJson(const SyncReport& report)
{
    using nlohmann::json;
    json out;
    out["source"] = report.source;
    out["started"] = report.startedAt;
    out["finished"] = report.finishedAt;
    out["cancelled"] = report.cancelled;
    json items = json::array();
    for (const SyncItemResult& r : report.items) {
        json i { { "item", r.label }, { "fetched", r.fetched }, { "bytes", r.bytes }, { "imported", r.imported },
            { "duplicates", r.duplicates }, { "skipped", r.skipped } };
        if (!r.error.empty())
            i["error"] = r.error;
        if (!r.notes.empty())
            i["notes"] = r.notes;
        items.push_back(std::move(i));
    }
    out["items"] = std::move(items);
    out["failed"] = report.failed();
    out["up_to_date"] = report.upToDate;
    out["new_runs"] = report.changes.newRuns;
    out["new_evaluations"] = report.changes.newEvaluations;
    json lines = json::array();
    for (const LineChange& l : report.changes.lines)
        lines.push_back({ { "model", l.model }, { "sequence", l.sequence }, { "group", l.group },
            { "before", l.before.empty() ? json() : json(l.before) }, { "after", l.after } });
    out["lines"] = std::move(lines);
    json readings = json::array();
    for (const ReadingChange& c : report.changes.readings) {
        json r { { "model", c.model }, { "sequence", c.sequence }, { "hardware", c.hardware }, { "target", c.target },
            { "before", c.before ? json(*c.before) : json() }, { "after", c.after ? json(*c.after) : json() } };
        if (c.groupBefore != c.groupAfter) {
            r["group_before"] = c.groupBefore;
            r["group_after"] = c.groupAfter;
        } else {
            r["group"] = c.groupAfter;
        }
        readings.push_back(std::move(r));
    }
    out["readings"] = std::move(readings);
    if (!report.notes.empty())
        out["notes"] = report.notes;
    return jsonText(out);
}

} // namespace paretoscope
