#include "core/live/loadgenerator.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>
#include <unordered_map>

#include <curl/curl.h>

#include "core/live/levelmetrics.h"
#include "core/live/levelrun.h"
#include "core/live/levelshards.h"
#include "core/model/urls.h"

namespace paretoscope {

using levelrun::LevelRun;

namespace levelrun {
namespace {

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void raiseOpenFileLimit()
{
    // every stream is a socket; the usual soft limit of 1024 would cap a sweep well below 1,000 streams
    static std::once_flag once;
    std::call_once(once, [] {
        rlimit lim {};
        if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
            lim.rlim_cur = lim.rlim_max;
            setrlimit(RLIMIT_NOFILE, &lim);
        }
    });
}

} // namespace

bool LevelRun::report(bool force)
{
    if (!m_progress)
        return true;
    double at = now();
    if (!force && at - m_lastReport < 0.1)
        return true;
    m_lastReport = at;
    LevelProgress p;
    p.finished = m_measuredDone;
    p.total = m_prompts;
    p.warmupsLeft = m_warmups - m_warmupsDone;
    p.inFlight = static_cast<int>(m_live.size());
    p.failed = m_failed;
    p.elapsed = at;
    p.outputTokens = m_outputTokens;
    auto median = [](std::vector<double>& v) -> std::optional<double> {
        if (v.empty())
            return std::nullopt;
        auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return *mid;
    };
    p.medianTtft = median(m_ttfts);
    p.medianTpot = median(m_tpots);
    return m_progress(p);
}

LevelRun::~LevelRun()
{
    // transfers first, then the multi handle, then the epoll set they were registered in
    if (m_multi) {
        for (auto& [key, t] : m_live) {
            curl_multi_remove_handle(m_multi, t->easy);
            curl_easy_cleanup(t->easy);
        }
        m_live.clear();
        for (CURL* e : m_pool)
            curl_easy_cleanup(e);
        curl_multi_cleanup(m_multi);
    }
    curl_slist_free_all(m_headers);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

Status LevelRun::setUp()
{
    raiseOpenFileLimit();
    static std::once_flag curlReady;
    std::call_once(curlReady, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    m_multi = curl_multi_init();
    if (!m_multi)
        return Error { "libcurl could not start (curl_multi_init)" };
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll < 0)
        return Error { std::string("cannot create an epoll set: ") + std::strerror(errno) };
    m_headers = curl_slist_append(m_headers, "Content-Type: application/json");
    m_headers = curl_slist_append(m_headers, "Accept: text/event-stream");
    m_headers = curl_slist_append(m_headers, "Expect:");
    if (!m_endpoint.apiKey.empty())
        m_headers = curl_slist_append(m_headers, ("Authorization: Bearer " + m_endpoint.apiKey).c_str());
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &LevelRun::onSocket);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &LevelRun::onTimer);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, static_cast<long>(m_concurrency + 8));
    // closed loop: every user is ready at once; a finished request makes its user ready again after its think time
    m_readyAt.assign(static_cast<std::size_t>(m_concurrency), 0.0);
    m_busy.assign(static_cast<std::size_t>(m_concurrency), false);
    if (m_opt.requestRate && *m_opt.requestRate > 0) {
        std::exponential_distribution<double> gap(*m_opt.requestRate);
        double t = 0;
        for (int i = 0; i < m_prompts; ++i)
            m_arrivals.push_back(t += gap(m_rng));
    }
    m_measuredPhase = m_warmups == 0;
    m_phaseCpu = threadCpuSeconds();
    m_cap = m_opt.requestRate ? (m_opt.concurrency > 0 ? m_opt.concurrency : 1 << 30) : m_concurrency;
    return ok();
}

Status LevelRun::startDue(double t, double& wakeAt)
{
    if (!m_measuredPhase) {
        for (int s = 0; s < m_concurrency && m_warmupsStarted < m_warmups; ++s)
            if (!m_busy[static_cast<std::size_t>(s)]) {
                if (auto st = start(s, true, t); !st)
                    return st;
                m_busy[static_cast<std::size_t>(s)] = true;
            }
    } else if (!m_arrivals.empty()) {
        while (m_nextArrival < m_arrivals.size() && m_phaseStart + m_arrivals[m_nextArrival] <= t
            && static_cast<int>(m_live.size()) < m_cap) {
            if (auto st = start(static_cast<int>(m_nextArrival % static_cast<std::size_t>(m_concurrency)), false,
                    m_phaseStart + m_arrivals[m_nextArrival]);
                !st)
                return st;
            ++m_nextArrival;
        }
        if (m_nextArrival < m_arrivals.size())
            wakeAt = std::min(wakeAt, m_phaseStart + m_arrivals[m_nextArrival]);
    } else {
        for (int s = 0; s < m_concurrency && m_measuredStarted < m_prompts; ++s) {
            auto i = static_cast<std::size_t>(s);
            if (m_busy[i])
                continue;
            double due = m_phaseStart + m_readyAt[i];
            if (due <= t) {
                if (auto st = start(s, false, std::max(due, m_phaseStart)); !st)
                    return st;
                m_busy[i] = true;
            } else {
                wakeAt = std::min(wakeAt, due);
            }
        }
    }
    return ok();
}

