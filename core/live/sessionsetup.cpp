#include "core/live/sessionsetup.h"

#include "core/live/loadgenerator.h"
#include "core/model/hardware.h"
#include "core/model/precision.h"

namespace paretoscope {

Result<SessionPlan> buildSession(SessionChoices choices)
{
    SessionPlan plan;
    SessionConfig& c = choices.config;
    c.hardware = normalizedKey(c.hardware);
    c.engine = normalizedKey(c.engine);
    c.precision = normalizedKey(c.precision);
    if (c.precision.empty())
        c.precision = std::string(kDefaultPrecision);
    if (c.workload.empty())
        c.workload = "random";
    if (c.workload == "agentic") { // isl and osl say a turn's new tokens and its answer's length
        c.agentic.turnTokens = c.isl;
        c.agentic.outputTokens = c.osl;
    }
    for (auto [count, name] : { std::pair { &choices.gpus, "GPUs" }, { &choices.tp, "tp" }, { &choices.ep, "ep" } })
        if (*count && **count < 1)
            return Error { std::string("the number of ") + name + " must be 1 or more" };
    // Decision (issue 17): a tp not given is the GPU count, and a GPU count not given is tp. A live session runs on
    // one node, where docs/architecture.md section 3 has gpus = tp x pp, and a server over N GPUs is most often one
    // tensor-parallel group (pp 1). The dialog always did so; the CLI stored tp 1 for --gpus 8. A server that
    // replicates (data parallel) or pipelines says --tp; the GPU count must then be a multiple of it.
    if (choices.launch) {
        RecipeLaunch& launch = *choices.launch;
        if (choices.tp)
            launch.parameters["tp"] = std::to_string(*choices.tp);
        if (choices.ep)
            launch.parameters["ep"] = std::to_string(*choices.ep);
        if (!c.model.empty() && !launch.parameters.count("model"))
            launch.parameters["model"] = c.model;
        auto configured = configForRecipe(c, launch); // its tp and gpus = tp
        if (!configured)
            return Error { configured.error() };
        c = *configured;
        if (choices.gpus)
            c.gpus = *choices.gpus;
    } else {
        auto url = normalizeEndpointUrl(c.endpoint);
        if (!url)
            return Error { url.error() };
        c.endpoint = *url;
        if (c.hardware.empty() || c.engine.empty())
            return Error { "name the hardware and the engine of the endpoint: they label the runs" };
        c.tp = choices.tp.value_or(choices.gpus.value_or(1));
        c.gpus = choices.gpus.value_or(c.tp);
        c.ep = choices.ep.value_or(1);
    }
    if (choices.repeats < 1)
        return Error { "the number of repeats must be 1 or more" };
    if (c.concurrencyAuto && choices.repeats > 1)
        return Error { "repeats need a list of concurrencies; an adaptive sweep (auto) chooses its own" };
    if (c.concurrencyAuto)
        c.concurrencies.clear();
    std::vector<int> levels;
    for (int concurrency : c.concurrencies)
        levels.insert(levels.end(), static_cast<std::size_t>(choices.repeats), concurrency);
    c.concurrencies = std::move(levels);
    if (c.tp < 1 || c.gpus % c.tp != 0)
        return Error { "the GPU count (" + std::to_string(c.gpus) + ") must be a multiple of tp ("
            + std::to_string(c.tp) + ")" };
    if (auto st = validateSessionConfig(c); !st)
        return Error { st.error() };
    plan.config = std::move(c);
    plan.launch = std::move(choices.launch);
    return plan;
}

Result<SessionOutcome> runPlannedSession(RunStore& store, const SessionPlan& plan, const std::string& apiKey,
    const SessionEvents& events, LevelSampler* sampler)
{
    if (plan.launch)
        return runRecipeSession(store, plan.config, *plan.launch, apiKey, events, sampler);
    SessionHooks hooks;
    hooks.sampler = sampler;
    return runSession(store, plan.config, apiKey, events, hooks);
}

} // namespace paretoscope
