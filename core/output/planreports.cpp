#include "core/output/planreports.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/numberformat.h"
#include "core/output/celljson.h"
#include "core/output/csvwriter.h"
#include "core/output/planreportparts.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

std::vector<std::string> tableRow(const HardwarePlan& h)
{
    const bool sized = h.sized();
    auto opt = [](const std::optional<double>& v, int decimals) { return v ? withThousands(*v, decimals) : "-"; };
    auto usd = [](const std::optional<double>& v) { return v ? "$" + withThousands(*v) : "-"; };
    const auto& g = h.group;
    std::string nodes = sized ? withThousands(double(h.nodes)) + " " + h.nodeUnit + (h.nodes == 1 ? "" : "s") : "-";
    std::string replicas
        = sized && h.replicas > 0 ? withThousands(double(h.replicas)) + " x " + std::to_string(h.replicaGpus) : "-";
    return { (h.cheapest ? "* " : "  ") + h.hardware, planStatusCell(h), opt(h.tputPerGpu, 0),
        g ? g->engine + " " + g->precision + (g->specDecoding != "none" ? " " + g->specDecoding : "") : "-",
        planConfigText(h.sizing), sized ? withThousands(double(h.gpus)) : "-", replicas, nodes, opt(h.powerMw, 3),
        h.usdPerGpuHour ? "$" + withThousands(*h.usdPerGpuHour, 2) : "-", usd(h.costPerMonth),
        h.costPerMTok ? money(*h.costPerMTok) : "-", h.costPerMTokEffective ? money(*h.costPerMTokEffective) : "-" };
}

std::string sweepTable(const Plan& plan, const std::vector<Plan>& sweep)
{
    std::vector<std::vector<std::string>> rows { { "hardware", "tok/s/user", "status", "GPUs", "nodes", "MW", "$/month",
        "$/1M tok (eff.)" } };
    for (const HardwarePlan& base : plan.hardware)
        for (const Plan& p : sweep)
            if (const HardwarePlan* h = p.forHardware(base.hardware)) {
                const bool sized = h->sized();
                rows.push_back({ (h->cheapest ? "* " : "  ") + h->hardware, shortNumber(p.target), planStatusCell(*h),
                    sized ? withThousands(double(h->gpus)) : "-", sized ? withThousands(double(h->nodes)) : "-",
                    h->powerMw ? withThousands(*h->powerMw, 3) : "-",
                    h->costPerMonth ? "$" + withThousands(*h->costPerMonth) : "-",
                    h->costPerMTokEffective ? money(*h->costPerMTokEffective) : "-" });
            }
    return alignedRows(rows, { false, true, false, true, true, true, true, true });
}

} // namespace

// The status cell: how the reading was taken where there is one ("measured", "interpolated 16-64", "sparse 4-64",
// "faster 58.2"), else the status.
std::string planStatusCell(const HardwarePlan& h)
{
    if (!h.read() || !h.sizing)
        return std::string(planStatusName(h.status));
    if (h.status == PlanStatus::FasterThanTarget)
        return "faster " + withThousands(h.deliveredInteractivity, 1);
    if (h.reading == PlanReading::Measured)
        return "measured";
    const int a = h.sizing->concurrency, b = h.lower->concurrency;
    return std::string(h.sparse ? "sparse " : "interpolated ") + std::to_string(std::min(a, b)) + "-"
        + std::to_string(std::max(a, b));
}

// "tp8 ep8 dpa c64" or "4P+8D c256"
std::string planConfigText(const std::optional<PlanConfig>& c)
{
    if (!c)
        return "-";
    std::string s = c->disaggregated
        ? std::to_string(c->prefillGpus) + "P+" + std::to_string(c->decodeGpus) + "D"
        : (c->tp > 0 ? "tp" + std::to_string(c->tp) : (c->gpus > 0 ? std::to_string(c->gpus) + " GPUs" : "?"));
    if (!c->disaggregated && c->ep > 1)
        s += " ep" + std::to_string(c->ep);
    if (c->dpAttention)
        s += " dpa";
    return s + (c->concurrency > 0 ? " c" + std::to_string(c->concurrency) : "") + " @" + shortNumber(c->interactivity);
}

