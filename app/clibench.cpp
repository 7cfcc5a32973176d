#include "clibench.h"

#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>

#include "app/clicluster.h"
#include "app/clicommon.h"
#include "core/analysis/viewoptions.h"
#include "core/live/recipesession.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionsetup.h"
#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "core/live/telemetrysampler.h"
#include "core/model/outsidefile.h"
#include "core/model/urls.h"

namespace paretoscope::cli {

namespace {

std::atomic<bool> g_benchInterrupted { false };

void onBenchInterrupt(int)
{
    g_benchInterrupted = true;
}

bool positiveDouble(
    const Args& a, const std::string& name, std::optional<double>& out, double scale, std::string& error)
{
    auto v = a.value(name);
    if (!v)
        return true;
    auto d = parseDouble(*v);
    if (!d || *d <= 0) {
        error = "--" + name + " must be a number above zero, got '" + *v + "'";
        return false;
    }
    out = *d * scale;
    return true;
}

std::string sbatchScript(const Args& a, int argc, char** argv, const SessionConfig& c, const std::string& workloadName)
{
    std::string command = "\"$PARETOSCOPE_CLI\"";
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--emit-sbatch" || arg == "--db") {
            ++i; // and its value
            continue;
        }
        if (arg.starts_with("--emit-sbatch=") || arg.starts_with("--db="))
            continue;
        command += " " + shellQuote(arg);
    }
    std::string scope = c.workload == "agentic" ? "--workload " + shellQuote(workloadName)
                                                : "--isl " + std::to_string(c.isl) + " --osl " + std::to_string(c.osl);
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    // the job's name goes on an #SBATCH line: letters, digits and _.- only, anything else as '-'
    std::string name = a.value("recipe").value_or("endpoint");
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '-')
            ch = '-';
    std::string s;
    s += "#!/bin/bash\n";
    s += "# Written by paretoscope-cli bench --emit-sbatch on " + std::string(date) + ".\n";
    s += "# Runs the same live session headless on one cluster node, then leaves $RESULTS.sqlite (the store) and\n";
    s += "# $RESULTS.json (Paretoscope's own format: paretoscope-cli import $RESULTS.json, or drop it on the "
         "explorer).\n";
    s += "# An API key, if the endpoint needs one, is read from the environment on the node; it is not in this file.\n";
    s += "#SBATCH --job-name=paretoscope-" + name + "\n";
    s += "#SBATCH --nodes=1\n";
    s += "#SBATCH --gpus-per-node=" + std::to_string(std::max(1, c.gpus)) + "\n";
    s += "#SBATCH --exclusive\n";
    s += "#SBATCH --time=04:00:00\n";
    s += "#SBATCH --output=paretoscope-bench-%j.log\n";
    s += "set -euo pipefail\n";
    s += "PARETOSCOPE_CLI=\"${PARETOSCOPE_CLI:-paretoscope-cli}\"\n";
    s += "RESULTS=\"${RESULTS:-$PWD/paretoscope-bench-${SLURM_JOB_ID:-local}}\"\n";
    s += command + " --db \"$RESULTS.sqlite\"\n";
    s += "\"$PARETOSCOPE_CLI\" export --db \"$RESULTS.sqlite\" --model " + shellQuote(c.model) + " " + scope
        + " --format json > \"$RESULTS.json\"\n";
    s += "echo \"results: $RESULTS.json\"\n";
    return s;
}

} // namespace

std::map<std::string, bool> benchOptions()
{
    return { { "db", true }, { "recipe", true }, { "recipe-file", true }, { "confirm-custom-command", false },
        { "endpoint", true }, { "model", true }, { "isl", true }, { "osl", true }, { "concurrency", true },
        { "prompts-per-level", true }, { "warmups", true }, { "hardware", true }, { "gpus", true }, { "engine", true },
        { "precision", true }, { "tp", true }, { "ep", true }, { "format", true }, { "emit-sbatch", true },
        { "workload", true }, { "request-rate", true }, { "chat", false }, { "slo-ttft-ms", true },
        { "slo-tpot-ms", true }, { "slo-e2el-ms", true }, { "request-timeout", true }, { "stall-timeout", true },
        { "api-key-env", true }, { "port", true }, { "max-seqs", true }, { "kv-cache-dtype", true },
        { "devices", true }, { "max-model-len", true }, { "engine-log", true }, { "turns", true },
        { "prefix-tokens", true }, { "think-s", true }, { "print-config", false }, { "repeats", true },
        { "profile", true }, { "matrix", true }, { "submit", false }, { "targets", true }, { "max-levels", true },
        { "client-threads", true }, { "dp-attention", false } };
}

