#include "core/output/reports.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/baseline.h"
#include "core/analysis/energy.h"
#include "core/analysis/numberformat.h"
#include "core/import/formats/recordschema.h"
#include "core/model/modelnames.h"
#include "core/model/outsidejson.h"
#include "core/output/celljson.h"
#include "core/output/csvwriter.h"
#include "core/output/planreportparts.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

json recordJson(const RunRecord& r, bool withSchema)
{
    json o = json::object();
    if (withSchema)
        o["schema"] = std::string(kRecordSchema);
    for (const RecordColumn& c : recordColumns()) {
        CellValue v = c.get(r);
        if (!std::holds_alternative<std::monostate>(v))
            o[std::string(c.name)] = cellJson(v);
    }
    return o;
}

} // namespace

std::vector<FrontierReport> frontierReport(RunStore& store, const std::vector<GroupFrontier>& groups)
{
    std::vector<FrontierReport> out;
    for (const GroupFrontier& g : groups) {
        std::vector<long long> ids;
        ids.reserve(g.points.size());
        for (const Point& p : g.points)
            ids.push_back(p.runId);
        out.push_back({ g.key, store.runs(ids) });
    }
    return out;
}

std::string importOutcomeJson(const ImportOutcome& o)
{
    json j;
    j["source"] = o.source;
    if (o.result) {
        j["format"] = o.result->format;
        j["imported"] = o.result->imported;
        j["duplicates"] = o.result->duplicates;
        if (!o.result->notes.empty())
            j["notes"] = o.result->notes;
    } else {
        j["error"] = o.result.error();
    }
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

json accuracyJsonOf(const LadderRow& r)
{
    return accuracyJson(r.accuracyTask, r.accuracy);
}

// The frontier's reading of an entry (the site's, across configurations), or null where it has none.
json frontierReadingJson(const LadderEntry& e)
{
    if (!e.value)
        return nullptr;
    json o;
    o["tput_per_gpu"] = *e.value;
    o["engine"] = e.group ? json(e.group->engine) : json(nullptr);
    o["precision"] = e.group ? json(e.group->precision) : json(nullptr);
    o["spec_decoding"] = e.group ? json(e.group->specDecoding) : json(nullptr);
    o["sparse"] = e.sparse;
    if (e.sparse) {
        o["knot_below"] = e.knotBelow;
        o["knot_above"] = e.knotAbove;
    }
    return o;
}

// The two measured points the chosen reading lies between, where it is sparse.
std::pair<double, double> readKnots(const LadderRow& r)
{
    if (r.reading == Reading::Deployable && r.entry.clamped == Clamp::None && r.entry.deployable)
        return { r.entry.deployable->knotBelow, r.entry.deployable->knotAbove };
    return { r.entry.knotBelow, r.entry.knotAbove };
}

json deployableJson(const std::optional<DeployableReading>& d)
{
    if (!d)
        return nullptr;
    json o;
    o["tput_per_gpu"] = d->value;
    o["engine"] = d->group.engine;
    o["precision"] = d->group.precision;
    o["spec_decoding"] = d->group.specDecoding;
    o["interactivity"] = d->interactivity;
    o["concurrency"] = d->concurrency > 0 ? json(d->concurrency) : json(nullptr);
    o["interpolated"] = d->interpolated;
    o["sparse"] = d->sparse;
    if (d->interpolated) {
        o["knot_below"] = d->knotBelow;
        o["knot_above"] = d->knotAbove;
    }
    o["run_id"] = d->runId;
    return o;
}

} // namespace

nlohmann::ordered_json accuracyJson(const std::string& task, const std::optional<GroupAccuracy>& accuracy)
{
    if (!accuracy)
        return { { "task", task }, { "status", "not evaluated" } };
    const GroupAccuracy& a = *accuracy;
    return { { "task", task }, { "status", "evaluated" }, { "metric", std::string(accuracyMetricName(a.metric)) },
        { "value", a.accuracy.value }, { "standard_error", a.accuracy.standardError },
        { "questions", a.evaluation.questions }, { "date", a.evaluation.date } };
}

