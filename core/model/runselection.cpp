#include "core/model/runselection.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <tuple>
#include <unordered_map>

#include "core/model/runidentity.h"

namespace paretoscope {
namespace {

bool digits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number(std::string_view s)
{
    int v = 0;
    for (char c : s)
        v = v * 10 + (c - '0');
    return v;
}

} // namespace

int dayNumber(std::string_view date)
{
    if (date.size() < 10 || date[4] != '-' || date[7] != '-' || !digits(date.substr(0, 4)) || !digits(date.substr(5, 2))
        || !digits(date.substr(8, 2)))
        return 0;
    return number(date.substr(0, 4)) * 10000 + number(date.substr(5, 2)) * 100 + number(date.substr(8, 2));
}

bool isIsoDate(std::string_view text)
{
    if (text.size() != 10 || dayNumber(text) == 0)
        return false;
    const int day = dayNumber(text);
    const int y = day / 10000, m = day / 100 % 100, d = day % 100;
    static const int lengths[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (m < 1 || m > 12 || d < 1)
        return false;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= lengths[m - 1] + (m == 2 && leap ? 1 : 0);
}

std::string outsideDateProblem(std::string_view date)
{
    auto quoted = [&] { return "'" + std::string(date.substr(0, 40)) + (date.size() > 40 ? "...'" : "'"); };
    if (!isIsoDate(date))
        return quoted() + " is not a calendar day (yyyy-mm-dd)";
    const int day = dayNumber(date);
    if (day < kFirstRunDay)
        return quoted() + " is before " + dayText(kFirstRunDay);
    const int tomorrow = dayOfEpochSeconds(nowEpochSeconds() + 86400);
    if (day > tomorrow)
        return quoted() + " is after tomorrow (" + dayText(tomorrow) + ")";
    return {};
}

std::int64_t nowEpochSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int dayOfEpochSeconds(std::int64_t seconds)
{
    // Howard Hinnant's civil_from_days
    std::int64_t z = (seconds >= 0 ? seconds : seconds - 86399) / 86400 + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    return static_cast<int>(y * 10000 + m * 100 + d);
}

std::string dayText(int day)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", day / 10000 % 10000, day / 100 % 100, day % 100);
    return buf;
}

namespace {

void mixInto(std::uint64_t& h, std::uint64_t w)
{
    h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
}

constexpr std::uint64_t kHashSeed = 0xcbf29ce484222325ULL;

// A point whose concurrency is unknown: a line and a curve of its own
std::uint64_t unkeyed(std::uint64_t h, long long runId)
{
    mixInto(h, 0x756e6b6579656400ULL); // "unkeyed"
    mixInto(h, static_cast<std::uint64_t>(runId));
    return h;
}

std::uint64_t textHash(std::string_view text)
{
    std::uint64_t h = kHashSeed;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

} // namespace

std::uint64_t lineKeyHash(const LineKey& k, int concurrency, long long runId)
{
    std::uint64_t h = kHashSeed;
    mixInto(h, k.series);
    if (concurrency <= 0)
        return unkeyed(h, runId);
    for (long long v : { static_cast<long long>(k.disaggregated), static_cast<long long>(k.tp),
             static_cast<long long>(k.ep), static_cast<long long>(k.dpAttention), static_cast<long long>(k.workers),
             static_cast<long long>(k.prefillTp), static_cast<long long>(k.prefillEp),
             static_cast<long long>(k.prefillDpAttention), static_cast<long long>(k.prefillWorkers),
             static_cast<long long>(k.prefillGpus), static_cast<long long>(k.decodeGpus) })
        mixInto(h, static_cast<std::uint64_t>(v));
    return h;
}

std::uint64_t agenticCurveSeries(const std::string& model, int isl, int osl, const std::string& workload,
    const std::string& hardware, const std::string& engine, const std::string& precision)
{
    std::uint64_t h = kHashSeed;
    for (const std::string* text : { &model, &workload, &hardware, &engine, &precision })
        mixInto(h, textHash(*text));
    mixInto(h, static_cast<std::uint64_t>(isl));
    mixInto(h, static_cast<std::uint64_t>(osl));
    return h;
}

std::uint64_t curveKeyHash(std::uint64_t series, bool disaggregated, bool agentic, int concurrency, long long runId)
{
    std::uint64_t h = kHashSeed ^ 0x6375727665000000ULL; // "curve": never a line's hash
    mixInto(h, series);
    if (concurrency <= 0)
        return unkeyed(h, runId);
    mixInto(h, agentic ? 2 : static_cast<std::uint64_t>(disaggregated));
    mixInto(h, 0); // offload mode: "off" (not stored)
    return h;
}

namespace {

std::uint64_t keyOf(const RunVersion& r, RunSelection mode)
{
    return mode == RunSelection::LatestPerConfiguration ? r.line : r.curve;
}

bool newer(const RunVersion& a, const RunVersion& b)
{
    return std::tie(a.day, a.started, a.run, a.id) > std::tie(b.day, b.started, b.run, b.id);
}

bool sameRun(const RunVersion& a, const RunVersion& b)
{
    return a.run == b.run && a.day == b.day;
}

// Which run of each curve (or line) is selected as of a day: the greatest (day, start, run) among its points dated by
// then.
std::unordered_map<std::uint64_t, const RunVersion*> latestRunPer(
    const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    std::unordered_map<std::uint64_t, const RunVersion*> best;
    best.reserve(runs.size() / 4 + 1);
    for (const RunVersion& r : runs) {
        if (r.day > asOf)
            continue;
        auto [it, inserted] = best.try_emplace(keyOf(r, mode), &r);
        if (!inserted && newer(r, *it->second))
            it->second = &r;
    }
    return best;
}

std::uint64_t pointKey(const RunVersion& r)
{
    return r.line ^ (static_cast<std::uint64_t>(r.concurrency) * 0x9e3779b97f4a7c15ULL)
        ^ (r.recipe * 0xc2b2ae3d27d4eb4fULL);
}

// A run as it stands on one curve: its newest point, whether it is append-only, and its one engine image (0 where
// its points on the curve come from none or from several).
struct RunOnCurve {
    const RunVersion* newest = nullptr;
    bool appendOnly = false;
    std::uint64_t image = 0;
    bool mixed = false; ///< points of several images (or some of none)
};

// Per curve whose selected run is append-only, the runs its chain adds (docs/architecture.md section 10.2): the next
// older run of the curve with the same one image, and on while that run is append-only too. Keyed by curve; each
// entry lists the chained runs' newest points (sameRun tells a point of one).
std::unordered_map<std::uint64_t, std::vector<const RunVersion*>> appendOnlyChains(
    const std::vector<RunVersion>& runs, const std::unordered_map<std::uint64_t, const RunVersion*>& best, int asOf)
{
    std::unordered_map<std::uint64_t, std::vector<RunOnCurve>> curves;
    for (const auto& [curve, b] : best)
        if (b->appendOnly)
            curves[curve];
    if (curves.empty())
        return {};
    for (const RunVersion& r : runs) {
        if (r.day > asOf)
            continue;
        const auto c = curves.find(r.curve);
        if (c == curves.end())
            continue;
        auto& list = c->second;
        auto it = std::find_if(list.begin(), list.end(), [&](const RunOnCurve& o) { return sameRun(*o.newest, r); });
        if (it == list.end()) {
            list.push_back({ &r, r.appendOnly, r.image, r.image == 0 });
            continue;
        }
        if (newer(r, *it->newest))
            it->newest = &r;
        it->appendOnly = it->appendOnly || r.appendOnly;
        it->mixed = it->mixed || r.image != it->image;
    }
    std::unordered_map<std::uint64_t, std::vector<const RunVersion*>> out;
    for (auto& [curve, list] : curves) {
        std::sort(list.begin(), list.end(),
            [](const RunOnCurve& a, const RunOnCurve& b) { return newer(*a.newest, *b.newest); });
        // list[0] is the selected run; each link is the next older run of the same one image
        const RunOnCurve* link = &list.front();
        for (std::size_t i = 1; i < list.size() && link->appendOnly && !link->mixed && link->image != 0; ++i)
            if (!list[i].mixed && list[i].image == link->image) {
                out[curve].push_back(list[i].newest);
                link = &list[i];
            }
    }
    return out;
}

} // namespace

std::uint64_t textKey(std::string_view text)
{
    if (text.empty())
        return 0;
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ULL;
    return h == 0 ? 1 : h;
}

std::vector<std::size_t> selectRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    std::vector<std::size_t> out;
    if (mode == RunSelection::All) {
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].day <= asOf)
                out.push_back(i);
        return out;
    }
    const auto best = latestRunPer(runs, mode, asOf);
    const auto chains = mode == RunSelection::Latest
        ? appendOnlyChains(runs, best, asOf)
        : std::unordered_map<std::uint64_t, std::vector<const RunVersion*>> {};
    const auto chained = [&chains](const RunVersion& r) {
        const auto c = chains.find(r.curve);
        return c != chains.end()
            && std::any_of(c->second.begin(), c->second.end(), [&r](const RunVersion* o) { return sameRun(*o, r); });
    };
    // the selected run's points (and its chain's), one per configuration, concurrency and recipe: the newest run's,
    // and of one run the last it stored (a session's repeats share a run)
    std::unordered_map<std::uint64_t, std::size_t> perPoint;
    perPoint.reserve(runs.size() / 2 + 1);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunVersion& r = runs[i];
        if (r.day > asOf)
            continue;
        const auto b = best.find(keyOf(r, mode));
        if (b == best.end() || (!sameRun(*b->second, r) && (chains.empty() || !chained(r))))
            continue;
        auto [it, inserted] = perPoint.try_emplace(pointKey(r), i);
        if (!inserted && newer(r, runs[it->second]))
            it->second = i;
    }
    out.reserve(perPoint.size());
    for (const auto& [key, i] : perPoint)
        out.push_back(i);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::size_t> spreadRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    if (mode == RunSelection::All)
        return selectRuns(runs, mode, asOf);
    const auto best = latestRunPer(runs, mode, asOf);
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (auto it = best.find(keyOf(runs[i], mode)); it != best.end() && it->second->day == runs[i].day)
            out.push_back(i);
    return out;
}