bool LevelRun::collectFinished()
{
    int running = 0;
    if (m_curlDeadline >= 0 && now() >= m_curlDeadline) {
        m_curlDeadline = -1;
        curl_multi_socket_action(m_multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    int left = 0;
    bool freed = false;
    while (CURLMsg* msg = curl_multi_info_read(m_multi, &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        Transfer* done = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &done);
        CURLcode code = msg->data.result;
        finish(*done, code);
        auto slot = static_cast<std::size_t>(done->slot);
        if (m_arrivals.empty() || done->log.warmup) {
            m_busy[slot] = false;
            double think = m_workload.thinkTime(done->slot, done->log, m_rng) + m_opt.testPause;
            m_readyAt[slot] = (m_measuredPhase ? now() - m_phaseStart : 0) + think;
        }
        auto it = m_live.find(done);
        m_result.requests.push_back(std::move(it->second->log));
        m_live.erase(it);
        freed = true;
    }
    return freed;
}

void LevelRun::waitForNetwork(double wakeAt)
{
    double until = m_curlDeadline >= 0 ? std::min(wakeAt, m_curlDeadline) : wakeAt;
    int waitMs = static_cast<int>(std::ceil(std::clamp((until - now()) * 1000.0, 0.0, 100.0)));
    epoll_event events[512];
    int n = epoll_wait(m_epoll, events, 512, waitMs);
    int running = 0;
    for (int i = 0; i < n; ++i) {
        int mask = ((events[i].events & EPOLLIN) ? CURL_CSELECT_IN : 0)
            | ((events[i].events & EPOLLOUT) ? CURL_CSELECT_OUT : 0)
            | ((events[i].events & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(m_multi, events[i].data.fd, mask, &running);
    }
}

Result<LevelResult> LevelRun::run()
{
    if (auto st = setUp(); !st)
        return Error { st.error() };
    m_workload.reset(m_concurrency);
    m_start = Clock::now();
    m_result.clockOriginNs = std::chrono::duration_cast<std::chrono::nanoseconds>(m_start.time_since_epoch()).count();
    bool phaseReported = false;
    for (;;) {
        double t = now();
        if (!m_measuredPhase && m_warmupsDone == m_warmups) {
            m_measuredPhase = true;
            m_phaseStart = t;
            m_phaseCpu = threadCpuSeconds();
            std::fill(m_readyAt.begin(), m_readyAt.end(), 0.0);
            m_workload.reset(m_concurrency);
        }
        // the moment the measured requests begin is reported at once (warmupsLeft 0): the session starts sampling the
        // devices there, so that a level's energy is that of its measured requests
        if (m_measuredPhase && !phaseReported) {
            phaseReported = true;
            if (!report(true)) {
                m_result.cancelled = true;
                return std::move(m_result);
            }
        }
        double wakeAt = t + 0.1;
        if (auto st = startDue(t, wakeAt); !st)
            return Error { st.error() };
        const bool freed = collectFinished();
        if (m_measuredPhase && m_measuredDone == m_prompts)
            break;
        if (!report(false)) {
            m_result.cancelled = true;
            return std::move(m_result); // the destructor closes every open stream
        }
        if (!freed) // a user is free: send its next request before waiting on the network
            waitForNetwork(wakeAt);
    }
    report(true);
    if (const double wall = now() - m_phaseStart; wall > 0)
        m_result.clientCpuShare = (threadCpuSeconds() - m_phaseCpu) / wall;
    return std::move(m_result);
}

} // namespace levelrun

Result<std::string> normalizeEndpointUrl(const std::string& url)
{
    std::string u = url;
    while (!u.empty() && u.back() == '/')
        u.pop_back();
    for (const char* suffix : { "/v1/completions", "/v1/chat/completions", "/v1" })
        if (u.size() > std::strlen(suffix) && u.compare(u.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
            u.erase(u.size() - std::strlen(suffix));
    auto scheme = u.find("://");
    std::string lowerScheme = scheme == std::string::npos ? "" : u.substr(0, scheme);
    for (char& ch : lowerScheme)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lowerScheme != "http" && lowerScheme != "https")
        return Error { "endpoint " + redactUrl(url) + ": only http:// and https:// endpoints are allowed" };
    if (u.size() <= scheme + 3 || u[scheme + 3] == '/')
        return Error { "endpoint " + redactUrl(url) + ": no host" };
    return u;
}

Result<LevelResult> runLevel(const Endpoint& endpoint, Workload& workload, const LevelOptions& options,
    const std::function<bool(const LevelProgress&)>& progress)
{
    auto url = normalizeEndpointUrl(endpoint.baseUrl);
    if (!url)
        return Error { url.error() };
    Endpoint e = endpoint;
    e.baseUrl = *url;
    if (options.clientThreads > 1)
        return runLevelSharded(e, workload, options, progress);
    LevelRun run(e, workload, options, progress);
    return run.run();
}

} // namespace paretoscope
