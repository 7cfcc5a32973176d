#include "core/live/sweep.h"

#include <chrono>
#include <ctime>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/import/httpfetch.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionstore.h"
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

constexpr int kModelListTries = 3; // as the other preflight requests (runSession)

struct ServedModels {
    std::vector<std::string> ids;
    std::string simulation;
};

Result<ServedModels> servedModels(const std::string& base, const std::string& apiKey)
{
    HttpOptions o;
    o.connectTimeoutMs = 5000;
    o.totalTimeoutMs = 20000;
    o.maxBytes = 4u << 20;
    o.tries = kModelListTries;
    if (!apiKey.empty())
        o.headers.push_back("Authorization: Bearer " + apiKey);
    auto body = httpGet(base + "/v1/models", o);
    if (!body)
        return Error { body.error() };
    json j = json::parse(*body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("data") || !j["data"].is_array())
        return Error { base + "/v1/models: not an OpenAI model list" };
    ServedModels m;
    for (const json& d : j["data"]) {
        if (!d.is_object() || !d.contains("id") || !d["id"].is_string())
            continue;
        m.ids.push_back(d["id"].get<std::string>());
        if (d.value("owned_by", "") == "paretoscope-engine-sim") {
            std::string label = d.contains("simulation") && d["simulation"].is_string() ? d["simulation"].get<std::string>() : "";
            m.simulation = label.empty() || label == "fixed" ? "sim-fixed" : label;
        }
    }
    if (m.ids.empty())
        return Error { base + "/v1/models: the server lists no model" };
    return m;
}

std::unique_ptr<Workload> makeWorkload(const SessionConfig& c)
{
    RequestShape shape { c.model, c.chat, c.prompt };
    if (c.workload == "agentic")
        return std::make_unique<AgenticWorkload>(shape, c.agentic);
    return std::make_unique<RandomWorkload>(shape, c.isl, c.osl);
}

} // namespace

std::string sessionWorkloadName(const SessionConfig& config)
{
    return makeWorkload(config)->name();
}

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

std::string levelJson(int level, int concurrency, const LevelMetrics& m, const LevelTelemetry& t, const RunRecord& r)
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
        { "marked", r.marked.empty() ? json(nullptr) : json(r.marked) } };
    if (!t.engineMetricsJson.empty())
        j["engine_metrics"] = json::parse(t.engineMetricsJson, nullptr, false);
    if (r.provenance.note.starts_with("SIMULATION"))
        j["simulation"] = true;
    return j.dump();
}

