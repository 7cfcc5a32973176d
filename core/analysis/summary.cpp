#include "core/analysis/summary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/analysis/baseline.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/numberformat.h"
#include "core/model/asciitext.h"
#include "core/model/displaynames.h"
#include "core/model/engine.h"
#include "core/model/modelnames.h"

namespace paretoscope {

std::vector<HardwareSummary> summaryFacts(RunStore& store, const ScopeData& data)
{
    std::vector<std::string> hardware;
    for (const GroupFrontier& g : data.frontiers)
        if (std::find(hardware.begin(), hardware.end(), g.key.hardware) == hardware.end())
            hardware.push_back(g.key.hardware);
    std::sort(hardware.begin(), hardware.end());
    std::vector<HardwareSummary> out;
    for (const std::string& hw : hardware) {
        HardwareSummary h;
        h.hardware = hw;
        std::vector<long long> ids;
        for (const Series& s : data.series) {
            if (s.key.hardware != hw)
                continue;
            ids.push_back(s.id);
            for (auto [list, v] :
                { std::pair { &h.engines, &s.key.engine }, std::pair { &h.precisions, &s.key.precision } })
                if (std::find(list->begin(), list->end(), *v) == list->end())
                    list->push_back(*v);
        }
        std::sort(h.engines.begin(), h.engines.end());
        std::sort(h.precisions.begin(), h.precisions.end());
        h.stats = store.runStats(ids, data.metric, data.scope, kTtftFloorSeconds, kTpotFloorSeconds);
        out.push_back(std::move(h));
    }
    return out;
}

Result<SummaryReport> summaryAt(const ScopeData& data, std::vector<HardwareSummary> facts,
    const PricingCatalog& pricing, double target, const PriceChoice& price, bool hideSparse, Reading reading)
{
    LadderRequest req;
    req.hideSparse = hideSparse;
    req.reading = reading;
    req.scope = data.scope;
    req.targets = { target };
    req.metric = data.metric;
    req.price = price;
    auto ladders = computeLadder(data.frontiers, pricing, req);
    if (!ladders)
        return Error { ladders.error() };
    SummaryReport out;
    out.scope = data.scope;
    out.target = target;
    out.reading = reading;
    if (price.customUsdPerGpuHour) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "custom $%.2f/GPU/hr", *price.customUsdPerGpuHour);
        out.tierLabel = buf;
    } else {
        const PricingTier* tier = price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(price.tierKey);
        out.tierLabel = tier ? tier->label : price.tierKey;
    }
    if (data.evaluations && !data.evaluations->empty()) { // the accuracy of each reading's group, on the task required
        if (data.accuracyFilter)
            req.accuracy = data.accuracyFilter->requirement;
        // the scope's task where the loader chose it (chooseAccuracyTask), else the same rule
        out.accuracyTask = !data.accuracyTask.empty() ? data.accuracyTask : ladderAccuracyTask(req, *data.evaluations);
        attachAccuracy(*ladders, *data.evaluations, out.accuracyTask, data.scope.asOf, &data.frontiers,
            data.knotConfigurations.get());
    }
    if (data.accuracyFilter) { // what the requirement left out, and what it cost at the target
        const AccuracyFilter& f = *data.accuracyFilter;
        std::string left = f.words() + ".";
        left[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(left[0])));
        out.accuracyNotes.push_back(left);
        if (auto before = computeLadder(f.before, pricing, req))
            out.accuracyNotes.push_back(accuracyCostSentence(f.requirement, accuracyCost(*before, *ladders), target));
    }
    for (HardwareSummary& h : facts) {
        for (const HardwareLadder& l : *ladders)
            if (l.hardware == h.hardware)
                h.reading = l.rows.front();
        out.hardware.push_back(std::move(h));
    }
    return out;
}

Result<SummaryReport> summarize(
    RunStore& store, const ScopeData& data, const PricingCatalog& pricing, double target, const PriceChoice& price)
{
    return summaryAt(data, summaryFacts(store, data), pricing, target, price);
}

namespace {

std::string cell(const std::string& s)
{
    // a '|' would end the Markdown cell; line breaks would end the row
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out.empty() ? "-" : out;
}

std::string upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

std::string seconds(const std::optional<double>& s)
{
    if (!s)
        return "-";
    char buf[64];
    if (*s < 1)
        std::snprintf(buf, sizeof buf, "%.1f ms", *s * 1000);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", *s);
    return buf;
}

std::string targetText(double t)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", t);
    return buf;
}

} // namespace