std::string ladderJson(const std::vector<HardwareLadder>& ladders, const std::string& baseline)
{
    json root = json::object();
    const auto ratios = baselineRatios(ladders, baseline);
    for (std::size_t i = 0; i < ladders.size(); ++i) {
        const HardwareLadder& l = ladders[i];
        json rows = json::array();
        for (std::size_t j = 0; j < l.rows.size(); ++j) {
            const LadderRow& r = l.rows[j];
            json o;
            o["target"] = r.entry.target;
            o["status"] = std::string(statusName(r.entry.status));
            // the reading chosen (--reading): the value, group, cost, energy and ratios below are of it
            o["reading"] = std::string(readingName(r.reading));
            o["tput_per_gpu"] = optionalNumberJson(r.value());
            const auto g = r.group();
            o["engine"] = g ? json(g->engine) : json(nullptr);
            o["precision"] = g ? json(g->precision) : json(nullptr);
            o["spec_decoding"] = g ? json(g->specDecoding) : json(nullptr);
            o["cost_per_mtok"] = optionalNumberJson(r.costPerMTok);
            o["j_per_token_all_in"] = optionalNumberJson(r.allInJoulesPerToken);
            o["tokens_per_s_per_mw_all_in"] = optionalNumberJson(r.tokensPerSecondPerMw);
            o["j_per_token_measured"] = optionalNumberJson(r.measuredJoulesPerToken);
            o["j_per_token_measured_group"] = r.measuredGroup
                ? json(r.measuredGroup->hardware + " / " + r.measuredGroup->engine + " / " + r.measuredGroup->precision
                    + " / " + r.measuredGroup->specDecoding)
                : json(nullptr);
            o["tput_low"] = optionalNumberJson(r.entry.low);
            o["tput_high"] = optionalNumberJson(r.entry.high);
            o["tier"] = r.tier;
            o["sparse"] = r.entry.readSparse(r.reading);
            if (r.entry.readSparse(r.reading)) { // the measured points the value was read between
                const auto [below, above] = readKnots(r);
                o["knot_below"] = below;
                o["knot_above"] = above;
            }
            if (r.entry.clamped != Clamp::None)
                o["clamped"] = std::string(clampName(r.entry.clamped));
            // both readings, whichever is chosen: what one configuration delivers at the target (the plan's
            // reading), and the frontier's across configurations (the site's)
            o["deployable"] = deployableJson(r.entry.deployable);
            o["frontier"] = frontierReadingJson(r.entry);
            o["frontier_vs_deployable"] = optionalNumberJson(r.entry.frontierRatio());
            if (const std::string why = readingsDifferSentence(r.entry); !why.empty())
                o["readings_differ"] = why;
            if (!baseline.empty()) {
                o["vs_baseline"] = optionalNumberJson(ratios[i][j].ratio);
                o["vs_baseline_status"] = std::string(baselineStatusName(ratios[i][j].status));
            }
            if (!r.accuracyTask.empty()) // where the store holds evaluations (docs/evaluations.md)
                o["accuracy"] = accuracyJsonOf(r);
            rows.push_back(std::move(o));
        }
        root[l.hardware] = std::move(rows);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string speedOfLightJson(const std::vector<SolLine>& lines, const std::vector<std::string>& missing)
{
    nlohmann::json out = { { "lines", nlohmann::json::array() }, { "missing", missing } };
    for (const SolLine& l : lines) {
        nlohmann::json points = nlohmann::json::array();
        for (const SolPoint& p : l.curve.points)
            points.push_back({ { "interactivity", p.interactivity }, { "tput_per_gpu", p.tputPerGpu },
                { "batch", p.batch }, { "gpus", p.gpus }, { "compute_bound", p.computeBound } });
        out["lines"].push_back({ { "hardware", l.hardware }, { "precision", l.precision }, { "notes", l.curve.notes },
            { "points", points } });
    }
    return jsonText(out);
}

std::string ladderCsv(const std::vector<HardwareLadder>& ladders, const std::string& baseline)
{
    std::vector<std::string> header { "hardware", "target_tok_s_user", "status", "tput_per_gpu_tok_s", "engine",
        "precision", "spec_decoding", "usd_per_gpu_hour", "cost_usd_per_mtok", "tokens_per_usd", "tier", "clamped",
        "pct_speed_of_light", "sparse", "tput_low_tok_s", "tput_high_tok_s", "j_per_token_all_in",
        "tok_s_per_mw_all_in", "j_per_token_measured_gpu", "deployable_tput_per_gpu_tok_s", "deployable_engine",
        "deployable_precision", "deployable_spec_decoding", "deployable_concurrency", "deployable_sparse",
        "frontier_vs_deployable", "readings_differ", "reading", "frontier_tput_per_gpu_tok_s", "frontier_engine",
        "frontier_precision", "frontier_spec_decoding", "frontier_sparse" };
    if (!baseline.empty())
        header.insert(header.end(), { "baseline", "vs_baseline", "vs_baseline_status" });
    const bool accuracy = std::any_of(ladders.begin(), ladders.end(), [](const HardwareLadder& l) {
        return std::any_of(l.rows.begin(), l.rows.end(), [](const LadderRow& r) { return !r.accuracyTask.empty(); });
    });
    if (accuracy) // where the store holds evaluations
        header.insert(header.end(), { "accuracy_task", "accuracy", "accuracy_se", "accuracy_status" });
    std::string out = csvLine(header);
    const auto ratios = baselineRatios(ladders, baseline);
    auto num = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    for (std::size_t i = 0; i < ladders.size(); ++i) {
        const HardwareLadder& l = ladders[i];
        for (std::size_t j = 0; j < l.rows.size(); ++j) {
            const LadderRow& r = l.rows[j];
            const auto g = r.group(); // of the reading chosen; the frontier's is in the frontier_ columns
            std::vector<std::string> line { csvText(l.hardware), csvNumber(r.entry.target),
                std::string(statusName(r.entry.status)), num(r.value()), g ? csvText(g->engine) : "",
                g ? csvText(g->precision) : "", g ? csvText(g->specDecoding) : "", num(r.usdPerGpuHour),
                num(r.costPerMTok), num(r.tokensPerDollar), csvText(r.tier), std::string(clampName(r.entry.clamped)),
                num(r.speedOfLightPct), r.entry.readSparse(r.reading) ? "true" : "false", num(r.entry.low),
                num(r.entry.high), num(r.allInJoulesPerToken), num(r.tokensPerSecondPerMw),
                num(r.measuredJoulesPerToken) };
            const auto& d = r.entry.deployable;
            line.insert(line.end(),
                { d ? csvNumber(d->value) : "", d ? csvText(d->group.engine) : "", d ? csvText(d->group.precision) : "",
                    d ? csvText(d->group.specDecoding) : "", d && d->concurrency > 0 ? csvNumber(d->concurrency) : "",
                    d ? (d->sparse ? "true" : "false") : "", num(r.entry.frontierRatio()),
                    csvText(readingsDifferSentence(r.entry)) });
            const auto& fg = r.entry.group;
            line.insert(line.end(),
                { std::string(readingName(r.reading)), num(r.entry.value), fg ? csvText(fg->engine) : "",
                    fg ? csvText(fg->precision) : "", fg ? csvText(fg->specDecoding) : "",
                    r.entry.value ? (r.entry.sparse ? "true" : "false") : "" });
            if (!baseline.empty())
                line.insert(line.end(),
                    { csvText(baseline), num(ratios[i][j].ratio),
                        std::string(baselineStatusName(ratios[i][j].status)) });
            if (accuracy)
                line.insert(line.end(),
                    { csvText(r.accuracyTask), r.accuracy ? csvNumber(r.accuracy->accuracy.value) : "",
                        r.accuracy ? csvNumber(r.accuracy->accuracy.standardError) : "",
                        r.accuracy ? "evaluated" : (g ? "not evaluated" : "") });
            out += csvLine(line);
        }
    }
    return out;
}

namespace {

// A ladder row's energy in the table: the value, or why there is none (never 0).
std::string energyText(const std::string& hardware, const LadderRow& r, EnergyMetric m)
{
    if (auto v = rowEnergy(r, m)) {
        if (m == EnergyMetric::TokensPerMegawatt)
            return withThousands(*v);
        // measured in another group than the throughput reading's: say which
        const bool other = m == EnergyMetric::MeasuredJoulesPerToken && r.measuredGroup && r.measuredGroup != r.group();
        return withSignificant(*v)
            + (other ? " (" + r.measuredGroup->engine + " " + r.measuredGroup->precision + ")" : "");
    }
    if (m == EnergyMetric::MeasuredJoulesPerToken)
        return "- (no measured power)";
    if (!r.value())
        return "-";
    return bundledHardwarePower().find(hardware) ? "-" : "- (no power figure)";
}

} // namespace

std::string ladderTable(
    const std::vector<HardwareLadder>& ladders, TputMetric metric, const std::string& baseline, EnergyMetric energy)
{
    std::vector<std::vector<std::string>> rows;
    const Reading reading
        = ladders.empty() || ladders[0].rows.empty() ? Reading::Deployable : ladders[0].rows[0].reading;
    std::string tput = std::string(metricName(metric)) + " tok/s/GPU ("
        + (reading == Reading::Deployable ? "one config" : "frontier") + ")";
    std::string tier = ladders.empty() || ladders[0].rows.empty() ? "tier" : ladders[0].rows[0].tier;
    // the reading chosen first (its cost beside it), then the other one
    rows.push_back({ "hardware", "tok/s/user", tput, "engine", "precision", "spec", "$/1M tok (" + tier + ")", "status",
        reading == Reading::Deployable ? "frontier" : "one config", "frontier/config" });
    if (!baseline.empty())
        rows[0].push_back("vs " + baseline);
    if (energy != EnergyMetric::None)
        rows[0].push_back(energyLabel(energy));
    // accuracy where the store holds evaluations: a column of its own, last
    std::string task;
    for (const HardwareLadder& l : ladders)
        for (const LadderRow& r : l.rows)
            if (!r.accuracyTask.empty())
                task = r.accuracyTask;
    if (!task.empty())
        rows[0].push_back("accuracy");
    const auto ratios = baselineRatios(ladders, baseline);
    for (std::size_t i = 0; i < ladders.size(); ++i) {
        const HardwareLadder& l = ladders[i];
        for (std::size_t j = 0; j < l.rows.size(); ++j) {
            const LadderRow& r = l.rows[j];
            const auto g = r.group();
            const auto v = r.value();
            std::string value = v ? withThousands(*v) : "-";
            if (r.entry.clamped != Clamp::None)
                value += r.entry.clamped == Clamp::Below ? " (clamped, below)" : " (clamped, above)";
            if (v && r.entry.readSparse(r.reading)) // read across a gap between measured points: a footnote
                value += " (sparse)";
            const bool deployable = r.reading == Reading::Deployable && r.entry.clamped == Clamp::None;
            if (deployable && r.entry.deployable && r.entry.deployable->concurrency > 0)
                value += (r.entry.deployable->interpolated ? " at conc. ~" : " at conc. ")
                    + withThousands(r.entry.deployable->concurrency); // ~: interpolated, an estimate
            if (!deployable && r.entry.low && r.entry.high) // the spread of reruns (the frontier's)
                value += " [" + withThousands(*r.entry.low) + " - " + withThousands(*r.entry.high) + "]";
            std::string other = "-";
            if (r.reading == Reading::Frontier && r.entry.deployable)
                other = deployableText(*r.entry.deployable);
            else if (r.reading == Reading::Deployable)
                other = frontierText(r.entry);
            const auto ratio = r.entry.frontierRatio();
            rows.push_back({ l.hardware, shortNumber(r.entry.target), value, g ? g->engine : "-",
                g ? g->precision : "-", g ? g->specDecoding : "-", r.costPerMTok ? money(*r.costPerMTok) : "-",
                std::string(statusName(r.entry.status)), other, ratio ? withSignificant(*ratio, 3) + "x" : "-" });
            if (!baseline.empty())
                rows.back().push_back(ratioText(ratios[i][j]));
            if (energy != EnergyMetric::None)
                rows.back().push_back(energyText(l.hardware, r, energy));
            if (!task.empty())
                rows.back().push_back(r.accuracy ? accuracyText(task, r.accuracy->accuracy)
                        : g                      ? "not evaluated"
                                                 : "-");
        }
    }
    std::vector<bool> right(rows[0].size(), false); // target, tok/s/GPU, $/1M and what follows it
    for (std::size_t i = 0; i < right.size(); ++i)
        right[i] = i == 1 || i == 2 || i == 6 || i >= 8;
    return alignedRows(rows, right);
}

std::string frontierJson(const std::vector<FrontierReport>& frontiers)
{
    json root = json::array();
    for (const FrontierReport& f : frontiers) {
        json g;
        g["hardware"] = f.key.hardware;
        g["engine"] = f.key.engine;
        g["precision"] = f.key.precision;
        g["spec_decoding"] = f.key.specDecoding;
        json pts = json::array();
        for (const StoredRun& run : f.points) {
            json p = recordJson(run.record, false);
            p["run_id"] = run.id;
            pts.push_back(std::move(p));
        }
        g["points"] = std::move(pts);
        root.push_back(std::move(g));
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string frontierCsv(const std::vector<FrontierReport>& frontiers)
{
    std::vector<StoredRun> all;
    for (const FrontierReport& f : frontiers)
        all.insert(all.end(), f.points.begin(), f.points.end());
    return runsCsv(all);
}

std::string runsCsv(const std::vector<StoredRun>& runs)
{
    std::vector<std::string> header { "run_id" };
    for (const RecordColumn& c : recordColumns())
        header.emplace_back(c.name);
    std::string out = csvLine(header);
    for (const StoredRun& run : runs) {
        std::vector<std::string> cells { std::to_string(run.id) };
        for (const RecordColumn& c : recordColumns())
            cells.push_back(csvCell(c.get(run.record)));
        out += csvLine(cells);
    }
    return out;
}

std::string runRecordJson(const RunRecord& record)
{
    return recordJson(record, true).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string runsJson(const std::vector<StoredRun>& runs)
{
    std::string out = "[\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        out += "  " + recordJson(runs[i].record, true).dump(-1, ' ', false, json::error_handler_t::replace);
        out += i + 1 < runs.size() ? ",\n" : "\n";
    }
    return out + "]\n";
}

std::string scopesJson(const std::vector<ScopeSummary>& scopes)
{
    json root = json::array();
    for (const ScopeSummary& s : scopes)
        root.push_back({ { "model", s.model }, { "model_name", modelDisplayName(s.model) }, { "isl", s.isl },
            { "osl", s.osl }, { "workload", s.workload }, { "runs", s.runs }, { "hardware", s.hardware } });
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string scopesTable(const std::vector<ScopeSummary>& scopes)
{
    std::string out;
    for (const ScopeSummary& s : scopes) {
        std::string hw;
        for (const auto& h : s.hardware)
            hw += (hw.empty() ? "" : ", ") + h;
        out += modelLabel(s.model) + "  isl " + std::to_string(s.isl) + "  osl " + std::to_string(s.osl) + "  ["
            + s.workload + "]  " + std::to_string(s.runs) + " runs  (" + hw + ")\n";
    }
    return out;
}

std::string tiersJson(const PricingCatalog& catalog)
{
    json root;
    root["source"] = catalog.source;
    root["unit"] = "USD per GPU-hour";
    json tiers = json::array();
    for (const PricingTier& t : catalog.tiers) {
        json o;
        o["key"] = t.key;
        o["label"] = t.label;
        o["table"] = t.table;
        o["usd_per_gpu_hour"] = t.usdPerGpuHour;
        tiers.push_back(std::move(o));
    }
    root["tiers"] = std::move(tiers);
    return jsonText(root, 2) + "\n";
}

std::string tiersTable(const PricingCatalog& catalog)
{
    std::vector<std::string> hardware;
    for (const PricingTier& t : catalog.tiers)
        for (const auto& [hw, price] : t.usdPerGpuHour)
            if (std::find(hardware.begin(), hardware.end(), hw) == hardware.end())
                hardware.push_back(hw);
    std::sort(hardware.begin(), hardware.end());
    std::size_t keyWidth = 4;
    for (const PricingTier& t : catalog.tiers)
        keyWidth = std::max(keyWidth, t.key.size());
    std::string out = "Source: " + catalog.source + " ($/GPU/hr)\n" + padded("tier", keyWidth, false);
    for (const auto& hw : hardware)
        out += "  " + padded(hw, 7, true);
    out += "  label\n";
    for (const PricingTier& t : catalog.tiers) {
        out += padded(t.key, keyWidth, false);
        for (const auto& hw : hardware) {
            auto p = t.price(hw);
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f", p.value_or(0));
            out += "  " + padded(p ? buf : "-", 7, true);
        }
        out += "  " + t.label + "\n";
    }
    return out;
}

} // namespace paretoscope