namespace {

// Preflight requests are tried three times: a server that is still starting, overloaded (429) or briefly failing
// (5xx) often answers the next try, and a whole sweep should not be lost to one refused request.
constexpr int kPreflightTries = 3;

bool transientProbeFailure(const RequestLog& log)
{
    return transientHttpStatus(log.httpStatus) || log.error.starts_with("cannot connect")
        || log.error.starts_with("connection closed");
}

// One short request shows whether the server takes token-id prompts; one that refuses them (HTTP 400 or 422) gets
// text. Returns why the session cannot go on, if it cannot.
std::optional<std::string> choosePromptKind(
    const Endpoint& endpoint, SessionConfig& config, const std::function<void(const std::string&)>& note)
{
    if (config.chat || config.prompt != PromptKind::TokenIds)
        return std::nullopt;
    RandomWorkload probe({ config.model, false, PromptKind::TokenIds }, 8, 2, 1.0);
    LevelOptions o;
    o.prompts = 1;
    o.warmups = 0;
    o.requestTimeout = std::min(config.requestTimeout, 120.0);
    RequestLog log;
    for (int attempt = 1;; ++attempt) {
        auto r = runLevel(endpoint, probe, o);
        if (!r)
            return r.error();
        log = r->requests.front();
        if (log.ok() || !transientProbeFailure(log) || attempt >= kPreflightTries)
            break;
        note("a test request failed (" + log.error + "); trying again");
        std::this_thread::sleep_for(std::chrono::milliseconds(500 << (attempt - 1)));
    }
    if (!log.ok() && (log.httpStatus == 400 || log.httpStatus == 422)) {
        config.prompt = PromptKind::Text;
        note("the server refused token-id prompts (" + log.error + "); sending text, counted by the server");
    } else if (!log.ok()) {
        return "a test request failed" + std::string(transientProbeFailure(log) ? " 3 times" : "") + ": " + log.error;
    }
    return std::nullopt;
}

// The options of the level at `level` in the configuration's list.
LevelOptions levelOptions(const SessionConfig& config, int level)
{
    LevelOptions o;
    o.concurrency = config.concurrencies[static_cast<std::size_t>(level)];
    o.requestRate = config.requestRate;
    o.prompts = config.promptsPerLevel;
    o.warmups = config.warmups;
    o.requestTimeout = config.requestTimeout;
    o.stallTimeout = config.stallTimeout;
    o.seed = 1000 + static_cast<unsigned long long>(level);
    return o;
}

// The most frequent error of a level in which every request failed.
std::string mostFrequentError(const LevelMetrics& m)
{
    std::string top = m.errors.empty() ? "no requests" : m.errors.begin()->first;
    for (const auto& [message, count] : m.errors)
        if (count > m.errors.at(top))
            top = message;
    return top;
}

// A level's requests and telemetry, or how the session ends in it (the engine gone, cancelled, an error).
struct MeasuredLevel {
    std::optional<LevelResult> result;
    LevelTelemetry telemetry;
    std::string endStatus; ///< "failed" or "cancelled" when the session ends here; empty when it goes on
    std::string endReason;
};

MeasuredLevel measureLevel(const Endpoint& endpoint, Workload& workload, const SessionConfig& config, int level,
    const SessionEvents& events, const SessionHooks& hooks)
{
    const int c = config.concurrencies[static_cast<std::size_t>(level)];
    const std::string which = "level " + std::to_string(level + 1);
    std::optional<std::string> engineGone;
    bool userCancelled = false;
    if (hooks.sampler)
        hooks.sampler->begin();
    auto result = runLevel(endpoint, workload, levelOptions(config, level), [&](const LevelProgress& p) {
        if (hooks.engineFailure && (engineGone = hooks.engineFailure()))
            return false;
        if (events.progress && !events.progress(level, c, p)) {
            userCancelled = true;
            return false;
        }
        return true;
    });
    MeasuredLevel out;
    out.telemetry = hooks.sampler ? hooks.sampler->end() : LevelTelemetry {};
    if (!result)
        return { {}, {}, "failed", which + ": " + result.error() };
    if (!engineGone && hooks.engineFailure)
        engineGone = hooks.engineFailure();
    if (engineGone)
        return { {}, {}, "failed",
            "the engine stopped during " + which + " (concurrency " + std::to_string(c) + "): " + *engineGone };
    if (result->cancelled || userCancelled)
        return { {}, {}, "cancelled", "cancelled during " + which + "; finished levels kept" };
    out.result = std::move(*result);
    return out;
}

// Records how a session ended; a store that cannot take it keeps it in the session's own file.
SessionOutcome endSession(RunStore& store, SessionOutcome& out, const std::string& status, const std::string& reason,
    const std::function<void(const std::string&)>& note)
{
    out.status = status;
    out.reason = reason;
    if (auto st = finishSession(store, out.sessionId, status, reason); !st) {
        auto kept = sessionjournal::keepEnd(store.path(), out.sessionId, status, reason);
        note("the store could not record how session " + std::to_string(out.sessionId) + " ended (" + st.error() + ")"
            + (kept ? "; kept in " + *kept + " for `paretoscope-cli sessions --recover`" : ""));
    }
    return out;
}

// Stores a measured level whatever else writes to the store (the write waits its turn); a store that cannot take it
// (a full disk, a damaged file) does not lose it: it goes to the session's own file. False when not stored.
bool storeOrKeep(RunStore& store, long long sessionId, LevelOutcome& lo, const std::vector<RequestLog>& requests,
    const std::function<void(const std::string&)>& note)
{
    auto run = storeLevel(store, sessionId, lo.level, lo.concurrency, lo.record, lo.json, requests);
    if (run) {
        lo.runId = *run;
        return true;
    }
    lo.storeError = run.error();
    auto kept
        = sessionjournal::keepLevel(store.path(), sessionId, lo.level, lo.concurrency, lo.record, lo.json, requests);
    if (kept)
        lo.keptIn = *kept;
    note("level " + std::to_string(lo.level + 1) + " was measured but not stored: " + run.error()
        + (kept ? "; kept in " + *kept + " until `paretoscope-cli sessions --recover` stores it"
                : "; and it could not be kept in the session's own file: " + kept.error()));
    return false;
}

} // namespace