namespace {

// --recipe NAME (bundled, or from --recipe-file) with the engine's parameters given on the command line.
bool recipeFromArgs(const Args& a, RecipeLaunch& launch, std::string& error)
{
    const std::string name = *a.value("recipe");
    Result<Recipe> recipe = Error { "no recipe named " + name };
    if (auto file = a.value("recipe-file")) {
        auto text = readRegularFile(*file, limits::kSmallJson);
        if (!text) {
            error = text.error();
            return false;
        }
        auto list = parseRecipes(*text, *file, true);
        if (!list) {
            error = list.error();
            return false;
        }
        recipe = Error { "no recipe named " + name + " in " + *file };
        for (const Recipe& r : *list)
            if (r.name == name)
                recipe = r;
    } else {
        recipe = bundledRecipe(name);
    }
    if (!recipe) {
        error = recipe.error();
        return false;
    }
    launch.recipe = *recipe;
    launch.confirmedCustom = a.has("confirm-custom-command");
    // tp and ep go through SessionChoices; the model both labels the runs and is the recipe's parameter
    const std::pair<const char*, const char*> params[] = { { "model", "model" }, { "max-seqs", "max_seqs" },
        { "kv-cache-dtype", "kv_cache_dtype" }, { "port", "port" }, { "devices", "devices" },
        { "max-model-len", "max_model_len" }, { "profile", "profile" } };
    for (auto [option, key] : params)
        if (auto v = a.value(option))
            launch.parameters[key] = *v;
    launch.logPath = a.value("engine-log").value_or("paretoscope-engine-" + recipe->name + ".log");
    return true;
}

bool limitsFromArgs(const Args& a, SessionConfig& c, std::string& error);

// --concurrency auto with its --targets (tok/s/user) and --max-levels.
bool adaptiveFromArgs(const Args& a, SessionConfig& c, std::string& error)
{
    c.concurrencyAuto = true;
    for (const std::string& v : a.list("targets")) {
        auto t = parseDouble(v);
        if (!t || *t <= 0) {
            error = "--targets takes numbers above zero (tok/s/user), e.g. 30,50,100 (got '" + v + "')";
            return false;
        }
        c.targets.push_back(*t);
    }
    if (!intOption(a, "max-levels", c.maxLevels, error))
        return false;
    if (c.maxLevels < 1) {
        error = "--max-levels must be 1 or more";
        return false;
    }
    return true;
}

// The numbers of the workload, levels and limits: whole numbers, lists and durations as the options give them.
bool workloadFromArgs(const Args& a, SessionConfig& c, std::string& error)
{
    if (!intOption(a, "isl", c.isl, error) || !intOption(a, "osl", c.osl, error)
        || !intOption(a, "prompts-per-level", c.promptsPerLevel, error)
        || !intOption(a, "turns", c.agentic.turns, error))
        return false;
    for (auto [name, into] : { std::pair { "warmups", &c.warmups }, { "prefix-tokens", &c.agentic.prefixTokens } }) {
        auto v = a.value(name);
        if (!v)
            continue;
        auto n = parseInt(*v);
        if (!n || *n < 0) {
            error = std::string("--") + name + " must be a whole number, 0 or more, got '" + *v + "'";
            return false;
        }
        *into = *n;
    }
    if (!a.has("isl") || !a.has("osl")) {
        error = "--isl and --osl are required (for --workload agentic: new tokens per turn and answer length)";
        return false;
    }
    c.concurrencies.clear();
    std::string given;
    for (const std::string& v : a.list("concurrency"))
        given += (given.empty() ? "" : ",") + v;
    if (given.empty()) {
        error = "--concurrency is required, e.g. --concurrency 1,4,16,64 (or auto)";
        return false;
    }
    auto list = parseConcurrencyList(given); // core's rule, the dialog's too
    if (!list) {
        error = "--concurrency: " + list.error();
        return false;
    }
    if (list->automatic)
        return adaptiveFromArgs(a, c, error) && limitsFromArgs(a, c, error);
    if (a.has("targets") || a.has("max-levels")) {
        error = "--targets and --max-levels go with --concurrency auto";
        return false;
    }
    c.concurrencies = list->levels;
    return limitsFromArgs(a, c, error);
}

// The request rate, SLOs, timeouts and think time.
bool limitsFromArgs(const Args& a, SessionConfig& c, std::string& error)
{
    std::optional<double> rate, ttft, tpot, e2el, timeout, stall, think;
    if (!positiveDouble(a, "request-rate", rate, 1, error) || !positiveDouble(a, "slo-ttft-ms", ttft, 1e-3, error)
        || !positiveDouble(a, "slo-tpot-ms", tpot, 1e-3, error) || !positiveDouble(a, "slo-e2el-ms", e2el, 1e-3, error)
        || !positiveDouble(a, "request-timeout", timeout, 1, error)
        || !positiveDouble(a, "stall-timeout", stall, 1, error) || !positiveDouble(a, "think-s", think, 1, error))
        return false;
    c.requestRate = rate;
    c.slo = { ttft, tpot, e2el };
    c.requestTimeout = timeout.value_or(c.requestTimeout);
    c.stallTimeout = stall.value_or(c.stallTimeout);
    c.agentic.meanThinkSeconds = think.value_or(c.agentic.meanThinkSeconds);
    if (!intOption(a, "client-threads", c.clientThreads, error))
        return false;
    if (a.has("client-threads") && (c.clientThreads < 1 || c.clientThreads > 1024)) {
        error = "--client-threads takes 1 to 1024 (left out: one per 256 streams, up to the hardware threads)";
        return false;
    }
    return true;
}

// The user's choices as the options give them; core's buildSession makes the configuration of them.
std::optional<SessionChoices> choicesFromArgs(const Args& a, std::string& error)
{
    SessionChoices ch;
    SessionConfig& c = ch.config;
    c.model = a.value("model").value_or("");
    c.endpoint = a.value("endpoint").value_or("");
    c.hardware = a.value("hardware").value_or("");
    c.engine = a.value("engine").value_or("");
    c.precision = a.value("precision").value_or("");
    c.workload = a.value("workload").value_or("random");
    c.chat = a.has("chat");
    c.dpAttention = a.has("dp-attention");
    if (!workloadFromArgs(a, c, error))
        return std::nullopt;
    if (!intOption(a, "repeats", ch.repeats, error))
        return std::nullopt;
    for (auto [name, into] : { std::pair { "gpus", &ch.gpus }, { "tp", &ch.tp }, { "ep", &ch.ep } }) {
        int n = 0;
        if (!intOption(a, name, n, error))
            return std::nullopt;
        if (a.has(name))
            *into = n;
    }
    if (a.has("recipe")) {
        ch.launch.emplace();
        if (!recipeFromArgs(a, *ch.launch, error))
            return std::nullopt;
    } else if (c.hardware.empty() || c.engine.empty()) {
        error = "an --endpoint session needs --hardware and --engine (and --gpus when not 1) to label its runs";
        return std::nullopt;
    }
    return ch;
}

// --emit-sbatch FILE: the same session as a Slurm script, not run here.
int emitSbatch(const Invocation& in, const SessionConfig& c, const std::string& file)
{
    // the script is a file to share and a job log to keep: a secret in the endpoint would be written into both
    if (!c.endpoint.empty() && redactUrl(c.endpoint) != c.endpoint)
        return usageError("--emit-sbatch writes the command into a script and its job log, and the endpoint carries "
                          "credentials (a user, a password or a token in the URL); give the API key through the "
                          "environment on the node (--api-key-env) instead");
    RequestShape shape { c.model, c.chat, c.prompt };
    std::string workloadName = c.workload == "agentic" ? AgenticWorkload(shape, c.agentic).name()
                                                       : RandomWorkload(shape, c.isl, c.osl).name();
    // written whole under a temporary name and renamed: a link planted at FILE is replaced, never followed
    if (auto st = replaceFile(file, sbatchScript(in.args, in.argc, in.argv, c, workloadName), 0755); !st) {
        std::cerr << "paretoscope-cli: " << st.error() << "\n";
        return 1;
    }
    std::cerr << "paretoscope-cli: wrote " << file << " (submit it with sbatch)\n";
    return 0;
}

// Runs the session here, a JSON line per stored level; Ctrl-C ends it with the finished levels kept.
int runBench(const Invocation& in, const SessionPlan& plan)
{
    auto store = in.store();
    if (!store)
        return 1;
    std::string keyVar = in.args.value("api-key-env").value_or("OPENAI_API_KEY");
    const char* key = std::getenv(keyVar.c_str());
    std::signal(SIGINT, onBenchInterrupt);
    std::signal(SIGTERM, onBenchInterrupt);
    SessionEvents events;
    events.note = [](const std::string& s) { std::cerr << "paretoscope-cli: " << s << "\n"; };
    events.progress = [](int, int, const LevelProgress&) { return !g_benchInterrupted.load(); };
    events.levelStored = [](const LevelOutcome& lo) { std::cout << lo.json << std::endl; };
    DeviceDiscovery discovery = discoverDevices();
    std::string samplerNote;
    auto sampler = makeSessionSampler(
        discovery, plan.config, in.args.value("devices").value_or(""), key ? key : "", samplerNote);
    events.note(samplerNote);
    auto outcome = runPlannedSession(*store, plan, key ? key : "", events, sampler.get());
    if (!outcome) {
        std::cerr << "paretoscope-cli: " << outcome.error() << "\n";
        return 1;
    }
    std::size_t stored = 0;
    for (const LevelOutcome& lo : outcome->levels)
        stored += lo.runId != 0;
    std::cerr << "paretoscope-cli: session " << outcome->sessionId << " " << outcome->status << ", " << stored
              << " level(s) stored" << (outcome->reason.empty() ? "" : ": " + outcome->reason) << "\n";
    return outcome->status == "finished" && stored == outcome->levels.size() ? 0 : 1;
}

} // namespace

