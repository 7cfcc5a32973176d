#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/live/requestlog.h"

namespace paretoscope {

/// How prompts go on the wire: token ids make the input length exact without a tokenizer; text is for servers that
/// refuse ids, and for chat completions, which take only text.
enum class PromptKind { TokenIds, Text };

/// The request a workload wants sent next.
struct PlannedRequest {
    std::string body; ///< the JSON body
    int inputTokens = 0; ///< what the prompt holds (exact for ids, one token per word for text)
    int outputTokens = 0; ///< max_tokens
};

/// What every request of a session shares.
struct RequestShape {
    std::string model;
    bool chat = false;
    PromptKind prompt = PromptKind::TokenIds;
};

/// The JSON body of a streaming completion with a fixed output length (max_tokens = min_tokens, ignore_eos, usage
/// in the last chunk).
std::string completionBody(const RequestShape& shape, const std::vector<int>& promptIds, int outputTokens);

/// Produces requests for the simulated users ("slots") of a level.
class Workload {
public:
    virtual ~Workload() = default;
    /// The workload as the run record names it, e.g. "random 1k/1k".
    virtual std::string name() const = 0;
    /// The next request of the user in `slot`.
    virtual PlannedRequest next(int slot, std::mt19937_64& rng) = 0;
    /// Seconds the user in `slot` thinks after `finished` before sending again (0: at once).
    virtual double thinkTime(int slot, const RequestLog& finished, std::mt19937_64& rng) = 0;
    /// Forgets every user's state (a new level).
    virtual void reset(int slots) = 0;
};

/// InferenceX's random workload: input lengths drawn uniformly in [ratio x isl, isl], exactly osl output tokens.
class RandomWorkload final : public Workload {
public:
    RandomWorkload(RequestShape shape, int isl, int osl, double rangeRatio = 0.8);
    std::string name() const override;
    PlannedRequest next(int slot, std::mt19937_64& rng) override;
    double thinkTime(int, const RequestLog&, std::mt19937_64&) override { return 0; }
    void reset(int) override { }

private:
    RequestShape m_shape;
    int m_isl, m_osl;
    double m_ratio;
};

/// Multi-turn agentic sessions: every conversation starts from one shared system prefix; each turn appends the
/// user's new tokens, the model answers osl tokens, and that answer joins the context of the next turn after a think
/// time (exponential). A conversation ends after `turns` turns or at the context cap, and the user starts a new one.
struct AgenticOptions {
    int prefixTokens = 4096;
    int turnTokens = 1024; ///< new user tokens per turn (drawn in [0.8, 1.0] x this)
    int outputTokens = 256;
    int turns = 8;
    double meanThinkSeconds = 1.0;
    int contextCap = 65536;
};

class AgenticWorkload final : public Workload {
public:
    AgenticWorkload(RequestShape shape, AgenticOptions options);
    std::string name() const override;
    PlannedRequest next(int slot, std::mt19937_64& rng) override;
    double thinkTime(int slot, const RequestLog& finished, std::mt19937_64& rng) override;
    void reset(int slots) override;

private:
    struct User {
        std::vector<int> context;
        int turn = 0;
    };
    RequestShape m_shape;
    AgenticOptions m_opt;
    std::vector<int> m_prefix;
    std::vector<User> m_users;
};

} // namespace paretoscope
