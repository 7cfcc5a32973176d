#include "core/output/accuracyreports.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/model/displaynames.h"
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

} // namespace paretoscope