Result<SessionOutcome> runSession(RunStore& store, SessionConfig config, const std::string& apiKey,
    const SessionEvents& events, const SessionHooks& hooks)
{
    auto note = [&](const std::string& s) {
        if (events.note)
            events.note(s);
    };
    if (auto st = validateSessionConfig(config); !st)
        return Error { st.error() };
    auto base = normalizeEndpointUrl(config.endpoint);
    if (!base)
        return Error { base.error() };
    config.endpoint = *base;

    // the session is recorded from here on: whatever fails now is stored as its reason
    SessionOutcome out;
    auto id = createSession(store, config, "");
    if (!id)
        return Error { id.error() };
    out.sessionId = *id;
    auto end = [&](const std::string& status, const std::string& reason) -> Result<SessionOutcome> {
        return endSession(store, out, status, reason, note);
    };

    auto served = servedModels(config.endpoint, apiKey);
    if (!served)
        return end("failed", "the endpoint does not answer as an OpenAI-compatible server: " + served.error());
    config.model = config.model.empty() ? served->ids.front() : config.model;
    if (std::find(served->ids.begin(), served->ids.end(), config.model) == served->ids.end())
        return end("failed", redactUrl(config.endpoint) + " serves " + served->ids.front() + ", not " + config.model);
    if (!served->simulation.empty())
        note("the endpoint is paretoscope-engine-sim (" + served->simulation + "): results are labelled a simulation");
    out.simulation = served->simulation;
    Endpoint endpoint { config.endpoint, apiKey, config.chat };

    if (auto failed = choosePromptKind(endpoint, config, note))
        return end("failed", *failed);
    if (auto st = updateSession(store, out.sessionId, config, served->simulation); !st)
        return end("failed", st.error());

    auto workload = makeWorkload(config);
    note("session " + std::to_string(out.sessionId) + ": " + std::to_string(config.concurrencies.size()) + " levels of "
        + workload->name());

    int unstored = 0;
    for (std::size_t i = 0; i < config.concurrencies.size(); ++i) {
        int level = static_cast<int>(i);
        int c = config.concurrencies[i];
        note("level " + std::to_string(level + 1) + " of " + std::to_string(config.concurrencies.size())
            + ": concurrency " + std::to_string(c));
        MeasuredLevel measured = measureLevel(endpoint, *workload, config, level, events, hooks);
        if (!measured.endStatus.empty())
            return end(measured.endStatus, measured.endReason);
        const LevelTelemetry& telemetry = measured.telemetry;
        const auto& result = measured.result;
        LevelMetrics m = computeLevelMetrics(result->requests, config.slo);
        if (m.completed == 0)
            return end("failed",
                "level " + std::to_string(level + 1) + " (concurrency " + std::to_string(c)
                    + "): every request failed, most often: " + mostFrequentError(m));
        LevelOutcome lo;
        lo.level = level;
        lo.concurrency = c;
        lo.metrics = m;
        lo.telemetry = telemetry;
        lo.record = levelRecord(config, served->simulation, workload->name(), c, m, telemetry, out.sessionId);
        lo.json = levelJson(level, c, m, telemetry, lo.record);
        if (!lo.record.marked.empty())
            note("level " + std::to_string(level + 1) + " is marked as not trusted: " + lo.record.marked);
        if (!storeOrKeep(store, out.sessionId, lo, result->requests, note))
            ++unstored;
        if (events.levelStored)
            events.levelStored(lo);
        out.levels.push_back(std::move(lo));
    }
    if (unstored > 0)
        return end("finished",
            std::to_string(unstored)
                + " level(s) measured but not stored; `paretoscope-cli sessions --recover` "
                  "stores them from the session's own file");
    return end("finished", "");
}

} // namespace paretoscope
