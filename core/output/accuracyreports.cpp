#include "core/output/accuracyreports.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "core/output/celljson.h"
#include "core/output/csvwriter.h"
#include "core/output/planreportparts.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

std::string configurationText(const EvaluationRecord& r)
{
    std::string text = r.disaggregated ? "disagg P tp" + std::to_string(r.prefillTp) + " D tp" + std::to_string(r.tp)
                                       : "tp" + std::to_string(r.tp);
    if (r.ep > 1)
        text += " ep" + std::to_string(r.ep);
    if (r.dpAttention)
        text += " dp-attn";
    return text + ", conc " + std::to_string(r.concurrency);
}

} // namespace

std::string accuracyJson(const std::vector<GroupAccuracyRow>& rows, const std::string& task)
{
    json out = json::array();
    for (const GroupAccuracyRow& row : rows) {
        json j { { "hardware", row.group.hardware }, { "engine", row.group.engine },
            { "precision", row.group.precision }, { "spec_decoding", row.group.specDecoding }, { "task", task } };
        if (!row.accuracy) {
            j["status"] = "not evaluated";
        } else {
            const GroupAccuracy& a = *row.accuracy;
            j["status"] = "evaluated";
            j["metric"] = std::string(accuracyMetricName(a.metric));
            j["accuracy"] = a.accuracy.value;
            j["standard_error"] = a.accuracy.standardError;
            j["questions"] = a.evaluation.questions;
            j["date"] = a.evaluation.date;
            j["configuration"] = configurationText(a.evaluation);
            j["configurations_evaluated"] = a.configurations;
            j["run_url"] = a.evaluation.runUrl;
        }
        out.push_back(std::move(j));
    }
    return out.dump(2) + "\n";
}

std::string accuracyCsv(const std::vector<GroupAccuracyRow>& rows, const std::string& task)
{
    std::string out = csvLine({ "hardware", "engine", "precision", "spec_decoding", "task", "status", "metric",
        "accuracy", "standard_error", "questions", "date", "configuration", "configurations_evaluated" });
    for (const GroupAccuracyRow& row : rows) {
        std::vector<std::string> cells { csvText(row.group.hardware), csvText(row.group.engine),
            csvText(row.group.precision), csvText(row.group.specDecoding), csvText(task) };
        if (!row.accuracy) {
            cells.insert(cells.end(), { "not evaluated", "", "", "", "", "", "", "" });
        } else {
            const GroupAccuracy& a = *row.accuracy;
            cells.insert(cells.end(),
                { "evaluated", std::string(accuracyMetricName(a.metric)), csvNumber(a.accuracy.value),
                    csvNumber(a.accuracy.standardError), std::to_string(a.evaluation.questions),
                    csvText(a.evaluation.date), csvText(configurationText(a.evaluation)),
                    std::to_string(a.configurations) });
        }
        out += csvLine(cells);
    }
    return out;
}

std::string accuracyTable(const std::vector<GroupAccuracyRow>& rows, const std::string& task)
{
    std::vector<std::vector<std::string>> table { { "Hardware", "Group", "Accuracy", "Questions", "Date",
        "Configuration (of those evaluated)" } };
    for (const GroupAccuracyRow& row : rows) {
        std::vector<std::string> cells { hardwareDisplayName(row.group.hardware), groupDisplayName(row.group, false) };
        if (!row.accuracy) {
            cells.insert(cells.end(), { "not evaluated", "-", "-", "-" });
        } else {
            const GroupAccuracy& a = *row.accuracy;
            cells.insert(cells.end(),
                { accuracyText(task, a.accuracy), std::to_string(a.evaluation.questions), a.evaluation.date,
                    configurationText(a.evaluation) + " (" + std::to_string(a.configurations) + ")" });
        }
        table.push_back(std::move(cells));
    }
    return alignedRows(table, { false, false, false, true, false, false });
}

namespace {

std::string ratioText(const std::optional<double>& v)
{
    char buf[32];
    if (!v)
        return "-";
    std::snprintf(buf, sizeof buf, "%.2fx", *v);
    return buf;
}

std::string differenceText(const PrecisionTradeoff& t)
{
    if (!t.accuracyDifference)
        return "-";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%+.1f \xc2\xb1 %.1f pts%s", 100 * *t.accuracyDifference, 100 * *t.differenceError,
        t.withinError ? " (within error)" : "");
    return buf;
}

} // namespace