std::string summaryMarkdown(const SummaryReport& r)
{
    std::string scope = modelLabel(r.scope.model);
    if (!r.scope.workload.empty())
        scope += ", " + r.scope.workload;
    else if (r.scope.isl && r.scope.osl)
        scope += ", ISL " + std::to_string(*r.scope.isl) + " / OSL " + std::to_string(*r.scope.osl);
    std::string md = "## " + cell(scope) + "\n\n";
    if (r.hardware.empty())
        return md + "No runs in this scope.\n";
    md += "| |";
    std::string rule = "|---|";
    for (const auto& h : r.hardware) {
        md += " " + cell(upper(h.hardware)) + " |";
        rule += "---:|";
    }
    md += "\n" + rule + "\n";
    auto row = [&](const std::string& label, auto value) {
        md += "| " + label + " |";
        for (const auto& h : r.hardware)
            md += " " + cell(value(h)) + " |";
        md += "\n";
    };
    const std::string at = targetText(r.target) + " tok/s/user";
    // both readings, the chosen one first (the cost and the comparison are of it)
    auto deployable = [](const HardwareSummary& h) {
        const auto& e = h.reading.entry;
        if (!e.read(Reading::Deployable))
            return std::string("- (no configuration reaches it)");
        if (!e.deployable) // clamped: an end of a frontier
            return withThousands(*e.value) + (e.group ? " (" + groupDisplayName(*e.group, false) + ")" : "");
        return withThousands(e.deployable->value) + " (" + deployableConfiguration(*e.deployable) + ")"
            + (e.deployable->sparse ? " (read across a gap in the measurements)" : "");
    };
    auto frontier = [](const HardwareSummary& h) {
        const auto& e = h.reading.entry;
        if (!e.value)
            return std::string("- (") + std::string(statusWords(e.status)) + ")";
        std::string s = withThousands(*e.value) + (e.group ? " (" + groupDisplayName(*e.group, false) + ")" : "")
            + (e.sparse ? " (read across a gap in the measurements)" : "");
        if (e.readingsDiffer())
            s += " (" + withSignificant(*e.frontierRatio(), 3) + "x one configuration)";
        return s;
    };
    const std::string oneConfig = "tok/s/GPU at " + at + ", one configuration";
    const std::string acrossConfigs = "tok/s/GPU at " + at + ", frontier across configurations";
    if (r.reading == Reading::Deployable) {
        row(oneConfig, deployable);
        row(acrossConfigs, frontier);
    } else {
        row(acrossConfigs, frontier);
        row(oneConfig, deployable);
    }
    row("$ per 1M tokens at " + at + ", " + cell(r.tierLabel) + ", " + std::string(readingName(r.reading)),
        [](const HardwareSummary& h) {
            return h.reading.costPerMTok ? money(*h.reading.costPerMTok) : std::string("-");
        });
    if (!r.baseline.empty()) {
        std::optional<double> base;
        for (const auto& h : r.hardware)
            if (h.hardware == r.baseline)
                base = h.reading.value();
        row("vs " + cell(upper(r.baseline)) + " at " + at, [&](const HardwareSummary& h) {
            return ratioText(baselineRatio(h.reading.value(), base, h.hardware == r.baseline));
        });
    }
    if (!r.accuracyTask.empty())
        row(taskName(r.accuracyTask) + " of the group read", [](const HardwareSummary& h) {
            const LadderRow& reading = h.reading;
            if (reading.accuracy)
                return accuracyText(reading.accuracyTask, reading.accuracy->accuracy)
                    .substr(taskName(reading.accuracyTask).size() + 1);
            return std::string(reading.entry.group ? "not evaluated" : "-");
        });
    row("Configurations benchmarked", [](const HardwareSummary& h) { return withThousands(double(h.stats.runs)); });
    row("Engines", [](const HardwareSummary& h) {
        std::vector<std::string> names;
        names.reserve(h.engines.size());
        for (const std::string& e : h.engines)
            names.push_back(engineDisplayName(e));
        return joinedWith(names, ", ");
    });
    row("Precisions", [](const HardwareSummary& h) {
        std::vector<std::string> names;
        names.reserve(h.precisions.size());
        for (const std::string& p : h.precisions)
            names.push_back(upper(p));
        return joinedWith(names, ", ");
    });
    row("Run dates", [](const HardwareSummary& h) {
        if (h.stats.firstDate.empty())
            return std::string("-");
        auto day = [](const std::string& d) { return d.substr(0, 10); };
        return day(h.stats.firstDate) == day(h.stats.lastDate)
            ? day(h.stats.firstDate)
            : day(h.stats.firstDate) + " to " + day(h.stats.lastDate);
    });
    row("Peak tok/s/GPU", [](const HardwareSummary& h) {
        return h.stats.peakTputPerGpu ? withThousands(*h.stats.peakTputPerGpu) : std::string("-");
    });
    row("Fastest TTFT (median)", [](const HardwareSummary& h) { return seconds(h.stats.fastestTtft); });
    row("Fastest TPOT (median)", [](const HardwareSummary& h) { return seconds(h.stats.fastestTpot); });
    std::string notes;
    for (const auto& h : r.hardware) {
        char buf[160];
        if (h.stats.suspectTtft) {
            std::snprintf(buf, sizeof buf, "a median TTFT of %.3f ms (under 1 ms)", *h.stats.suspectTtft * 1000);
            notes += "- " + upper(h.hardware) + ": " + buf + " is suspect and is not shown as the fastest.\n";
        }
        if (h.stats.suspectTpot) {
            std::snprintf(
                buf, sizeof buf, "a median TPOT of %.4f ms (0.0 ms when rounded)", *h.stats.suspectTpot * 1000);
            notes += "- " + upper(h.hardware) + ": " + buf + " is suspect and is not shown as the fastest.\n";
        }
    }
    if (!notes.empty())
        md += "\nSuspect values:\n\n" + notes;
    for (const std::string& n : r.accuracyNotes)
        md += "\n" + cell(n) + "\n";
    return md;
}

} // namespace paretoscope
