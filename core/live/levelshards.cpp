#include "core/live/levelshards.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace paretoscope {

namespace {

// One client's view of the shared workload.
class ShardWorkload final : public Workload {
public:
    ShardWorkload(Workload& inner, std::mutex& mutex, int shard, int shards)
        : m_inner(inner)
        , m_mutex(mutex)
        , m_shard(shard)
        , m_shards(shards)
    {
    }
    std::string name() const override { return m_inner.name(); }
    PlannedRequest next(int slot, std::mt19937_64& rng) override
    {
        std::lock_guard lock(m_mutex);
        return m_inner.next(slot * m_shards + m_shard, rng);
    }
    double thinkTime(int slot, const RequestLog& finished, std::mt19937_64& rng) override
    {
        std::lock_guard lock(m_mutex);
        return m_inner.thinkTime(slot * m_shards + m_shard, finished, rng);
    }
    void reset(int) override { } // the shared workload is reset once, before the clients start

private:
    Workload& m_inner;
    std::mutex& m_mutex;
    int m_shard, m_shards;
};

// n split over `parts`, the first ones taking the remainder
int shareOf(int n, int parts, int k)
{
    return n / parts + (k < n % parts ? 1 : 0);
}

struct Shared {
    std::mutex mutex; ///< guards the workload
    std::mutex stateMutex; ///< guards progress and done
    std::condition_variable changed;
    std::vector<std::optional<LevelProgress>> progress;
    int done = 0;
    std::atomic<bool> cancel { false };
};

LevelProgress summed(const std::vector<std::optional<LevelProgress>>& parts)
{
    LevelProgress sum;
    double ttft = 0, tpot = 0;
    int ttfts = 0, tpots = 0;
    for (const auto& p : parts) {
        if (!p)
            continue;
        sum.finished += p->finished;
        sum.total += p->total;
        sum.warmupsLeft += p->warmupsLeft;
        sum.inFlight += p->inFlight;
        sum.failed += p->failed;
        sum.elapsed = std::max(sum.elapsed, p->elapsed);
        sum.outputTokens += p->outputTokens;
        if (p->medianTtft)
            ttft += *p->medianTtft, ++ttfts;
        if (p->medianTpot)
            tpot += *p->medianTpot, ++tpots;
    }
    if (ttfts)
        sum.medianTtft = ttft / ttfts;
    if (tpots)
        sum.medianTpot = tpot / tpots;
    return sum;
}

// The clients' requests on the earliest client's time zero.
Result<LevelResult> merged(std::vector<std::optional<Result<LevelResult>>>& results)
{
    LevelResult all;
    all.clockOriginNs = std::numeric_limits<long long>::max();
    for (auto& r : results) {
        if (!*r)
            return Error { r->error() };
        all.clockOriginNs = std::min(all.clockOriginNs, (*r)->clockOriginNs);
        all.cancelled = all.cancelled || (*r)->cancelled;
    }
    for (auto& r : results) {
        double shift = static_cast<double>((*r)->clockOriginNs - all.clockOriginNs) * 1e-9;
        for (RequestLog& q : (*r)->requests) {
            for (double* at : { &q.scheduled, &q.sent, &q.firstToken, &q.end })
                *at += *at >= 0 ? shift : 0; // -1: never came
            all.requests.push_back(std::move(q));
        }
    }
    return all;
}

} // namespace

Result<LevelResult> runLevelSharded(const Endpoint& endpoint, Workload& workload, const LevelOptions& options,
    const std::function<bool(const LevelProgress&)>& progress)
{
    const int concurrency = std::max(1, options.concurrency);
    const int prompts = options.prompts > 0 ? options.prompts : 10 * concurrency;
    const int shards = std::clamp(options.clientThreads, 1, std::min(concurrency, prompts));
    const int warmups = options.warmups >= 0 ? options.warmups : 2 * concurrency;
    Shared shared;
    shared.progress.resize(static_cast<std::size_t>(shards));
    std::vector<std::optional<Result<LevelResult>>> results(static_cast<std::size_t>(shards));
    workload.reset(concurrency);
    std::vector<std::thread> clients;
    clients.reserve(static_cast<std::size_t>(shards));
    for (int k = 0; k < shards; ++k)
        clients.emplace_back([&, k] {
            auto i = static_cast<std::size_t>(k);
            ShardWorkload view(workload, shared.mutex, k, shards);
            LevelOptions o = options;
            o.clientThreads = 1;
            o.concurrency = options.requestRate && options.concurrency <= 0 ? 0 : shareOf(concurrency, shards, k);
            o.prompts = shareOf(prompts, shards, k);
            o.warmups = shareOf(warmups, shards, k);
            if (options.requestRate)
                o.requestRate = *options.requestRate / shards; // a split Poisson process is Poisson
            o.seed = options.seed + static_cast<unsigned long long>(k);
            auto r = runLevel(endpoint, view, o, [&](const LevelProgress& p) {
                std::lock_guard lock(shared.stateMutex);
                shared.progress[i] = p;
                return !shared.cancel.load();
            });
            std::lock_guard lock(shared.stateMutex);
            results[i] = std::move(r);
            ++shared.done;
            shared.changed.notify_all();
        });
    for (;;) {
        std::unique_lock lock(shared.stateMutex);
        shared.changed.wait_for(lock, std::chrono::milliseconds(100), [&] { return shared.done == shards; });
        if (shared.done == shards)
            break;
        LevelProgress p = summed(shared.progress);
        lock.unlock();
        if (progress && !progress(p))
            shared.cancel = true;
    }
    for (std::thread& t : clients)
        t.join();
    if (progress)
        progress(summed(shared.progress));
    return merged(results);
}

} // namespace paretoscope