// Rows as aligned columns; the columns named in `right` are right-aligned below the header.
std::string alignedRows(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right)
{
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], displayWidth(row[i]));
    std::string out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t i = 0; i < rows[r].size(); ++i)
            out += (i ? "  " : "") + padded(rows[r][i], width[i], r > 0 && right[i]);
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        out += "\n";
    }
    return out;
}

namespace {

json configJson(const std::optional<PlanConfig>& c)
{
    if (!c)
        return nullptr;
    return json { { "tp", c->tp }, { "ep", c->ep }, { "dp_attention", c->dpAttention },
        { "disaggregated", c->disaggregated }, { "prefill_gpus", c->prefillGpus }, { "decode_gpus", c->decodeGpus },
        { "gpus", c->replicaGpus() > 0 ? json(c->replicaGpus()) : json(nullptr) }, { "concurrency", c->concurrency },
        { "interactivity", c->interactivity }, { "tput_per_gpu", c->tputPerGpu },
        { "avg_power_w", optionalNumberJson(c->avgPowerW) }, { "run_id", c->runId } };
}

json tcoJson(const TcoCost& t)
{
    return json { { "usd_per_gpu_hour", t.usdPerGpuHour }, { "capital", t.capital }, { "energy", t.energy },
        { "other", t.other }, { "power_kw_per_gpu", t.kwPerGpu }, { "power_basis", powerBasisName(t.basis) },
        { "pue", t.pue } };
}

} // namespace

json planHardwareJson(const HardwarePlan& h, const Plan& plan)
{
    const bool sized = h.sized();
    auto count = [&](long long v) { return sized && v > 0 ? json(v) : json(nullptr); };
    const auto& g = h.group;
    json o { { "status", planStatusName(h.status) }, { "target", plan.target },
        { "demand_tok_s", plan.demandTokensPerSecond }, { "metric", metricName(plan.metric) },
        { "tput_per_gpu", optionalNumberJson(h.tputPerGpu) },
        { "tput_per_sized_gpu", optionalNumberJson(h.tputPerSizedGpu) },
        { "engine", g ? json(g->engine) : json(nullptr) }, { "precision", g ? json(g->precision) : json(nullptr) },
        { "spec_decoding", g ? json(g->specDecoding) : json(nullptr) },
        { "reading", h.read() ? json(planReadingName(h.reading)) : json(nullptr) }, { "sparse", h.sparse },
        { "reading_words", planReadingWords(h) },
        { "delivered_interactivity", h.read() ? json(h.deliveredInteractivity) : json(nullptr) },
        { "concurrency", h.read() && h.concurrency > 0 ? json(h.concurrency) : json(nullptr) },
        { "deploy_as", h.read() ? json(deployAsText(h)) : json(nullptr) },
        { "frontier_tput_per_gpu", optionalNumberJson(h.frontierTputPerGpu) },
        { "frontier_status", planStatusName(h.frontierStatus) },
        { "frontier_ratio", optionalNumberJson(h.frontierRatio) }, { "config", configJson(h.sizing) },
        { "config_lower", configJson(h.lower) }, { "replica_gpus", count(h.replicaGpus) },
        { "gpus_exact", sized ? json(h.gpusExact) : json(nullptr) }, { "gpus", count(h.gpus) },
        { "replicas", count(h.replicas) }, { "nodes", count(h.nodes) },
        { "gpus_per_node", sized ? json(h.gpusPerNode) : json(nullptr) },
        { "node_unit", sized ? json(h.nodeUnit) : json(nullptr) }, { "power_kw", optionalNumberJson(h.powerKw) },
        { "power_mw", optionalNumberJson(h.powerMw) }, { "gpu_tdp_kw", optionalNumberJson(h.gpuTdpKw) },
        { "energy_j_per_token", optionalNumberJson(h.energyJPerToken) },
        { "tokens_per_s_per_mw", optionalNumberJson(h.tokensPerSPerMw) },
        { "measured_j_per_token", optionalNumberJson(h.measuredJPerToken) },
        { "usd_per_gpu_hour", optionalNumberJson(h.usdPerGpuHour) }, { "price_source", h.priceSource },
        { "cost_per_hour", optionalNumberJson(h.costPerHour) },
        { "cost_per_month", optionalNumberJson(h.costPerMonth) },
        { "cost_per_mtok", optionalNumberJson(h.costPerMTok) },
        { "cost_per_mtok_effective", optionalNumberJson(h.costPerMTokEffective) }, { "cheapest", h.cheapest } };
    if (h.priceSource == "tco")
        o["tco"] = h.tco ? tcoJson(*h.tco) : json(nullptr);
    if (!h.accuracyTask.empty() && h.read()) // where the store holds evaluations (docs/evaluations.md)
        o["accuracy"] = accuracyJson(h.accuracyTask, h.accuracy);
    o["notes"] = h.notes;
    return o;
}

