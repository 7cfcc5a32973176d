#pragma once

#include <optional>
#include <string>

#include "core/live/recipesession.h"
#include "core/live/sessionconfig.h"

namespace paretoscope {

/// A live session as the user chose it in any front end (the CLI's bench options, the explorer's session dialog).
/// Names as typed; a count not given is empty.
struct SessionChoices {
    /// The workload, levels and limits as given (model, endpoint, workload, isl, osl, agentic, concurrencies, request
    /// rate, prompts, warm-ups, chat, SLOs, timeouts); hardware, engine and precision as typed.
    SessionConfig config;
    std::optional<int> gpus;
    std::optional<int> tp;
    std::optional<int> ep;
    std::optional<RecipeLaunch> launch; ///< a session on an engine launched from this recipe, not config.endpoint
    /// Each concurrency level is run this many times in a row, each stored as a run of the same configuration: the
    /// spread of reruns (docs/architecture.md section 10.3). The configuration's list holds every repeat.
    int repeats = 1;
};

/// A session ready to run: its checked configuration and the recipe to launch for it, if any.
struct SessionPlan {
    SessionConfig config;
    std::optional<RecipeLaunch> launch;
};

/// The one set-up rule of every front end: hardware, engine and precision normalised (normalizedKey; no precision:
/// FP4), an endpoint checked (http(s) with a host), an agentic workload's turn and answer lengths from isl and osl;
/// with a recipe, its engine, hardware, precision, model, tp and ep (a tp or ep given becomes its parameter) and
/// config.dpAttention applied to its launch (refused by a recipe without dp_attention_args, and below tp 2); the GPU
/// count and tp (each defaults to the other, see the .cpp); each concurrency repeated `repeats` times; then
/// validateSessionConfig. The error says what to fix.
Result<SessionPlan> buildSession(SessionChoices choices);

/// Runs a planned session, inside the launched recipe's engine where there is one: the one entry point of the CLI's
/// bench and the explorer's session controller.
Result<SessionOutcome> runPlannedSession(RunStore& store, const SessionPlan& plan, const std::string& apiKey,
    const SessionEvents& events = {}, LevelSampler* sampler = nullptr);

} // namespace paretoscope
