#include "core/model/runselection.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

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

std::uint64_t configKeyHash(std::uint64_t series, int tp, int ep, bool dpAttention, bool disaggregated, int prefillGpus,
    int decodeGpus, int concurrency, long long runId)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](std::uint64_t w) {
        h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    };
    mix(series);
    if (concurrency <= 0) {
        mix(0x756e6b6579656400ULL); // "unkeyed"
        mix(static_cast<std::uint64_t>(runId));
        return h;
    }
    for (long long v : { static_cast<long long>(tp), static_cast<long long>(ep), static_cast<long long>(dpAttention),
             static_cast<long long>(disaggregated), static_cast<long long>(prefillGpus),
             static_cast<long long>(decodeGpus), static_cast<long long>(concurrency) })
        mix(static_cast<std::uint64_t>(v));
    return h;
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
    std::unordered_map<std::uint64_t, std::size_t> best;
    best.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunVersion& r = runs[i];
        if (r.day > asOf)
            continue;
        auto [it, inserted] = best.try_emplace(r.config, i);
        const RunVersion& b = runs[it->second];
        if (!inserted && (r.day > b.day || (r.day == b.day && r.id > b.id)))
            it->second = i;
    }
    out.reserve(best.size());
    for (const auto& [config, i] : best)
        out.push_back(i);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::size_t> spreadRuns(const std::vector<RunVersion>& runs, RunSelection mode, int asOf)
{
    if (mode == RunSelection::All)
        return selectRuns(runs, mode, asOf);
    std::unordered_map<std::uint64_t, int> day;
    for (std::size_t i : selectRuns(runs, mode, asOf))
        day[runs[i].config] = runs[i].day;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (auto it = day.find(runs[i].config); it != day.end() && it->second == runs[i].day)
            out.push_back(i);
    return out;
}

RunVersion runVersion(const RunRecord& r, long long id)
{
    int day = dayNumber(r.runDate);
    if (day == 0)
        day = dayOfEpochSeconds(r.provenance.importedAt);
    return { configKeyHash(seriesHash(r), r.tp, r.ep, r.dpAttention, r.disaggregated, r.prefillGpus, r.decodeGpus,
                 r.concurrency, id),
        day, id };
}

std::string_view runSelectionName(RunSelection s)
{
    return s == RunSelection::Latest ? "latest" : "all";
}

} // namespace paretoscope