std::string precisionJson(const std::vector<PrecisionTradeoff>& tradeoffs, const std::string& task, double target)
{
    json out = json::array();
    for (const PrecisionTradeoff& t : tradeoffs) {
        json readings = json::array();
        for (const PrecisionReading& r : t.readings) {
            const auto g = r.row.group(); // of the reading chosen (LadderRequest::reading)
            json j { { "precision", r.precision }, { "status", std::string(statusName(r.row.entry.status)) },
                { "reading", std::string(readingName(r.row.reading)) },
                { "tput_per_gpu", optionalNumberJson(r.row.value()) },
                { "engine", g ? json(g->engine) : json(nullptr) },
                { "spec_decoding", g ? json(g->specDecoding) : json(nullptr) },
                { "cost_per_mtok", optionalNumberJson(r.row.costPerMTok) } };
            if (r.row.accuracy)
                j["accuracy"] = json { { "value", r.row.accuracy->accuracy.value },
                    { "standard_error", r.row.accuracy->accuracy.standardError },
                    { "date", r.row.accuracy->evaluation.date } };
            else
                j["accuracy"] = nullptr;
            readings.push_back(std::move(j));
        }
        out.push_back(json { { "hardware", t.hardware }, { "target", target }, { "task", task },
            { "readings", std::move(readings) }, { "fp4_over_fp8_tput", optionalNumberJson(t.tputRatio) },
            { "fp4_over_fp8_cost", optionalNumberJson(t.costRatio) },
            { "accuracy_difference", optionalNumberJson(t.accuracyDifference) },
            { "difference_error", optionalNumberJson(t.differenceError) }, { "within_error", t.withinError } });
    }
    return out.dump(2) + "\n";
}

std::string precisionCsv(const std::vector<PrecisionTradeoff>& tradeoffs, const std::string& task, double target)
{
    std::string out = csvLine({ "hardware", "target_tok_s_user", "task", "precision", "status", "tput_per_gpu_tok_s",
        "engine", "spec_decoding", "cost_usd_per_mtok", "accuracy", "accuracy_se", "fp4_over_fp8_tput",
        "fp4_over_fp8_cost", "accuracy_difference", "difference_error", "within_error" });
    const auto num = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    for (const PrecisionTradeoff& t : tradeoffs)
        for (const PrecisionReading& r : t.readings) {
            const auto g = r.row.group(); // of the reading chosen
            out += csvLine({ csvText(t.hardware), csvNumber(target), csvText(task), csvText(r.precision),
                std::string(statusName(r.row.entry.status)), num(r.row.value()), g ? csvText(g->engine) : "",
                g ? csvText(g->specDecoding) : "", num(r.row.costPerMTok),
                r.row.accuracy ? csvNumber(r.row.accuracy->accuracy.value) : "",
                r.row.accuracy ? csvNumber(r.row.accuracy->accuracy.standardError) : "", num(t.tputRatio),
                num(t.costRatio), num(t.accuracyDifference), num(t.differenceError),
                t.accuracyDifference ? (t.withinError ? "true" : "false") : "" });
        }
    return out;
}

std::vector<std::vector<std::string>> precisionRows(
    const std::vector<PrecisionTradeoff>& tradeoffs, const std::string& task, double target)
{
    std::vector<std::vector<std::string>> table { { "Hardware", "Precision", "tok/s/GPU at " + shortNumber(target),
        "Group", "$/1M tok", "Accuracy", "FP4 vs FP8" } };
    for (const PrecisionTradeoff& t : tradeoffs)
        for (std::size_t i = 0; i < t.readings.size(); ++i) {
            const PrecisionReading& r = t.readings[i];
            const auto g = r.row.group(); // of the reading chosen
            std::string versus;
            if (i == 0 && t.tputRatio)
                versus = ratioText(t.tputRatio) + " tok/s, " + ratioText(t.costRatio) + " $, " + differenceText(t);
            table.push_back({ i == 0 ? hardwareDisplayName(t.hardware) : "", precisionDisplayName(r.precision),
                r.row.value() ? withThousands(*r.row.value()) : std::string(statusShortWords(r.row.entry.status)),
                g ? groupDisplayName(*g, false) : "-", r.row.costPerMTok ? money(*r.row.costPerMTok) : "-",
                r.row.accuracy ? accuracyText(task, r.row.accuracy->accuracy) : (g ? "not evaluated" : "-"), versus });
        }
    return table;
}

std::string precisionTable(const std::vector<PrecisionTradeoff>& tradeoffs, const std::string& task, double target)
{
    return alignedRows(precisionRows(tradeoffs, task, target), { false, false, true, false, true, false, false });
}

} // namespace paretoscope
