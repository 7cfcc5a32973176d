#include "core/live/sweep.h"

#include <ctime>

#include <nlohmann/json.hpp>

#include "core/model/outsidejson.h"
#include "core/model/urls.h"

namespace paretoscope {

namespace {

using nlohmann::json;

json statsJson(const LatencyStats& s)
{
    json j = json::object();
    auto put = [&](const char* k, const std::optional<double>& v) { j[k] = v ? json(*v) : json(nullptr); };
    put("mean", s.mean);
    put("median", s.median);
    put("p90", s.p90);
    put("p99", s.p99);
    put("p99.9", s.p999);
    return j;
}

json opt(const std::optional<double>& v)
{
    return v ? json(*v) : json(nullptr);
}

std::string utcNow()
{
    std::time_t t = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

json validityList(const std::string& flags)
{
    json out = json::array();
    for (std::size_t at = 0; at < flags.size();) {
        std::size_t comma = std::min(flags.find(',', at), flags.size());
        out.push_back(flags.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

} // namespace

RunRecord levelRecord(const SessionConfig& c, const std::string& simulation, const std::string& workloadName,
    int concurrency, const LevelMetrics& m, const LevelTelemetry& t, long long sessionId)
{
    RunRecord r;
    r.model = c.model;
    r.hardware = simulation.empty() ? c.hardware : simulation;
    r.engine = simulation.empty() ? c.engine : "engine-sim";
    r.precision = c.precision;
    r.tp = c.tp;
    r.ep = c.ep;
    r.dpAttention = c.dpAttention;
    r.pp = 1;
    r.gpus = c.gpus;
    r.isl = c.workload == "agentic" ? 0 : c.isl;
    r.osl = c.workload == "agentic" ? c.agentic.outputTokens : c.osl;
    r.workload = workloadName;
    r.concurrency = concurrency;
    r.runDate = utcNow();
    double gpus = std::max(1, c.gpus);
    if (m.duration > 0) {
        r.tputPerGpu = m.totalThroughput / gpus;
        r.outputTputPerGpu = m.outputThroughput / gpus;
        r.inputTputPerGpu = (m.totalThroughput - m.outputThroughput) / gpus;
    }
    if (m.tpot.median && *m.tpot.median > 0)
        r.interactivity = 1.0 / *m.tpot.median;
    r.ttft = m.ttft;
    r.tpot = m.tpot;
    r.itl = m.itl;
    r.e2el = m.e2el;
    r.avgPowerW = t.avgPowerW;
    r.completed = m.completed;
    r.failed = m.failed;
    r.marked = levelMark(m);
    r.provenance.source = "session:" + std::to_string(sessionId);
    r.provenance.format = "live-session";
    r.provenance.note = simulation.empty()
        ? "live session " + std::to_string(sessionId) + " ("
            + (c.recipe.empty() ? redactUrl(c.endpoint) : "recipe " + c.recipe) + ")"
        : "SIMULATION by paretoscope-engine-sim (" + simulation + "), session " + std::to_string(sessionId);
    return r;
}

std::string levelJson(int level, int concurrency, const LevelMetrics& m, const LevelTelemetry& t, const RunRecord& r,
    const std::string& reason, std::optional<double> clientCpuShare)
{
    json errors = json::object();
    for (const auto& [message, count] : m.errors)
        errors[message] = count;
    json j = { { "level", level }, { "concurrency", concurrency }, { "hardware", r.hardware }, { "engine", r.engine },
        { "completed", m.completed }, { "failed", m.failed }, { "duration_s", m.duration },
        { "total_input_tokens", m.totalInput }, { "total_output_tokens", m.totalOutput },
        { "request_throughput", m.requestThroughput }, { "output_throughput", m.outputThroughput },
        { "total_token_throughput", m.totalThroughput }, { "tput_per_gpu", opt(r.tputPerGpu) },
        { "output_tput_per_gpu", opt(r.outputTputPerGpu) }, { "interactivity", opt(r.interactivity) },
        { "goodput", opt(m.goodput) }, { "ttft_s", statsJson(m.ttft) }, { "tpot_s", statsJson(m.tpot) },
        { "itl_s", statsJson(m.itl) }, { "e2el_s", statsJson(m.e2el) }, { "client_wait_s", statsJson(m.clientWait) },
        { "prompt_mismatches", m.promptMismatches }, { "errors", errors }, { "avg_power_w", opt(t.avgPowerW) },
        { "energy_j", opt(t.energyJ) },
        { "joules_per_token",
            t.energyJ && m.totalOutput > 0 ? json(*t.energyJ / static_cast<double>(m.totalOutput)) : json(nullptr) },
        { "avg_sm_clock_mhz", opt(t.avgSmClockMhz) }, { "avg_utilization_pct", opt(t.avgUtilization) },
        { "max_memory_used_gib", opt(t.maxMemoryUsedGiB) }, { "telemetry_samples", t.samples },
        { "marked", r.marked.empty() ? json(nullptr) : json(r.marked) },
        { "effective_concurrency", m.effectiveConcurrency }, { "validity", validityList(r.validity) } };
    if (!reason.empty())
        j["chosen_because"] = reason;
    j["client_cpu_share"] = opt(clientCpuShare);
    j["telemetry_coverage"] = opt(t.coverage);
    if (!t.engineMetricsJson.empty())
        j["engine_metrics"] = json::parse(t.engineMetricsJson, nullptr, false);
    if (r.provenance.note.starts_with("SIMULATION"))
        j["simulation"] = true;
    return jsonText(j);
}

} // namespace paretoscope
