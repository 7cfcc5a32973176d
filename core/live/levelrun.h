#pragma once
// The inside of runLevel (loadgenerator.cpp): one client's level on libcurl's multi interface. Private to core/live:
// loadgenerator.cpp runs the level's loop (the schedule, the network wait, progress), levelrequests.cpp each
// request (its body, its stream of events, how it ended).

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <sys/epoll.h>
#include <unordered_map>
#include <vector>

#include <curl/curl.h>
#include <simdjson.h>

#include "core/live/loadgenerator.h"
#include "core/live/sseparser.h"

namespace paretoscope::levelrun {

using Clock = std::chrono::steady_clock;

struct Transfer {
    CURL* easy = nullptr; ///< borrowed from the level's pool, returned when the transfer is done
    std::string body;
    RequestLog log;
    SseParser parser;
    std::string errorBody;
    std::size_t bytes = 0;
    int slot = 0;
    int tokenChunks = 0;
    bool sawDone = false;
    bool usage = false;
    char curlError[CURL_ERROR_SIZE] = {};
    class LevelRun* run = nullptr;

    explicit Transfer(std::size_t maxEvent)
        : parser(maxEvent)
    {
    }
};

class LevelRun {
public:
    LevelRun(const Endpoint& endpoint, Workload& workload, const LevelOptions& options,
        const std::function<bool(const LevelProgress&)>& progress)
        : m_endpoint(endpoint)
        , m_workload(workload)
        , m_opt(options)
        , m_progress(progress)
        , m_rng(options.seed)
    {
        m_concurrency = std::max(1, m_opt.concurrency);
        m_prompts = m_opt.prompts > 0 ? m_opt.prompts : 10 * m_concurrency;
        m_warmups = m_opt.warmups >= 0 ? m_opt.warmups : 2 * m_concurrency;
        m_url = m_endpoint.baseUrl + (m_endpoint.chat ? "/v1/chat/completions" : "/v1/completions");
    }

    ~LevelRun();
    LevelRun(const LevelRun&) = delete;
    LevelRun& operator=(const LevelRun&) = delete;
    Result<LevelResult> run();
    Clock::time_point startTime() const { return m_start; }
    std::size_t onData(Transfer& t, const char* data, std::size_t size);

private:
    double now() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }
    void lag() const
    {
        // a client made to lag (tests): burn the time, as a slow tokenizer or parser would
        for (const double until = now() + m_opt.testLag; now() < until;) { }
    }
    Status start(int slot, bool warmup, double scheduled);
    void finish(Transfer& t, CURLcode code);
    void onEvent(Transfer& t, const SseEvent& event, double at);
    void fail(Transfer& t, std::string message);
    bool report(bool force);
    Status setUp();
    Status startDue(double t, double& wakeAt); ///< starts what is due; wakeAt: when the next one is
    bool collectFinished(); ///< takes in finished transfers; true when a user became free
    void waitForNetwork(double wakeAt);

    const Endpoint& m_endpoint;
    Workload& m_workload;
    LevelOptions m_opt;
    const std::function<bool(const LevelProgress&)>& m_progress;
    std::mt19937_64 m_rng;
    simdjson::dom::parser m_json;
    std::string m_url;
    int m_concurrency = 1, m_prompts = 0, m_warmups = 0;
    CURLM* m_multi = nullptr;
    Clock::time_point m_start;
    std::unordered_map<Transfer*, std::unique_ptr<Transfer>> m_live;
    std::vector<CURL*> m_pool; ///< easy handles of finished transfers, configured, ready for the next request
    curl_slist* m_headers = nullptr; ///< shared by every request of the level
    int m_epoll = -1;
    double m_curlDeadline = -1; ///< when libcurl wants its timeout action (level seconds), -1 none

public:
    // libcurl's event interface: sockets go into our epoll set, so each wake costs what happened, not the number
    // of streams open (curl_multi_poll walks every socket, which a thousand streams made the client's main cost)
    static int onSocket(CURL*, curl_socket_t fd, int what, void* user, void* assigned)
    {
        auto* run = static_cast<LevelRun*>(user);
        if (what == CURL_POLL_REMOVE) {
            epoll_ctl(run->m_epoll, EPOLL_CTL_DEL, fd, nullptr);
            return 0;
        }
        epoll_event ev {};
        ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
        ev.data.fd = fd;
        if (!assigned) {
            if (epoll_ctl(run->m_epoll, EPOLL_CTL_ADD, fd, &ev) != 0 && errno == EEXIST)
                epoll_ctl(run->m_epoll, EPOLL_CTL_MOD, fd, &ev);
            curl_multi_assign(run->m_multi, fd, run);
        } else if (epoll_ctl(run->m_epoll, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT) {
            epoll_ctl(run->m_epoll, EPOLL_CTL_ADD, fd, &ev);
        }
        return 0;
    }
    static int onTimer(CURLM*, long timeoutMs, void* user)
    {
        auto* run = static_cast<LevelRun*>(user);
        run->m_curlDeadline = timeoutMs < 0 ? -1 : run->now() + static_cast<double>(timeoutMs) / 1000.0;
        return 0;
    }
    LevelResult m_result;
    int m_warmupsStarted = 0, m_warmupsDone = 0, m_measuredStarted = 0, m_measuredDone = 0, m_failed = 0;
    long long m_outputTokens = 0;
    std::vector<double> m_ttfts, m_tpots;
    double m_lastReport = -1;
    // the schedule: per user when it is ready again (level seconds after the phase start) and whether it waits on a
    // request; with a request rate, the Poisson arrivals instead
    std::vector<double> m_readyAt;
    std::vector<bool> m_busy;
    std::vector<double> m_arrivals;
    std::size_t m_nextArrival = 0;
    bool m_measuredPhase = false;
    double m_phaseCpu = 0; ///< thread CPU seconds when the measured phase began
    double m_phaseStart = 0;
    int m_cap = 1; ///< most requests open at once
};

} // namespace paretoscope::levelrun