std::vector<NarrowedCurve> narrowedCurves(const std::vector<RunVersion>& runs, int asOf)
{
    // per curve, per run: a point of it and its distinct configurations and concurrencies
    struct RunPoints {
        std::size_t first = 0;
        std::unordered_map<std::uint64_t, bool> points;
        bool appendOnly = false;
    };
    std::unordered_map<std::uint64_t, std::vector<RunPoints>> curves;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunVersion& r = runs[i];
        if (r.day > asOf || r.concurrency <= 0)
            continue;
        auto& list = curves[r.curve];
        auto it = std::find_if(list.begin(), list.end(), [&](const RunPoints& c) { return sameRun(runs[c.first], r); });
        if (it == list.end()) {
            list.push_back({ i, {}, false });
            it = list.end() - 1;
        } else if (newer(r, runs[it->first])) {
            it->first = i; // the run's version is its newest point's
        }
        it->points[pointKey(r)] = true;
        it->appendOnly = it->appendOnly || r.appendOnly;
    }
    std::vector<NarrowedCurve> out;
    for (auto& [curve, list] : curves) {
        if (list.size() < 2)
            continue;
        std::sort(list.begin(), list.end(),
            [&](const RunPoints& a, const RunPoints& b) { return newer(runs[a.first], runs[b.first]); });
        if (list[0].appendOnly) // it adds to the curve rather than replacing it
            continue;
        const int newest = static_cast<int>(list[0].points.size());
        const int replaced = static_cast<int>(list[1].points.size());
        if (newest < replaced)
            out.push_back({ list[0].first, list[1].first, newest, replaced });
    }
    std::sort(
        out.begin(), out.end(), [](const NarrowedCurve& a, const NarrowedCurve& b) { return a.newest < b.newest; });
    return out;
}

