#include "core/analysis/scopehint.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "core/model/asciitext.h"
#include "core/model/runrecord.h"

namespace paretoscope {
namespace {

std::size_t lengthGap(std::size_t a, std::size_t b)
{
    return a > b ? a - b : b - a;
}

// How far a stored model name is from the one asked: (kind, size), smaller is nearer. Kinds: the same name, the same
// but for case, one a prefix of the other, one inside the other, then anything by edit distance.
std::pair<int, std::size_t> modelDistance(const std::string& asked, const std::string& model)
{
    if (asked == model)
        return { 0, 0 };
    const std::string a = asciiLower(asked), m = asciiLower(model);
    if (a == m)
        return { 1, 0 };
    if (m.starts_with(a) || a.starts_with(m))
        return { 2, lengthGap(a.size(), m.size()) };
    if (m.find(a) != std::string::npos || a.find(m) != std::string::npos)
        return { 3, lengthGap(a.size(), m.size()) };
    return { 4, editDistance(a, m) };
}

// How far a stored scope's lengths (or workload) are from the ones asked, for scopes of one model.
std::tuple<std::size_t, double> lengthDistance(const Scope& asked, const ScopeSummary& s)
{
    std::size_t workload = 0;
    if (!asked.workload.empty() && asciiLower(asked.workload) != asciiLower(s.workload))
        workload = 1 + editDistance(asciiLower(asked.workload), asciiLower(s.workload));
    double lengths = 0;
    if (asked.isl && asked.osl) {
        if (s.isl > 0 && s.osl > 0 && *asked.isl > 0 && *asked.osl > 0)
            lengths = std::abs(std::log(double(s.isl) / *asked.isl)) + std::abs(std::log(double(s.osl) / *asked.osl));
        else
            lengths = 1e9; // a workload without fixed lengths is farthest from lengths asked
    }
    return { workload, lengths };
}

bool fixedLengths(const ScopeSummary& s)
{
    return s.isl > 0 && s.osl > 0;
}

// "isl 1024 / osl 1024", with the workload when it is not the default name of those lengths; or the workload alone.
std::string describe(const ScopeSummary& s)
{
    if (!fixedLengths(s))
        return "workload '" + s.workload + "'";
    std::string out = "isl " + std::to_string(s.isl) + " / osl " + std::to_string(s.osl);
    if (!s.workload.empty() && s.workload != randomWorkloadName(s.isl, s.osl))
        out += " (workload '" + s.workload + "')";
    return out;
}

// The hardware of the scope's runs before the filters, sorted; none when the store holds no run of the scope.
std::optional<std::vector<std::string>> scopeHardware(const Scope& asked, const std::vector<ScopeSummary>& held)
{
    bool found = false;
    std::vector<std::string> hardware;
    for (const ScopeSummary& s : held)
        if (s.model == asked.model && (!asked.isl || s.isl == *asked.isl) && (!asked.osl || s.osl == *asked.osl)
            && (asked.workload.empty() || s.workload == asked.workload)) {
            found = true;
            for (const std::string& h : s.hardware)
                if (std::find(hardware.begin(), hardware.end(), h) == hardware.end())
                    hardware.push_back(h);
        }
    if (!found)
        return std::nullopt;
    std::sort(hardware.begin(), hardware.end());
    return hardware;
}

// The filters asked, in words, for a scope that has runs before them.
std::string filtersText(const Scope& asked)
{
    std::vector<std::string> filters;
    auto add = [&](const char* name, const std::vector<std::string>& values) {
        if (!values.empty())
            filters.push_back(std::string(name) + " " + joinedWith(values, ", "));
    };
    add("hardware", asked.hardware);
    add("engine", asked.engines);
    add("precision", asked.precisions);
    add("spec decoding", asked.specDecoding);
    if (!asked.dateFrom.empty() || !asked.dateTo.empty())
        filters.push_back("run dates " + (asked.dateFrom.empty() ? std::string("any") : asked.dateFrom) + " to "
            + (asked.dateTo.empty() ? std::string("any") : asked.dateTo));
    if (!asked.asOf.empty())
        filters.push_back("as of " + asked.asOf + ", which leaves out every run dated after it");
    if (const std::string limits = limitsText(asked); !limits.empty())
        filters.push_back(limits + " (a run without the statistic does not meet a limit)");
    return filters.empty() ? std::string("none given: its runs are marked as not trusted, or lack the metric asked")
                           : joinedWith(filters, ", ");
}

// The nearest model, then its nearest lengths (more runs break ties); `held` is not empty.
const ScopeSummary& nearestScope(const Scope& asked, const std::vector<ScopeSummary>& held)
{
    const ScopeSummary* best = nullptr;
    std::tuple<std::pair<int, std::size_t>, std::size_t, double, long long> bestKey;
    for (const ScopeSummary& s : held) {
        auto [workload, lengths] = lengthDistance(asked, s);
        auto key = std::make_tuple(modelDistance(asked.model, s.model), workload, lengths, -s.runs);
        if (!best || key < bestKey) {
            best = &s;
            bestKey = key;
        }
    }
    return *best;
}

// What the store holds, per model in the store's order (models, then lengths): at most 12 models of 8 lengths each.
std::string holdsText(const std::vector<ScopeSummary>& held)
{
    std::vector<std::string> models;
    std::map<std::string, std::vector<std::string>> lengths;
    for (const ScopeSummary& s : held) {
        if (!lengths.count(s.model))
            models.push_back(s.model);
        lengths[s.model].push_back(describe(s));
    }
    std::string holds;
    const std::size_t kModels = 12, kLengths = 8;
    for (std::size_t i = 0; i < models.size() && i < kModels; ++i) {
        std::vector<std::string>& l = lengths[models[i]];
        const std::size_t more = l.size() > kLengths ? l.size() - kLengths : 0;
        l.resize(std::min(l.size(), kLengths));
        holds += (i ? "; " : "") + models[i] + ": " + joinedWith(l, ", ")
            + (more ? " and " + std::to_string(more) + " more" : "");
    }
    if (models.size() > kModels)
        holds += "; and " + std::to_string(models.size() - kModels) + " more models";
    return holds;
}

} // namespace

std::size_t editDistance(const std::string& a, const std::string& b)
{
    const std::string x = asciiLower(a), y = asciiLower(b);
    std::vector<std::size_t> row(y.size() + 1);
    for (std::size_t j = 0; j <= y.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= x.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= y.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[y.size()];
}

ScopeHint emptyScopeHint(const Scope& asked, const std::vector<ScopeSummary>& held)
{
    ScopeHint hint;
    std::string what = "no runs of model '" + asked.model + "'";
    if (asked.isl || asked.osl)
        what += " at isl " + (asked.isl ? std::to_string(*asked.isl) : std::string("any")) + " / osl "
            + (asked.osl ? std::to_string(*asked.osl) : std::string("any"));
    if (!asked.workload.empty())
        what += std::string(asked.isl || asked.osl ? " and" : " in") + " workload '" + asked.workload + "'";

    if (const auto hardware = scopeHardware(asked, held)) {
        hint.heldBeforeFilters = true;
        hint.text = what + " that pass the filters (" + filtersText(asked) + "); the scope has runs on "
            + joinedWith(*hardware, ", ") + ".";
        return hint;
    }
    if (held.empty()) {
        hint.text = what + ": the store holds no runs.";
        return hint;
    }
    const ScopeSummary& best = nearestScope(asked, held);
    hint.nearest = best;
    hint.text = what + ". The store holds: " + holdsText(held) + ". Nearest: model '" + best.model + "', "
        + describe(best) + ".";
    return hint;
}

std::string limitsText(const Scope& scope)
{
    auto seconds = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g s", v);
        return std::string(buf);
    };
    std::string out;
    if (scope.ttftMax)
        out = "TTFT ≤ " + seconds(*scope.ttftMax) + (scope.ttftStat == LatencyStat::P99 ? " (p99)" : " (median)");
    if (scope.tpotMax)
        out += (out.empty() ? "" : ", ") + std::string("TPOT ≤ ") + seconds(*scope.tpotMax);
    return out;
}

} // namespace paretoscope