int cmdBench(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "json" }, format, error))
        return usageError(error);
    if (a.has("matrix"))
        return cmdBenchMatrix(in);
    if (a.has("submit"))
        return usageError("--submit goes with --matrix FILE --emit-sbatch DIR");
    if (a.has("recipe") == a.has("endpoint"))
        return usageError("bench needs exactly one of --recipe NAME or --endpoint URL");
    auto choices = choicesFromArgs(a, error);
    if (!choices)
        return usageError(error);
    auto plan = buildSession(std::move(*choices));
    if (!plan)
        return usageError(plan.error());
    if (a.has("print-config")) {
        std::cout << sessionConfigJson(plan->config) << "\n";
        return 0;
    }
    if (auto file = a.value("emit-sbatch"))
        return emitSbatch(in, plan->config, *file);
    return runBench(in, *plan);
}

int cmdSessions(const Invocation& in)
{
    const Args& a = in.args;
    std::string error, format;
    if (!formatOption(a, { "table", "json" }, format, error))
        return usageError(error);
    const bool recover = a.has("recover");
    auto store = in.store(); // written only with --recover (the command table)
    if (!store)
        return 1;
    if (recover) {
        markInterruptedSessions(*store);
        bool allStored = true;
        const auto recovered = sessionjournal::recover(*store);
        for (const sessionjournal::Recovered& r : recovered) {
            std::cout << "session " << r.sessionId << ": " << r.levelsStored << " level(s) stored from " << r.file;
            if (r.levelsAlready > 0)
                std::cout << " (" << r.levelsAlready << " already in the store)";
            if (r.endRecorded)
                std::cout << ", its end recorded";
            std::cout << (r.error.empty() ? "; the file is removed" : "; the file stays: " + r.error) << "\n";
            allStored = allStored && r.error.empty();
        }
        if (recovered.empty())
            std::cout << "no session files wait to be stored (" << sessionjournal::directory(store->path()) << ")\n";
        return allStored ? 0 : 1;
    }
    const auto list = sessions(*store);
    if (readFailed(*store))
        return 1;
    if (const int pending = sessionjournal::pendingLevels(store->path()); pending > 0)
        std::cerr << "paretoscope-cli: " << pending << " measured level(s) wait in "
                  << sessionjournal::directory(store->path())
                  << " to be stored: run `paretoscope-cli sessions --recover`\n";
    for (const SessionInfo& s : list) {
        if (format == "json") {
            std::cout << "{\"session\":" << s.id << ",\"status\":\"" << s.status << "\",\"levels\":" << s.levels
                      << ",\"simulation\":" << (s.simulation.empty() ? "false" : "true") << "}\n";
        } else {
            std::cout << s.id << "\t" << s.status << "\t" << s.levels << " level(s)\t" << s.config.model << "\t"
                      << (s.simulation.empty() ? s.config.hardware : s.simulation + " (simulation)")
                      << (s.reason.empty() ? "" : "\t" + s.reason) << "\n";
        }
    }
    return 0;
}

} // namespace paretoscope::cli
