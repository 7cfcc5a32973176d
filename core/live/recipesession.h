#pragma once

#include <map>
#include <string>

#include "core/live/recipe.h"
#include "core/live/sweep.h"

namespace paretoscope {

/// A session whose engine Paretoscope launches from a recipe.
struct RecipeLaunch {
    Recipe recipe;
    std::map<std::string, std::string> parameters; ///< model, tp, ep, max_seqs, kv_cache_dtype, port, ...
    bool confirmedCustom = false;
    std::string logPath; ///< where the engine's output goes
    double graceSeconds = 10;
};

/// Starts the engine, waits until it is healthy (reporting the wait through events.note and cancelling through
/// events.progress), runs the session against it and stops it at the end, on cancel and on failure. The engine
/// dying mid-level fails the session with the finished levels kept and the log tail in the reason.
Result<SessionOutcome> runRecipeSession(RunStore& store, SessionConfig config, const RecipeLaunch& launch,
    const std::string& apiKey, const SessionEvents& events = {}, LevelSampler* sampler = nullptr);

/// The configuration a recipe implies: engine, hardware, precision, model, tp, ep, gpus (= tp, unless the config
/// already has a multiple of tp) and its endpoint. The config's dpAttention is the launch's: the engine gets the
/// recipe's dp_attention_args (refused by a recipe that has none), on the same tp GPUs.
Result<SessionConfig> configForRecipe(SessionConfig config, const RecipeLaunch& launch);

} // namespace paretoscope
