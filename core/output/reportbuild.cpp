// The report of a view (docs/report.md): the question, the frontier with the speed of light, the readings at the
// target, the ladder with every tier, the plan, accuracy, history, the method, the sources and the command that
// reproduces the readings.
#include "core/output/reportbuild.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/analysis/bestpersku.h"
#include "core/analysis/chartdata.h"
#include "core/analysis/history.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/numberformat.h"
#include "core/analysis/pricing.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/analysis/scopetimeline.h"
#include "core/model/displaynames.h"
#include "core/model/modelnames.h"
#include "core/model/runselection.h"
#include "core/model/urls.h"
#include "core/output/planreportparts.h"
#include "core/store/runstore.h"

namespace paretoscope {

namespace {

// The ladder's targets of the report: 30 to 200 tok/s/user, as the site's table reads them.
const std::vector<double> kLadderTargets { 30, 50, 75, 100, 150, 200 };

std::string moneyCell(const std::optional<double>& v)
{
    return v ? money(*v) : "-";
}

std::string sequenceText(const Scope& s)
{
    std::string text;
    if (s.isl && s.osl)
        text = withThousands(*s.isl) + " input / " + withThousands(*s.osl) + " output tokens";
    if (!s.workload.empty())
        text += (text.empty() ? "" : ", ") + std::string("workload ") + s.workload;
    return text.empty() ? "any" : text;
}

std::string joined(const std::vector<std::string>& items, const std::string& none)
{
    std::string text;
    for (const std::string& i : items)
        text += (text.empty() ? "" : ", ") + i;
    return text.empty() ? none : text;
}

// A reading's group in words, or the reason there is none.
// The group of the reading chosen (with the concurrency to run at, for one configuration's), or why there is none.
std::string readingGroup(const LadderRow& r)
{
    if (r.reading == Reading::Deployable && r.entry.clamped == Clamp::None && r.entry.deployable)
        return deployableConfiguration(*r.entry.deployable);
    if (const auto g = r.group())
        return groupDisplayName(*g, false);
    return std::string(statusShortWords(r.entry.status));
}

const LadderRow* rowAt(const HardwareLadder& l, double target)
{
    for (const LadderRow& r : l.rows)
        if (r.entry.target == target)
            return &r;
    return nullptr;
}

ReportSection question(const ReportRequest& in, const PricingCatalog& pricing, const std::vector<StoredRun>& runs)
{
    const Scope& s = in.view.request.scope;
    ReportSection q { "question", "The question", {}, {}, {}, {} };
    const PricingTier* tier
        = in.view.request.price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(in.view.request.price.tierKey);
    const std::string price = in.view.request.price.customUsdPerGpuHour
        ? "$" + withThousands(*in.view.request.price.customUsdPerGpuHour, 2) + " per GPU-hour, every hardware"
        : tier ? tier->label + " (" + tier->key + ")"
               : in.view.request.price.tierKey;
    std::string limits;
    if (s.ttftMax)
        limits += "TTFT at most " + shortNumber(*s.ttftMax) + " s ("
            + (s.ttftStat == LatencyStat::P99 ? "p99" : "median") + ")";
    if (s.tpotMax)
        limits += std::string(limits.empty() ? "" : ", ") + "TPOT at most " + shortNumber(*s.tpotMax) + " s";
    std::set<std::string> days;
    for (const StoredRun& r : runs)
        if (!r.record.runDate.empty())
            days.insert(r.record.runDate.substr(0, 10));
    q.paragraphs = {
        "Model: " + modelDisplayName(s.model) + (modelDisplayName(s.model) == s.model ? "" : " (" + s.model + ")")
            + ". Sequence: " + sequenceText(s) + ".",
        "Hardware: " + joined(s.hardware, "every hardware stored") + ". Engines: " + joined(s.engines, "all")
            + ". Precision: " + joined(s.precisions, "all")
            + ". Speculative decoding: " + joined(s.specDecoding, "with and without") + ".",
        "Target interactivity: " + shortNumber(in.target) + " tok/s/user. Service-level limits: "
            + (limits.empty() ? "none" : limits) + ". Priced at: " + price + ".",
        "As of: " + (s.asOf.empty() ? std::string("the latest run date in scope") : s.asOf) + ". Runs: "
            + (s.runs == RunSelection::Latest ? "the latest of each curve (the InferenceX site's rule)"
                    : s.runs == RunSelection::LatestPerConfiguration ? "the latest of each configuration (the site's "
                                                                       "earlier rule, its migration 007)"
                                                                     : "every run")
            + (s.includeMarked ? ", runs marked as not trusted included" : "") + "; "
            + withThousands(double(runs.size())) + " runs in scope"
            + (days.empty() ? std::string() : ", dated " + *days.begin() + " to " + *days.rbegin()) + ".",
    };
    return q;
}

ReportSection frontierSection(const ReportRequest& in, const std::vector<GroupFrontier>& frontiers,
    const std::vector<SolLine>& sol, const std::vector<std::string>& missing)
{
    ReportSection f { "frontier", "The frontier", {}, {}, {}, {} };
    ReportChart chart;
    chart.id = "frontier-chart";
    chart.title = "Throughput per GPU against interactivity, each group's Pareto frontier";
    chart.xLabel = "Interactivity (tok/s/user)";
    chart.yLabel = "Throughput (tok/s/GPU)";
    chart.logY = true; // the bounds lie well above the runs: on a log axis both read
    chart.markX = in.target;
    chart.markLabel = "target " + shortNumber(in.target);
    // one line per hardware, its group the InferenceX site's "best per SKU" picks (bestPerHardware, as the explorer's
    // chart does with many groups): 40 groups' lines would bury the chart and its legend
    std::map<std::string, std::string> colours; // a hardware's bound shares its colour
    for (std::size_t i : bestPerHardware(frontiers)) {
        const GroupFrontier& g = frontiers[i];
        ReportSeries series { groupDisplayName(g.key), reportColor(colours.size()), {}, false, true };
        for (const Point& p : g.points)
            series.points.emplace_back(p.x, p.y);
        colours[g.key.hardware] = series.color;
        chart.series.push_back(std::move(series));
    }
    for (const SolLine& l : sol) {
        auto it = colours.find(l.hardware);
        ReportSeries series { "Speed of light: " + hardwareDisplayName(l.hardware) + " "
                + precisionDisplayName(l.precision),
            it == colours.end() ? reportColor(99) : it->second, {}, true, false };
        for (const SolPoint& p : l.curve.points)
            series.points.emplace_back(p.interactivity, p.tputPerGpu);
        chart.series.push_back(std::move(series));
    }
    f.charts.push_back(std::move(chart));
    f.paragraphs.push_back(withThousands(double(frontiers.size()))
        + " groups (hardware, engine, precision, speculative decoding); per hardware the frontier of its best group, "
          "as the InferenceX site's \"best per SKU\" picks it (the highest mean tok/s/GPU over the interactivities "
          "its groups share; the readings table says which group each reading comes from); dashed, the speed "
          "of light of each hardware at its precision (the most a roofline of its memory bandwidth and compute "
          "allows), drawn within the measured range."
        + (missing.empty() ? std::string() : " No speed of light for: " + joined(missing, "") + "."));
    return f;
}

ReportSection readoutSection(const ReportRequest& in, const std::vector<HardwareLadder>& ladders)
{
    ReportSection r { "readout", "The readings at " + shortNumber(in.target) + " tok/s/user", {}, {}, {}, {} };
    const std::string& base = in.view.baseline;
    const Reading reading = in.view.request.reading;
    const bool deployable = reading == Reading::Deployable;
    ReportTable t { "readout-table", {},
        { "Hardware", deployable ? "Tok/s/GPU, one configuration" : "Tok/s/GPU, frontier",
            deployable ? "Configuration" : "Engine · precision", "$/1M tokens" },
        {} };
    if (!base.empty())
        t.header.push_back("vs " + hardwareDisplayName(base));
    t.header.push_back(deployable ? "Frontier" : "One configuration"); // the other reading, last
    std::optional<double> baseValue;
    for (const HardwareLadder& l : ladders)
        if (const LadderRow* row = rowAt(l, in.target); row && l.hardware == base)
            baseValue = row->value();
    for (const HardwareLadder& l : ladders) {
        const LadderRow* row = rowAt(l, in.target);
        if (!row)
            continue;
        const auto value = row->value();
        std::vector<std::string> cells { hardwareDisplayName(l.hardware),
            withThousands(value) + (value && row->entry.readSparse(reading) ? " (sparse)" : ""), readingGroup(*row),
            moneyCell(row->costPerMTok) };
        if (!base.empty())
            cells.push_back(value && baseValue && *baseValue > 0 ? withThousands(*value / *baseValue, 2) + "x" : "-");
        if (deployable)
            cells.push_back(frontierText(row->entry));
        else
            cells.push_back(row->entry.deployable ? deployableText(*row->entry.deployable) : "-");
        t.rows.push_back(std::move(cells));
    }
    r.tables.push_back(std::move(t));
    r.paragraphs.emplace_back(deployable
            ? "Each hardware's best tok/s/GPU at the target from one configuration, as the plan sizes it (the target "
              "as a floor, read between two concurrencies of that configuration only), priced at the tier asked for. "
              "Frontier: the InferenceX site's reading, the highest among the hardware's groups whose frontier covers "
              "the target, read across configurations."
            : "Each hardware's best tok/s/GPU at the target: the highest reading among its groups whose "
              "frontier covers it (the InferenceX site's reading, across configurations), priced at the tier asked "
              "for. One configuration: the best a single configuration delivers there, as the plan sizes it (the "
              "target as a floor, read between two concurrencies of that configuration only).");
    // the readings in words where they are sparse or where the two readings differ: the target in view too
    for (const HardwareLadder& l : ladders) {
        const LadderRow* row = rowAt(l, in.target);
        if (!row || !row->entry.value)
            continue;
        const LadderEntry& e = row->entry;
        if (e.deployable && e.deployable->sparse && !e.sparse && e.clamped == Clamp::None)
            r.paragraphs.push_back(hardwareDisplayName(l.hardware) + ": one configuration's reading is sparse, read "
                + "between its concurrencies at " + withSignificant(e.deployable->knotBelow, 4) + " and "
                + withSignificant(e.deployable->knotAbove, 4) + " tok/s/user ("
                + withSignificant(e.deployable->knotAbove / e.deployable->knotBelow, 2) + "x apart).");
        // the sentence says between which points a sparse reading lies; without one, the sparse reading alone
        if (const std::string why = readingsDifferSentence(e); !why.empty())
            r.paragraphs.push_back(hardwareDisplayName(l.hardware) + ": " + why + (e.sparse ? " Sparse." : ""));
        else if (e.sparse)
            r.paragraphs.push_back(hardwareDisplayName(l.hardware) + ": sparse, read between measured points at "
                + withSignificant(e.knotBelow, 4) + " and " + withSignificant(e.knotAbove, 4) + " tok/s/user ("
                + withSignificant(e.knotAbove / e.knotBelow, 2) + "x apart), not measured near the target.");
    }
    return r;
}

// The ladder at its targets (30 to 200 tok/s/user unless the view names several), $ per million tokens under every
// shipped tier.
ReportSection ladderSection(
    const std::vector<HardwareLadder>& ladders, const std::vector<double>& targets, const PricingCatalog& pricing)
{
    std::string title = "The ladder, 30 to 200 tok/s/user, every tier";
    if (targets != kLadderTargets) {
        title = "The ladder at ";
        for (std::size_t i = 0; i < targets.size(); ++i)
            title += (i ? ", " : "") + shortNumber(targets[i]);
        title += " tok/s/user, every tier";
    }
    ReportSection s { "ladder", title, {}, {}, {}, {} };
    ReportTable t { "ladder-table", {}, { "Hardware", "Target", "Tok/s/GPU", "Engine · precision" }, {} };
    std::string tiers;
    for (const PricingTier& tier : pricing.tiers) {
        t.header.push_back("$/1M " + tier.key);
        tiers += (tiers.empty() ? "" : "; ") + tier.key + ": " + tier.label;
    }
    for (const HardwareLadder& l : ladders)
        for (const LadderRow& row : l.rows) {
            const auto value = row.value(); // the reading chosen
            std::vector<std::string> cells { hardwareDisplayName(l.hardware), shortNumber(row.entry.target),
                withThousands(value) + (value && row.entry.readSparse(row.reading) ? " (sparse)" : ""),
                readingGroup(row) };
            for (const PricingTier& tier : pricing.tiers) { // the same reading under each tier's $/GPU-hour
                const std::optional<double> price = tier.price(l.hardware);
                cells.push_back(price && value ? money(costPerMillionTokens(*price, *value)) : "-");
            }
            t.rows.push_back(std::move(cells));
        }
    s.tables.push_back(std::move(t));
    s.paragraphs.push_back("Tiers, from " + pricing.source
        + ": $ per million tokens = $/GPU-hour / (tok/s/GPU x "
          "3,600) x 1,000,000; \"-\" where a tier has no price. The tiers: "
        + tiers + ".");
    return s;
}

ReportSection planSection(const Plan& plan, const std::vector<Plan>& curve)
{
    ReportSection s { "plan", "The plan", {}, {}, {}, {} };
    s.paragraphs.push_back("Demand: " + withThousands(plan.demandTokensPerSecond) + " "
        + (plan.metric == TputMetric::Output ? "output" : "total") + " tokens/s at " + shortNumber(plan.target)
        + " tok/s/user, sized on configurations that deliver it (whole replicas of one measured configuration, or "
          "between two of its concurrencies).");
    ReportTable t { "plan-table", {},
        { "Hardware", "Status", "GPUs", "Nodes", "Power (all-in)", "$/month", "$/1M tok", "Tok/s/GPU",
            "Engine · precision", "Deploy as" },
        {} };
    for (const HardwarePlan& h : plan.hardware)
        t.rows.push_back({ hardwareDisplayName(h.hardware) + (h.cheapest ? " (cheapest)" : ""), planStatusCell(h),
            h.sized() ? withThousands(double(h.gpus)) : "-",
            h.sized() ? withThousands(double(h.nodes)) + " x " + std::to_string(h.gpusPerNode) + " GPUs" : "-",
            h.powerKw ? powerText(*h.powerKw) : "-", h.costPerMonth ? "$" + withThousands(*h.costPerMonth) : "-",
            moneyCell(h.costPerMTokEffective), withThousands(h.tputPerGpu),
            h.group ? groupDisplayName(*h.group, false) : "-", deployAsText(h) });
    s.tables.push_back(std::move(t));
    ReportChart chart;
    chart.id = "cost-of-speed-chart";
    chart.title = "The cost of speed: $ per month to serve the demand at each target";
    chart.xLabel = "Target interactivity (tok/s/user)";
    chart.yLabel = "$ per month";
    chart.yUnit = "$";
    chart.logY = true;
    chart.markX = plan.target;
    chart.markLabel = "target " + shortNumber(plan.target);
    std::map<std::string, ReportSeries> lines;
    for (const Plan& p : curve)
        for (const HardwarePlan& h : p.hardware)
            if (h.sized() && h.costPerMonth) {
                ReportSeries& line = lines[h.hardware];
                line.name = hardwareDisplayName(h.hardware);
                line.points.emplace_back(p.target, *h.costPerMonth);
            }
    std::size_t i = 0;
    for (auto& [hw, line] : lines) {
        line.color = reportColor(i++);
        chart.series.push_back(std::move(line));
    }
    s.charts.push_back(std::move(chart));
    return s;
}

ReportSection accuracySection(const std::vector<GroupAccuracyRow>& rows, const std::string& task)
{
    ReportSection s { "accuracy", "Accuracy", {}, {}, {}, {} };
    ReportTable t { "accuracy-table", {}, { "Group", "Accuracy", "Evaluated on", "Configurations" }, {} };
    for (const GroupAccuracyRow& r : rows)
        t.rows.push_back(
            { groupDisplayName(r.group), r.accuracy ? accuracyText(task, r.accuracy->accuracy) : "not evaluated",
                r.accuracy ? r.accuracy->evaluation.date : "-",
                r.accuracy ? std::to_string(r.accuracy->configurations) : "-" });
    if (rows.empty())
        s.paragraphs.push_back("No evaluations of this model are stored: the readings come without accuracy.");
    else
        s.tables.push_back(std::move(t));
    return s;
}

ReportSection historySection(const ReportRequest& in, const std::vector<HardwareHistory>& history)
{
    ReportSection s { "history", "History of the readings at " + shortNumber(in.target) + " tok/s/user", {}, {}, {},
        {} };
    ReportChart chart;
    chart.id = "history-chart";
    chart.title = "Best tok/s/GPU at the target as of each run date";
    chart.xLabel = "Run date";
    chart.yLabel = "Throughput (tok/s/GPU)";
    chart.xIsDay = true;
    ReportTable t { "history-table", {}, { "Hardware", "First reading", "On", "Latest reading", "On", "Change" }, {} };
    std::size_t i = 0;
    for (const HardwareHistory& h : history) {
        ReportSeries line { hardwareDisplayName(h.hardware), reportColor(i++), {}, false, true };
        const HistoryPoint* first = nullptr;
        const HistoryPoint* last = nullptr;
        for (const HistoryPoint& p : h.points)
            if (p.row.entry.value) {
                line.points.emplace_back(double(p.day), *p.row.entry.value);
                first = first ? first : &p;
                last = &p;
            }
        chart.series.push_back(std::move(line));
        if (first && last)
            t.rows.push_back({ hardwareDisplayName(h.hardware), withThousands(first->row.entry.value),
                dayText(first->day), withThousands(last->row.entry.value), dayText(last->day),
                withThousands(100 * (*last->row.entry.value / *first->row.entry.value - 1), 1) + "%" });
    }
    s.charts.push_back(std::move(chart));
    s.tables.push_back(std::move(t));
    return s;
}

ReportSection methodSection(const std::vector<HardwareLadder>& ladders)
{
    ReportSection s { "method", "Method", {}, {}, {}, {} };
    s.paragraphs = {
        "Frontier: for each group (hardware, engine, precision, speculative decoding) the runs that no other run "
        "beats on both interactivity and throughput per GPU; a reading between two of its points is a monotone cubic "
        "interpolation, never an extrapolation beyond the measured range.",
        "Readings: each hardware's best group at the target; $ per million tokens from the tier's $/GPU-hour.",
        "Plan: GPUs = demand x (1 + headroom) / the tok/s per GPU one configuration delivers at the target, rounded "
        "up to whole replicas of that configuration; nodes, power (all-in provisioned kW per GPU) and cost follow.",
        "Speed of light: a roofline bound per hardware and precision from its memory bandwidth and compute and the "
        "model's active weights, for scale; no run can exceed it.",
    };
    ReportTable sparse { "sparse-table", "Readings interpolated across a gap (measured points more than 2x apart)",
        { "Hardware", "Target", "Between (tok/s/user)" }, {} };
    for (const HardwareLadder& l : ladders)
        for (const LadderRow& r : l.rows)
            if (r.entry.sparse)
                sparse.rows.push_back({ hardwareDisplayName(l.hardware), shortNumber(r.entry.target),
                    shortNumber(r.entry.knotBelow) + " and " + shortNumber(r.entry.knotAbove) });
    if (sparse.rows.empty())
        s.paragraphs.push_back("No reading of the ladder is interpolated across a gap wider than 2x.");
    else
        s.tables.push_back(std::move(sparse));
    return s;
}

ReportSection sourcesSection(const std::vector<StoredRun>& runs, const std::string& db)
{
    ReportSection s { "sources", "Sources", {}, {}, {}, {} };
    struct Source {
        long long count = 0;
        std::string first, last;
        std::vector<long long> ids;
    };
    std::map<std::string, Source> sources;
    for (const StoredRun& r : runs) {
        Source& src = sources[redactUrl(r.record.provenance.source)];
        ++src.count;
        const std::string day = r.record.runDate.substr(0, 10);
        if (!day.empty() && (src.first.empty() || day < src.first))
            src.first = day;
        if (!day.empty() && day > src.last)
            src.last = day;
        src.ids.push_back(r.id);
    }
    ReportTable t { "sources-table", {}, { "Source", "Runs", "Run dates", "Run ids" }, {} };
    for (auto& [name, src] : sources) {
        std::sort(src.ids.begin(), src.ids.end());
        std::string ids;
        for (std::size_t i = 0; i < src.ids.size() && i < 12; ++i)
            ids += (ids.empty() ? "" : ", ") + std::to_string(src.ids[i]);
        if (src.ids.size() > 12)
            ids += ", ... (" + std::to_string(src.ids.size() - 12) + " more)";
        t.rows.push_back({ name, withThousands(double(src.count)),
            src.first.empty() ? "undated" : src.first + " to " + src.last, ids });
    }
    s.paragraphs.push_back("Store: " + db + ". " + withThousands(double(runs.size())) + " runs in scope from "
        + withThousands(double(sources.size())) + (sources.size() == 1 ? " source" : " sources")
        + " (URLs without their credentials).");
    s.tables.push_back(std::move(t));
    return s;
}

} // namespace

ReportOutcome buildReport(RunStore& store, const ReportRequest& in)
{
    ReportOutcome outcome;
    LadderRequest req = in.view.request;
    const PricingCatalog& pricing = bundledPricing();
    FrontierCache cache(store);
    const EvaluationIndex evaluations(storedEvaluations(store, req.scope.model));
    applyAccuracyRequirement(req, cache.frontiers(req.scope, req.metric), evaluations);
    const std::vector<GroupFrontier>& frontiers = cache.frontiers(req.scope, req.metric);
    if (!store.readStatus()) {
        outcome.error = store.readStatus().error();
        return outcome;
    }
    if (frontiers.empty()) {
        outcome.emptyScope = true;
        return outcome;
    }
    // the readings at the target, and the ladder (priced under every tier by ladderSection) at the view's targets
    // where it names several (--targets, the window's ladder), else 30 to 200: one is the readout's target
    LadderRequest atTarget = req;
    atTarget.targets = { in.target };
    auto readings = computeLadder(cache, pricing, atTarget);
    LadderRequest ladderReq = req;
    ladderReq.targets = req.targets.size() > 1 ? req.targets : kLadderTargets;
    auto ladders = computeLadder(cache, pricing, ladderReq);
    if (!readings || !ladders) {
        outcome.error = !readings ? readings.error() : ladders.error();
        return outcome;
    }
    if (auto covered = in.view.baseline.empty() ? ok() : baselineCovered(*readings, in.view.baseline); !covered) {
        outcome.error = covered.error();
        return outcome;
    }
    std::vector<GroupKey> groups;
    groups.reserve(frontiers.size());
    for (const GroupFrontier& g : frontiers)
        groups.push_back(g.key);
    std::vector<std::string> missing;
    const std::vector<SolLine> sol = scopeSpeedOfLight(req.scope, groups, req.metric, &missing);
    // the runs the frontiers are drawn from (the scope's selection as of its day), whole records for the sources:
    // the timeline reads only points, and the history needs it anyway (all the scope's records were 1.3 s of a 2.4 s
    // report on a million-run store)
    const ScopeTimeline timeline = ScopeTimeline::load(store, req.scope, req.metric);
    std::vector<long long> ids;
    if (!timeline.days().empty()) {
        std::vector<GroupFrontier> asOf;
        std::vector<GroupRuns> selected;
        timeline.asOf(timeline.days().back(), asOf, selected);
        for (const GroupRuns& g : selected)
            for (const RunPoint& p : g.points)
                ids.push_back(p.runId);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    const std::vector<StoredRun> runs = store.runs(ids);

    ReportDoc doc;
    doc.title = modelDisplayName(req.scope.model) + ", " + sequenceText(req.scope) + ": at " + shortNumber(in.target)
        + " tok/s/user";
    doc.subtitle = "A Paretoscope report, made from the store " + store.path() + ".";
    doc.sections.push_back(question(in, pricing, runs));
    doc.sections.push_back(frontierSection(in, frontiers, sol, missing));
    doc.sections.push_back(readoutSection(in, *readings));
    doc.sections.push_back(ladderSection(*ladders, ladderReq.targets, pricing));
    if (in.plan) {
        PlanFrontiers data = loadPlanFrontiers(store, in.plan->scope);
        auto plan = computePlan(data, *in.plan);
        if (!plan) {
            outcome.error = plan.error();
            return outcome;
        }
        std::vector<double> sweep = in.sweep;
        if (sweep.empty())
            for (double t = 20; t <= 200; t += 10)
                sweep.push_back(t);
        auto curve = costOfSpeed(data, *in.plan, sweep);
        if (!curve) {
            outcome.error = curve.error();
            return outcome;
        }
        doc.sections.push_back(planSection(*plan, *curve));
    }
    const std::string task = ladderAccuracyTask(req, evaluations);
    doc.sections.push_back(accuracySection(
        task.empty() ? std::vector<GroupAccuracyRow> {} : accuracyByGroup(store, req.scope.model, task, req.scope.asOf),
        task));
    HistoryRequest hreq { req.scope, in.target, req.metric, req.price, req.hideSparse };
    auto history = computeHistory(timeline, pricing, hreq);
    if (!history) {
        outcome.error = history.error();
        return outcome;
    }
    doc.sections.push_back(historySection(in, *history));
    doc.sections.push_back(methodSection(*ladders));
    doc.sections.push_back(sourcesSection(runs, store.path()));
    if (!store.readStatus()) {
        outcome.error = store.readStatus().error();
        return outcome;
    }
    ViewOptions reproduce = in.view;
    reproduce.request.targets = { in.target };
    ReportSection command { "reproduce", "Reproduce", {}, {}, {}, {} };
    command.paragraphs.push_back("The readings at the target, as the command line prints them (add --db with the "
                                 "store's path where it is not the default):");
    command.preformatted = viewCommand(reproduce);
    doc.sections.push_back(std::move(command));
    outcome.doc = std::move(doc);
    return outcome;
}

} // namespace paretoscope
