#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <unordered_set>
#include <vector>

namespace paretoscope::sim {

/// A request as the scheduler sees it.
struct SimRequest {
    std::uint64_t id = 0;
    int promptTokens = 0;
    int maxTokens = 16;
};

/// The state /metrics reports.
struct SimCounters {
    long long running = 0;
    long long waiting = 0;
    double kvUsage = 0; ///< 0 to 1
    long long promptTokensTotal = 0;
    long long generationTokensTotal = 0;
    long long prefixQueriesTotal = 0;
    long long prefixHitsTotal = 0;
};

constexpr double never = std::numeric_limits<double>::infinity();

/// When tokens come out. Times are seconds on the monotonic clock. A request leaves the engine on its own once its
/// last token is out; cancel() removes it early (the client went away).
class SimEngine {
public:
    virtual ~SimEngine() = default;
    virtual void add(const SimRequest& request, double now) = 0;
    virtual void cancel(std::uint64_t id) = 0;
    /// The next time advance() has something to do; `never` when idle.
    virtual double nextEventTime() const = 0;
    /// Every token due by `now`: one entry per token, the request's id.
    virtual void advance(double now, std::vector<std::uint64_t>& produced) = 0;
    virtual SimCounters counters() const = 0;
};

/// Ground truth for tests: every stream's first token `ttft` seconds after it arrived, then one every `itl` seconds,
/// whatever the load. Due times come from the schedule, not from when the loop woke, so lateness never accumulates.
class FixedEngine final : public SimEngine {
public:
    FixedEngine(double ttft, double itl);
    void add(const SimRequest& request, double now) override;
    void cancel(std::uint64_t id) override;
    double nextEventTime() const override;
    void advance(double now, std::vector<std::uint64_t>& produced) override;
    SimCounters counters() const override;

private:
    struct Due {
        double at;
        std::uint64_t id;
        int left; ///< tokens still to come after this one
        bool operator>(const Due& o) const { return at > o.at; }
    };
    double m_ttft, m_itl;
    std::priority_queue<Due, std::vector<Due>, std::greater<>> m_heap;
    std::unordered_set<std::uint64_t> m_cancelled;
    SimCounters m_counters;
};

/// Cost model of a continuous-batching engine, per scheduler step (seconds):
///   base + perSeq x batch + perContextToken x (sum of the batch's contexts) + prefillPerToken x (new prompt tokens),
/// every running request whose prompt is prefilled gets one token per step; a prompt is prefilled in chunks of at
/// most prefillBudget tokens per step (shared by the batch), its first token coming with its last chunk. New
/// requests are admitted at step boundaries while the batch has room (maxSeqs) and the KV cache holds their prompt
/// plus output.
struct Profile {
    std::string name;
    double base = 0;
    double perSeq = 0;
    double perContextToken = 0;
    double prefillPerToken = 0;
    int maxSeqs = 256;
    long long kvTokens = 0;
    long long prefillBudget = 8192; ///< prompt tokens per step (chunked prefill); a long prompt takes several steps
};

/// The named profiles (b300-sim, mi325x-sim); empty name when unknown.
Profile profileNamed(const std::string& name);

class BatchEngine final : public SimEngine {
public:
    explicit BatchEngine(Profile profile);
    void add(const SimRequest& request, double now) override;
    void cancel(std::uint64_t id) override;
    double nextEventTime() const override;
    void advance(double now, std::vector<std::uint64_t>& produced) override;
    SimCounters counters() const override;

private:
    struct Active {
        std::uint64_t id;
        long long context;
        int left;
        long long reserved; ///< KV tokens held
        long long prefillLeft; ///< prompt tokens not yet prefilled
        long long prefillThisStep;
    };
    void startStep(double at);

    Profile m_p;
    std::deque<SimRequest> m_waiting;
    std::vector<Active> m_running;
    std::unordered_set<std::uint64_t> m_cancelled;
    long long m_kvUsed = 0;
    double m_stepEnd = never;
    SimCounters m_counters;
};

} // namespace paretoscope::sim
