#include "core/live/recipesession.h"

#include "core/live/enginelauncher.h"
#include "core/live/sessionstore.h"

namespace paretoscope {

Result<SessionConfig> configForRecipe(SessionConfig config, const RecipeLaunch& launch)
{
    auto plan = renderRecipe(launch.recipe, launch.parameters, launch.confirmedCustom, config.dpAttention);
    if (!plan)
        return Error { plan.error() };
    std::map<std::string, std::string> values = launch.recipe.defaults;
    for (const auto& [k, v] : launch.parameters)
        values[k] = v;
    config.recipe = launch.recipe.name;
    config.endpoint = plan->baseUrl;
    config.engine = launch.recipe.engine;
    config.hardware = launch.recipe.hardware;
    config.precision = launch.recipe.precision;
    config.model = values["model"];
    config.tp = std::stoi(values["tp"]);
    config.ep = std::stoi(values["ep"]);
    // gpus = tp x pp: a count already set to a multiple of tp (a session given more GPUs) stays
    if (config.tp < 1 || config.gpus < config.tp || config.gpus % config.tp != 0)
        config.gpus = config.tp;
    return config;
}

Result<SessionOutcome> runRecipeSession(RunStore& store, SessionConfig config, const RecipeLaunch& launch,
    const std::string& apiKey, const SessionEvents& events, LevelSampler* sampler)
{
    auto configured = configForRecipe(std::move(config), launch);
    if (!configured)
        return Error { configured.error() };
    auto plan = renderRecipe(launch.recipe, launch.parameters, launch.confirmedCustom, configured->dpAttention);
    if (events.note) {
        std::string line = "starting";
        for (const std::string& a : plan->argv)
            line += " " + a;
        events.note(line);
    }
    // an engine that does not start or never answers ends a session before its first request: recorded as failed
    auto failedBeforeStart = [&](const std::string& reason) -> Result<SessionOutcome> {
        auto id = createSession(store, *configured, "");
        if (!id)
            return Error { reason + " (and the store could not record the session: " + id.error() + ")" };
        SessionOutcome out;
        out.sessionId = *id;
        out.status = "failed";
        out.reason = reason;
        if (auto st = finishSession(store, *id, out.status, reason); !st)
            return Error { reason + " (and the store could not record it: " + st.error() + ")" };
        return out;
    };
    auto engine = EngineProcess::start(*plan, launch.logPath, launch.graceSeconds);
    if (!engine)
        return failedBeforeStart(engine.error());
    EngineProcess& e = **engine;
    LevelProgress waiting;
    auto healthy = e.waitHealthy([&](double elapsed) {
        waiting.elapsed = elapsed;
        return !events.progress || events.progress(-1, 0, waiting);
    });
    if (!healthy) {
        e.stop();
        return failedBeforeStart(healthy.error());
    }
    if (events.note)
        events.note(launch.recipe.name + " is up at " + plan->baseUrl + " (log: " + launch.logPath + ")");
    SessionHooks hooks;
    hooks.sampler = sampler;
    hooks.engineFailure = [&]() -> std::optional<std::string> {
        auto why = e.exitReason();
        if (!why)
            return std::nullopt;
        return *why + ". Log tail (" + launch.logPath + "):\n" + e.logTail(15);
    };
    auto outcome = runSession(store, *configured, apiKey, events, hooks);
    e.stop();
    return outcome;
}

} // namespace paretoscope