RunVersion runVersion(const RunRecord& r, long long id)
{
    int day = dayNumber(r.runDate);
    if (day == 0)
        day = dayOfEpochSeconds(r.provenance.importedAt);
    RunRecord c = r;
    completeConfiguration(c);
    const LineKey key { seriesHash(c), c.disaggregated, c.tp, c.ep, c.decodeWorkers, c.dpAttention, c.prefillTp,
        c.prefillEp, c.prefillWorkers, c.prefillDpAttention, c.prefillGpus, c.decodeGpus };
    const bool agentic = isAgenticTrace(c.isl, c.osl);
    const std::uint64_t curveSeries = agentic
        ? agenticCurveSeries(c.model, c.isl, c.osl, c.workload, c.hardware, c.engine, c.precision)
        : key.series;
    return { lineKeyHash(key, c.concurrency, id),
        curveKeyHash(curveSeries, c.disaggregated, agentic, c.concurrency, id), c.concurrency, day, r.runStarted,
        runOrder(r.run), id, textKey(r.engineImage), textKey(r.recipeFingerprint), r.appendOnly };
}

std::string_view runSelectionName(RunSelection s)
{
    switch (s) {
    case RunSelection::Latest:
        return "latest";
    case RunSelection::LatestPerConfiguration:
        return "latest-per-configuration";
    case RunSelection::All:
        return "all";
    }
    return "latest";
}

std::optional<RunSelection> parseRunSelection(std::string_view name)
{
    for (RunSelection s : { RunSelection::Latest, RunSelection::LatestPerConfiguration, RunSelection::All })
        if (name == runSelectionName(s))
            return s;
    return std::nullopt;
}

} // namespace paretoscope
