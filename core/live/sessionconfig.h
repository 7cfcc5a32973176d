#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/live/levelmetrics.h"
#include "core/live/workload.h"
#include "core/model/result.h"

namespace paretoscope {

/// The highest concurrency a session takes, and the most levels one session measures.
constexpr int kMaxConcurrency = 1'000'000;
constexpr int kMaxLevels = 100'000;

/// The concurrency levels a session sweeps when none are given: the CLI's, the dialog's and a stored session's.
inline const std::vector<int> kDefaultConcurrencies { 1, 4, 16, 64 };

/// A concurrency list as a person gives it: "auto" (any case: the adaptive sweep), or whole numbers above zero up to
/// kMaxConcurrency separated by commas or spaces, at most kMaxLevels of them.
struct ConcurrencyList {
    bool automatic = false;
    std::vector<int> levels;
};
/// Reads "1,4,16,64", "1 4 16", "auto". Errors quote the part: "concurrency levels are whole numbers above zero, e.g.
/// 1,4,16,64, or auto (not 'x')".
Result<ConcurrencyList> parseConcurrencyList(std::string_view text);
/// "auto", or the levels joined by commas.
std::string concurrencyListText(const ConcurrencyList& list);

/// Everything a live session was set up with (docs/architecture.md section 9). Stored with the session as JSON. It
/// never holds an API key: that comes from the environment or the dialog at run time only.
struct SessionConfig {
    std::string endpoint; ///< base URL of the server (a launched engine's own URL when from a recipe)
    std::string recipe; ///< the recipe's name when Paretoscope launched the engine, else empty
    std::string model;
    std::string hardware; ///< lower-case key (b300, mi325x); a simulation's own label replaces it
    std::string engine; ///< vllm, sglang
    std::string precision = "fp4";
    int tp = 1;
    int ep = 1;
    /// Attention data parallel over the tp GPUs (the FFN/MoE stays tensor or expert parallel): a launched recipe
    /// gets its dp_attention_args, and the runs are labelled dp_attention, a configuration of their own.
    bool dpAttention = false;
    int gpus = 1;
    std::string workload = "random"; ///< "random" or "agentic"
    int isl = 1024;
    int osl = 1024;
    AgenticOptions agentic;
    std::vector<int> concurrencies = kDefaultConcurrencies;
    /// `--concurrency auto`: the levels are chosen as the session goes (nextAdaptiveLevel), not from the list above;
    /// the list then holds the levels chosen so far.
    bool concurrencyAuto = false;
    std::vector<double> targets; ///< the adaptive sweep's interactivity targets (tok/s/user); empty: the defaults
    int maxLevels = 12; ///< the adaptive sweep's level budget
    std::optional<double> requestRate; ///< Poisson arrivals instead of a closed loop
    int promptsPerLevel = 0; ///< 0: 10 x concurrency
    int warmups = -1; ///< -1: 2 x concurrency
    bool chat = false;
    PromptKind prompt = PromptKind::TokenIds;
    Slo slo;
    double requestTimeout = 600;
    double stallTimeout = 60;
    /// Client threads per level (LevelOptions::clientThreads); 0: chosen per level by automaticClientThreads.
    int clientThreads = 0;
};

/// The JSON form stored with a session.
std::string sessionConfigJson(const SessionConfig& config);
/// Reads it back: only known keys, each of the right type and range; the error names the key.
Result<SessionConfig> parseSessionConfig(const std::string& json, const std::string& name);
/// Checks a configuration before it runs: what is missing or out of range, in one message.
Status validateSessionConfig(const SessionConfig& config);

} // namespace paretoscope