std::string planJson(const Plan& plan, const std::vector<Plan>& sweep)
{
    json root = json::object();
    for (const HardwarePlan& h : plan.hardware) {
        json o = planHardwareJson(h, plan);
        if (!sweep.empty()) {
            json list = json::array();
            for (const Plan& p : sweep)
                if (const HardwarePlan* at = p.forHardware(h.hardware))
                    list.push_back(planHardwareJson(*at, p));
            o["sweep"] = std::move(list);
        }
        root[h.hardware] = std::move(o);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string planCsv(const Plan& plan, const std::vector<Plan>& sweep)
{
    std::string out = csvLine({ "kind", "hardware", "target_tok_s_user", "status", "demand_tok_s", "metric",
        "tput_per_gpu_tok_s", "engine", "precision", "spec_decoding", "tp", "ep", "dp_attention", "disaggregated",
        "prefill_gpus", "decode_gpus", "concurrency", "config_interactivity", "replica_gpus", "gpus_exact", "gpus",
        "replicas", "nodes", "node_unit", "power_kw", "power_mw", "energy_j_per_token", "tokens_per_s_per_mw",
        "usd_per_gpu_hour", "price_source", "cost_usd_per_hour", "cost_usd_per_month", "cost_usd_per_mtok",
        "cost_usd_per_mtok_effective", "cheapest", "reading", "sparse", "delivered_interactivity",
        "concurrency_estimate", "lower_concurrency", "lower_interactivity", "frontier_tput_per_gpu_tok_s",
        "frontier_status", "frontier_ratio" });
    auto opt = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    auto row = [&](const char* kind, const Plan& p, const HardwarePlan& h) {
        const bool sized = h.sized();
        auto count = [&](long long v) { return sized && v > 0 ? csvNumber(double(v)) : std::string(); };
        const auto& g = h.group;
        const auto& c = h.sizing;
        auto ci = [&](int v) { return c ? csvNumber(v) : std::string(); };
        auto cb = [&](bool v) { return c ? std::string(v ? "true" : "false") : std::string(); };
        out += csvLine({ kind, csvText(h.hardware), csvNumber(p.target), std::string(planStatusName(h.status)),
            csvNumber(p.demandTokensPerSecond), std::string(metricName(p.metric)), opt(h.tputPerGpu),
            g ? csvText(g->engine) : "", g ? csvText(g->precision) : "", g ? csvText(g->specDecoding) : "",
            ci(c ? c->tp : 0), ci(c ? c->ep : 0), cb(c && c->dpAttention), cb(c && c->disaggregated),
            ci(c ? c->prefillGpus : 0), ci(c ? c->decodeGpus : 0), ci(c ? c->concurrency : 0),
            c ? csvNumber(c->interactivity) : "", count(h.replicaGpus), sized ? csvNumber(h.gpusExact) : "",
            count(h.gpus), count(h.replicas), count(h.nodes), sized ? csvText(h.nodeUnit) : "", opt(h.powerKw),
            opt(h.powerMw), opt(h.energyJPerToken), opt(h.tokensPerSPerMw), opt(h.usdPerGpuHour),
            csvText(h.priceSource), opt(h.costPerHour), opt(h.costPerMonth), opt(h.costPerMTok),
            opt(h.costPerMTokEffective), h.cheapest ? "true" : "false",
            h.read() ? std::string(planReadingName(h.reading)) : "", h.sparse ? "true" : "false",
            h.read() ? csvNumber(h.deliveredInteractivity) : "", h.concurrency > 0 ? csvNumber(h.concurrency) : "",
            h.lower ? csvNumber(h.lower->concurrency) : "", h.lower ? csvNumber(h.lower->interactivity) : "",
            opt(h.frontierTputPerGpu), std::string(planStatusName(h.frontierStatus)), opt(h.frontierRatio) });
    };
    for (const HardwarePlan& h : plan.hardware)
        row("plan", plan, h);
    for (const HardwarePlan& base : plan.hardware)
        for (const Plan& p : sweep)
            if (const HardwarePlan* h = p.forHardware(base.hardware))
                row("sweep", p, *h);
    return out;
}

std::string planTable(const Plan& plan, const PlanReportContext& context, const std::vector<Plan>& sweep)
{
    std::string out = "Demand " + withThousands(context.demand, context.demand < 100 ? 2 : 0) + " "
        + std::string(demandUnitName(context.unit)) + " = " + withThousands(plan.demandTokensPerSecond) + " "
        + std::string(metricName(plan.metric)) + " tok/s at " + shortNumber(plan.target) + " tok/s/user, headroom "
        + shortNumber(context.headroom * 100) + "%\n\n";
    std::vector<std::vector<std::string>> rows { { "hardware", "status",
        std::string(metricName(plan.metric)) + " tok/s/GPU", "engine", "sized by", "GPUs", "replicas", "nodes", "MW",
        "$/GPU/hr", "$/month", "$/1M tok", "$/1M tok (eff.)" } };
    for (const HardwarePlan& h : plan.hardware)
        rows.push_back(tableRow(h));
    out += alignedRows(rows, { false, false, true, false, false, true, true, true, true, true, true, true, true });
    if (plan.cheapest())
        out += "* cheapest per month\n";
    for (const HardwarePlan& h : plan.hardware) {
        if (h.tco)
            out += h.hardware + ": TCO $" + withThousands(h.tco->usdPerGpuHour, 3) + "/GPU/hr = capital $"
                + withThousands(h.tco->capital, 3) + " + energy $" + withThousands(h.tco->energy, 3) + " + other $"
                + withThousands(h.tco->other, 3) + "\n";
        if (h.read()) {
            out += h.hardware + ": deploy as " + deployAsText(h) + "; " + planReadingWords(h);
            if (h.frontierTputPerGpu)
                out += "; the frontier reads " + withThousands(*h.frontierTputPerGpu) + " tok/s/GPU at "
                    + shortNumber(plan.target) + " tok/s/user (" + withThousands(*h.frontierRatio, 2)
                    + "x what one configuration delivers)";
            if (!h.accuracyTask.empty()) // the accuracy of the group sized on
                out += "; "
                    + (h.accuracy ? accuracyText(h.accuracyTask, h.accuracy->accuracy)
                                  : taskName(h.accuracyTask) + " not evaluated");
            out += "\n";
        } else {
            out += h.hardware + ": " + std::string(planStatusWords(h.status)) + "\n";
        }
        for (const std::string& n : h.notes)
            out += h.hardware + ": " + n + "\n";
    }
    if (!sweep.empty())
        out += "\nCost of speed\n" + sweepTable(plan, sweep);
    return out;
}

} // namespace paretoscope
