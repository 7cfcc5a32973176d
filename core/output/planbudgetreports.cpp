#include "core/output/planbudgetreports.h"

#include "core/analysis/numberformat.h"
#include "core/output/csvwriter.h"
#include "core/output/planreportparts.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

json opt(const std::optional<double>& v)
{
    return v ? json(*v) : json(nullptr);
}

std::string csvOpt(const std::optional<double>& v)
{
    return v ? csvNumber(*v) : std::string();
}

// The plan shell a hardware's fields are written against: its target, what it serves and the metric.
Plan shell(double target, double demand, TputMetric metric)
{
    Plan p;
    p.target = target;
    p.demandTokensPerSecond = demand;
    p.metric = metric;
    return p;
}

std::string amountText(const BudgetPlan& p)
{
    return p.kind == BudgetKind::Megawatts ? withThousands(p.amount, p.amount < 10 ? 3 : 1) + " MW"
                                           : "$" + withThousands(p.amount) + "/month";
}

} // namespace

std::string budgetJson(const BudgetPlan& plan)
{
    json root = json::object();
    for (const BudgetHardware& b : plan.hardware) {
        json o = planHardwareJson(b.plan, shell(plan.target, b.servedTokPerS, plan.metric));
        o["budget"] = json { { "kind", budgetKindName(plan.kind) }, { "amount", plan.amount }, { "fits", b.fits },
            { "replica_cost", b.fits || b.replicaCost > 0 ? json(b.replicaCost) : json(nullptr) },
            { "served_tok_s", b.servedTokPerS }, { "total_tok_s", opt(b.totalTokPerS) },
            { "output_tok_s", opt(b.outputTokPerS) }, { "users", opt(b.users) },
            { "requests_per_s", opt(b.requestsPerS) }, { "most", b.most },
            { "why", b.why.empty() ? json(nullptr) : json(b.why) } };
        root[b.plan.hardware] = std::move(o);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string budgetCsv(const BudgetPlan& plan)
{
    std::string out = csvLine({ "hardware", "budget_kind", "budget", "target_tok_s_user", "metric", "status", "reading",
        "sparse", "delivered_interactivity", "deploy_as", "tput_per_gpu_tok_s", "replica_gpus", "replicas", "gpus",
        "nodes", "node_unit", "power_mw", "usd_per_gpu_hour", "cost_usd_per_month", "served_tok_s", "total_tok_s",
        "output_tok_s", "users", "requests_per_s", "most", "why" });
    for (const BudgetHardware& b : plan.hardware) {
        const HardwarePlan& h = b.plan;
        auto count = [&](long long v) { return b.fits && v > 0 ? csvNumber(double(v)) : std::string(); };
        out += csvLine({ csvText(h.hardware), std::string(budgetKindName(plan.kind)), csvNumber(plan.amount),
            csvNumber(plan.target), std::string(metricName(plan.metric)), std::string(planStatusName(h.status)),
            h.read() ? std::string(planReadingName(h.reading)) : "", h.sparse ? "true" : "false",
            h.read() ? csvNumber(h.deliveredInteractivity) : "", csvText(deployAsText(h)), csvOpt(h.tputPerGpu),
            count(h.replicaGpus), count(h.replicas), count(h.gpus), count(h.nodes), b.fits ? csvText(h.nodeUnit) : "",
            csvOpt(h.powerMw), csvOpt(h.usdPerGpuHour), csvOpt(h.costPerMonth), csvNumber(b.servedTokPerS),
            csvOpt(b.totalTokPerS), csvOpt(b.outputTokPerS), csvOpt(b.users), csvOpt(b.requestsPerS),
            b.most ? "true" : "false", csvText(b.why) });
    }
    return out;
}

std::string budgetTable(const BudgetPlan& plan, double headroom)
{
    std::string out = "Budget " + amountText(plan) + " at " + shortNumber(plan.target) + " tok/s/user, headroom "
        + shortNumber(headroom * 100) + "% kept spare\n\n";
    std::vector<std::vector<std::string>> rows { { "hardware", "status", "sized by", "GPUs", "replicas", "nodes", "MW",
        "$/month", "tok/s", "output tok/s", "users", "req/s" } };
    for (const BudgetHardware& b : plan.hardware) {
        const HardwarePlan& h = b.plan;
        const std::string nodes
            = b.fits ? withThousands(double(h.nodes)) + " " + h.nodeUnit + (h.nodes == 1 ? "" : "s") : "-";
        rows.push_back({ (b.most ? "* " : "  ") + h.hardware, planStatusCell(h), planConfigText(h.sizing),
            b.fits ? withThousands(double(h.gpus)) : "-",
            b.fits && h.replicas > 0 ? withThousands(double(h.replicas)) + " x " + std::to_string(h.replicaGpus) : "-",
            nodes, withThousands(h.powerMw, 3), h.costPerMonth ? "$" + withThousands(*h.costPerMonth) : "-",
            b.fits ? withThousands(b.totalTokPerS.value_or(b.servedTokPerS)) : "-", withThousands(b.outputTokPerS),
            withThousands(b.users), withThousands(b.requestsPerS, 1) });
    }
    out += alignedRows(rows, { false, false, false, true, true, true, true, true, true, true, true, true });
    out += "* serves the most\n";
    for (const BudgetHardware& b : plan.hardware) {
        if (b.fits)
            out += b.plan.hardware + ": deploy as " + deployAsText(b.plan) + "; " + planReadingWords(b.plan) + "\n";
        else
            out += b.plan.hardware + ": nothing: " + b.why + "\n";
    }
    return out;
}

std::string capJson(const CapPlan& plan)
{
    json root = json::object();
    for (const CapHardware& c : plan.hardware) {
        json o = planHardwareJson(c.plan, shell(c.interactivity.value_or(0), c.demandTokensPerSecond, plan.metric));
        o["cap"] = json { { "max_cost_per_mtok", plan.capUsdPerMTok }, { "interactivity", opt(c.interactivity) },
            { "fastest", c.fastest }, { "why", c.why.empty() ? json(nullptr) : json(c.why) } };
        root[c.hardware] = std::move(o);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string capCsv(const CapPlan& plan)
{
    std::string out = csvLine({ "hardware", "max_cost_per_mtok", "interactivity", "status", "reading", "sparse",
        "deploy_as", "tput_per_gpu_tok_s", "usd_per_gpu_hour", "cost_usd_per_mtok", "gpus", "cost_usd_per_month",
        "fastest", "why" });
    for (const CapHardware& c : plan.hardware) {
        const HardwarePlan& h = c.plan;
        const bool within = c.interactivity.has_value();
        out += csvLine({ csvText(c.hardware), csvNumber(plan.capUsdPerMTok), csvOpt(c.interactivity),
            within ? std::string(planStatusName(h.status)) : "", within ? std::string(planReadingName(h.reading)) : "",
            within && h.sparse ? "true" : "false", within ? csvText(deployAsText(h)) : "",
            within ? csvOpt(h.tputPerGpu) : "", csvOpt(h.usdPerGpuHour), within ? csvOpt(h.costPerMTok) : "",
            within && h.sized() ? csvNumber(double(h.gpus)) : "", within ? csvOpt(h.costPerMonth) : "",
            c.fastest ? "true" : "false", csvText(c.why) });
    }
    return out;
}

std::string capTable(const CapPlan& plan)
{
    std::string out = "The fastest interactivity within " + money(plan.capUsdPerMTok) + " per million tokens (list, "
        + "at full load), sized for " + withThousands(plan.demandTokensPerSecond) + " "
        + std::string(metricName(plan.metric))
        + " tok/s (a demand in users: users x each hardware's interactivity)\n\n";
    std::vector<std::vector<std::string>> rows { { "hardware", "tok/s/user", "status", "sized by", "tok/s/GPU",
        "$/GPU/hr", "$/1M tok", "GPUs", "$/month" } };
    for (const CapHardware& c : plan.hardware) {
        const HardwarePlan& h = c.plan;
        const bool within = c.interactivity.has_value();
        rows.push_back({ (c.fastest ? "* " : "  ") + c.hardware, within ? withThousands(*c.interactivity, 1) : "-",
            within ? planStatusCell(h) : "over the cap", within ? planConfigText(h.sizing) : "-",
            within ? withThousands(h.tputPerGpu) : "-",
            h.usdPerGpuHour ? "$" + withThousands(*h.usdPerGpuHour, 2) : "-",
            within && h.costPerMTok ? money(*h.costPerMTok) : "-",
            within && h.sized() ? withThousands(double(h.gpus)) : "-",
            within && h.costPerMonth ? "$" + withThousands(*h.costPerMonth) : "-" });
    }
    out += alignedRows(rows, { false, true, false, false, true, true, true, true, true });
    out += "* the fastest within the cap\n";
    for (const CapHardware& c : plan.hardware)
        out += c.hardware + ": "
            + (c.interactivity ? "deploy as " + deployAsText(c.plan) + "; " + planReadingWords(c.plan) : c.why) + "\n";
    return out;
}

} // namespace paretoscope
