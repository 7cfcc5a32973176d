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

std::uint64_t lineKeyHash(const LineKey& k, int concurrency, long long runId)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](std::uint64_t w) {
        h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    };
    mix(k.series);
    if (concurrency <= 0) {
        mix(0x756e6b6579656400ULL); // "unkeyed"
        mix(static_cast<std::uint64_t>(runId));
        return h;
    }
    for (long long v : { static_cast<long long>(k.disaggregated), static_cast<long long>(k.tp),
             static_cast<long long>(k.ep), static_cast<long long>(k.dpAttention), static_cast<long long>(k.workers),
             static_cast<long long>(k.prefillTp), static_cast<long long>(k.prefillEp),
             static_cast<long long>(k.prefillDpAttention), static_cast<long long>(k.prefillWorkers),
             static_cast<long long>(k.prefillGpus), static_cast<long long>(k.decodeGpus) })
        mix(static_cast<std::uint64_t>(v));
    return h;
}

namespace {

// Which run of each line is selected as of a day: the greatest (day, start, run) among its points dated by then.
std::unordered_map<std::uint64_t, const RunVersion*> latestRunPerLine(const std::vector<RunVersion>& runs, int asOf)
{
    std::unordered_map<std::uint64_t, const RunVersion*> best;
    best.reserve(runs.size() / 4 + 1);
    for (const RunVersion& r : runs) {
        if (r.day > asOf)
            continue;
        auto [it, inserted] = best.try_emplace(r.line, &r);
        const RunVersion& b = *it->second;
        if (!inserted && std::tie(r.day, r.started, r.run, r.id) > std::tie(b.day, b.started, b.run, b.id))
            it->second = &r;
    }
    return best;
}

} // namespace

std::vector<std::size_t> selectRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    std::vector<std::size_t> out;
    if (mode == RunSelection::All) {
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].day <= asOf)
                out.push_back(i);
        return out;
    }
    const auto best = latestRunPerLine(runs, asOf);
    // the selected run's points, one per concurrency: the last it stored (a session's repeats share a run)
    std::unordered_map<std::uint64_t, std::size_t> perConcurrency;
    perConcurrency.reserve(runs.size() / 2 + 1);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunVersion& r = runs[i];
        if (r.day > asOf)
            continue;
        const auto b = best.find(r.line);
        if (b == best.end() || b->second->run != r.run || b->second->day != r.day)
            continue;
        const std::uint64_t key = r.line ^ (static_cast<std::uint64_t>(r.concurrency) * 0x9e3779b97f4a7c15ULL);
        auto [it, inserted] = perConcurrency.try_emplace(key, i);
        if (!inserted && runs[it->second].id < r.id)
            it->second = i;
    }
    out.reserve(perConcurrency.size());
    for (const auto& [key, i] : perConcurrency)
        out.push_back(i);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::size_t> spreadRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    if (mode == RunSelection::All)
        return selectRuns(runs, mode, asOf);
    const auto best = latestRunPerLine(runs, asOf);
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (auto it = best.find(runs[i].line); it != best.end() && it->second->day == runs[i].day)
            out.push_back(i);
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
    return { lineKeyHash(key, c.concurrency, id), c.concurrency, day, r.runStarted, runOrder(r.run), id };
}

std::string_view runSelectionName(RunSelection s)
{
    return s == RunSelection::Latest ? "latest" : "all";
}

} // namespace paretoscope
