#include "core/output/planmixreports.h"

#include <algorithm>

#include "core/analysis/numberformat.h"
#include "core/output/csvwriter.h"
#include "core/output/planreportparts.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

double partTarget(const MixPlan& m, std::size_t i)
{
    return m.plans[i].target;
}

std::string usd(const std::optional<double>& v)
{
    return v ? "$" + withThousands(*v) : "-";
}

} // namespace

std::string mixJson(const MixPlan& m)
{
    json parts = json::array();
    for (std::size_t i = 0; i < m.parts.size(); ++i) {
        const MixPart& p = m.parts[i];
        json byHardware = json::object();
        for (const HardwarePlan& h : m.plans[i].hardware)
            byHardware[h.hardware] = planHardwareJson(h, m.plans[i]);
        parts.push_back(json { { "label", p.label }, { "model", p.scope.model }, { "isl", p.scope.isl.value_or(0) },
            { "osl", p.scope.osl.value_or(0) }, { "share", p.share }, { "target", partTarget(m, i) },
            { "demand_tok_s", m.plans[i].demandTokensPerSecond },
            { "cheapest", m.cheapestPerPart[i].empty() ? json(nullptr) : json(m.cheapestPerPart[i]) },
            { "plan", std::move(byHardware) } });
    }
    json hardware = json::object();
    for (const MixHardware& h : m.hardware)
        hardware[h.hardware] = json { { "complete", h.complete }, { "gpus", h.complete ? json(h.gpus) : json(nullptr) },
            { "nodes", h.complete ? json(h.nodes) : json(nullptr) },
            { "power_mw", h.complete && h.powerMw ? json(*h.powerMw) : json(nullptr) },
            { "cost_per_month", h.complete && h.costPerMonth ? json(*h.costPerMonth) : json(nullptr) },
            { "cheapest", h.cheapest } };
    json mixed { { "per_part", m.cheapestPerPart },
        { "cost_per_month", m.mixedCostPerMonth ? json(*m.mixedCostPerMonth) : json(nullptr) },
        { "gpus", m.mixedCostPerMonth ? json(m.mixedGpus) : json(nullptr) }, { "differs", m.mixedDiffers } };
    json root { { "parts", std::move(parts) }, { "hardware", std::move(hardware) }, { "mixed", std::move(mixed) } };
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string mixCsv(const MixPlan& m)
{
    std::string out = csvLine({ "kind", "part", "hardware", "share", "target_tok_s_user", "status", "reading", "sparse",
        "deploy_as", "gpus", "nodes", "power_mw", "cost_usd_per_month", "cheapest" });
    auto opt = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    for (std::size_t i = 0; i < m.parts.size(); ++i)
        for (const HardwarePlan& h : m.plans[i].hardware)
            out += csvLine({ "part", csvText(m.parts[i].label), csvText(h.hardware), csvNumber(m.parts[i].share),
                csvNumber(partTarget(m, i)), std::string(planStatusName(h.status)),
                h.read() ? std::string(planReadingName(h.reading)) : "", h.sparse ? "true" : "false",
                csvText(deployAsText(h)), h.sized() ? csvNumber(double(h.gpus)) : "",
                h.sized() ? csvNumber(double(h.nodes)) : "", opt(h.powerMw), opt(h.costPerMonth),
                h.cheapest ? "true" : "false" });
    for (const MixHardware& h : m.hardware)
        out += csvLine({ "total", "", csvText(h.hardware), "1", "", h.complete ? "ok" : "incomplete", "", "", "",
            h.complete ? csvNumber(double(h.gpus)) : "", h.complete ? csvNumber(double(h.nodes)) : "",
            h.complete ? opt(h.powerMw) : "", h.complete ? opt(h.costPerMonth) : "", h.cheapest ? "true" : "false" });
    if (m.mixedCostPerMonth) {
        std::string parts;
        for (const std::string& hw : m.cheapestPerPart)
            parts += (parts.empty() ? "" : "+") + hw;
        out += csvLine({ "mixed", "", csvText(parts), "1", "", "ok", "", "", "", csvNumber(double(m.mixedGpus)), "", "",
            csvNumber(*m.mixedCostPerMonth), m.mixedDiffers ? "true" : "false" });
    }
    return out;
}

std::string mixTable(const MixPlan& m)
{
    std::string out = "Mix of " + std::to_string(m.parts.size()) + " parts:";
    for (std::size_t i = 0; i < m.parts.size(); ++i)
        out += (i ? ", " : " ") + m.parts[i].label + " " + shortNumber(m.parts[i].share * 100) + "% at "
            + shortNumber(partTarget(m, i)) + " tok/s/user";
    out += "\n\n";
    std::vector<std::string> header { "hardware" };
    for (const MixPart& p : m.parts)
        header.push_back("GPUs " + p.label);
    for (const char* h : { "GPUs", "nodes", "MW", "$/month" })
        header.push_back(h);
    std::vector<std::vector<std::string>> rows { header };
    for (const MixHardware& h : m.hardware) {
        std::vector<std::string> row { (h.cheapest ? "* " : "  ") + h.hardware };
        for (const Plan& p : m.plans) {
            const HardwarePlan* hp = p.forHardware(h.hardware);
            row.push_back(hp && hp->sized() ? withThousands(double(hp->gpus)) + (hp->sparse ? " (sparse)" : "")
                    : hp                    ? std::string(planStatusName(hp->status))
                                            : "-");
        }
        row.push_back(h.complete ? withThousands(double(h.gpus)) : "-");
        row.push_back(h.complete ? withThousands(double(h.nodes)) : "-");
        row.push_back(h.complete && h.powerMw ? withThousands(*h.powerMw, 3) : "-");
        row.push_back(h.complete ? usd(h.costPerMonth) : "-");
        rows.push_back(std::move(row));
    }
    std::vector<bool> right(header.size(), true);
    right[0] = false;
    out += alignedRows(rows, right);
    out += "* cheapest for the whole mix\n";
    if (m.mixedCostPerMonth) {
        out += m.mixedDiffers ? "Cheaper as a mix of hardware:" : "The cheapest per part is one hardware:";
        for (std::size_t i = 0; i < m.parts.size(); ++i) {
            const HardwarePlan* hp = m.plans[i].forHardware(m.cheapestPerPart[i]);
            out += (i ? "; " : " ") + m.parts[i].label + " on " + m.cheapestPerPart[i] + " ("
                + withThousands(double(hp->gpus)) + " GPUs, " + deployAsText(*hp) + ")";
        }
        out += "; " + withThousands(double(m.mixedGpus)) + " GPUs, " + usd(m.mixedCostPerMonth) + "/month\n";
    }
    return out;
}

} // namespace paretoscope
