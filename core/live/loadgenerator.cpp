#include "core/live/loadgenerator.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <unordered_map>

#include <curl/curl.h>
#include <simdjson.h>

#include "core/live/levelmetrics.h"
#include "core/live/levelshards.h"
#include "core/live/sseparser.h"
#include "core/model/urls.h"

namespace paretoscope {

namespace {

using Clock = std::chrono::steady_clock;

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

std::string trimmed(std::string s, std::size_t max)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    if (s.size() > max)
        s = s.substr(0, max) + "...";
    return s;
}

// The message inside an OpenAI-style error body ({"error":{"message":..}} or {"message":..}), else the body.
std::string errorMessage(simdjson::dom::parser& parser, const std::string& body)
{
    auto doc = parser.parse(body.data(), body.size(), true);
    if (!doc.error()) {
        simdjson::dom::element root = doc.value();
        std::string_view text;
        if (!root["error"]["message"].get(text) || !root["message"].get(text) || !root["error"].get(text))
            return trimmed(std::string(text), 200);
    }
    return trimmed(body, 200);
}

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

// libcurl calls this once the connection is up (new or reused), right before the request goes out: the moment a
// request counts as sent. Building the body, queueing and connecting before it are time spent in the client.
int prereqCallback(void* user, char*, char*, int, int)
{
    auto* t = static_cast<Transfer*>(user);
    t->log.sent = std::chrono::duration<double>(Clock::now() - t->run->startTime()).count();
    return CURL_PREREQFUNC_OK;
}

std::size_t writeCallback(char* data, std::size_t size, std::size_t count, void* user)
{
    auto* t = static_cast<Transfer*>(user);
    return t->run->onData(*t, data, size * count);
}

Status LevelRun::start(int slot, bool warmup, double scheduled)
{
    auto t = std::make_unique<Transfer>(std::min<std::size_t>(m_opt.maxResponseBytes, 16u << 20));
    PlannedRequest planned = m_workload.next(slot, m_rng);
    t->body = std::move(planned.body);
    t->slot = slot;
    t->run = this;
    t->log.warmup = warmup;
    t->log.scheduled = scheduled;
    t->log.inputTokens = planned.inputTokens;
    // easy handles are reused: a burst of a thousand users coming free at once must not pay for a thousand
    // handles built and configured from scratch before the last request goes out
    CURL* e = nullptr;
    if (!m_pool.empty()) {
        e = m_pool.back();
        m_pool.pop_back();
    } else {
        e = curl_easy_init();
        if (!e)
            return Error { "libcurl could not create a transfer" };
        curl_easy_setopt(e, CURLOPT_URL, m_url.c_str());
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, m_headers);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, writeCallback);
        curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, prereqCallback);
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(m_opt.connectTimeout * 1000));
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(m_opt.requestTimeout * 1000));
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, std::max(1L, static_cast<long>(m_opt.stallTimeout)));
    }
    t->easy = e;
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body.data());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->body.size()));
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->curlError);
    curl_easy_setopt(e, CURLOPT_PREREQDATA, t.get());
    lag();
    t->log.sent = now(); // until the request really goes out (prereqCallback)
    if (curl_multi_add_handle(m_multi, e) != CURLM_OK)
        return Error { "libcurl could not start a transfer" };
    (warmup ? m_warmupsStarted : m_measuredStarted)++;
    Transfer* key = t.get();
    m_live.emplace(key, std::move(t));
    return ok();
}

std::size_t LevelRun::onData(Transfer& t, const char* data, std::size_t size)
{
    lag();
    double at = now();
    t.bytes += size;
    if (t.bytes > m_opt.maxResponseBytes) {
        fail(t, "answer longer than " + std::to_string(m_opt.maxResponseBytes >> 20) + " MB, cut off");
        return 0; // aborts the transfer
    }
    long status = 0;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
    t.log.httpStatus = static_cast<int>(status);
    if (status != 200) {
        if (t.errorBody.size() < 4096)
            t.errorBody.append(data, std::min(size, 4096 - t.errorBody.size()));
        return size;
    }
    bool fine = t.parser.feed(std::string_view(data, size), [&](SseEvent& ev) { onEvent(t, ev, at); });
    if (!fine) {
        fail(t, "an event longer than " + std::to_string(t.parser.maxEventBytes() >> 20) + " MB, cut off");
        return 0;
    }
    return size;
}

void LevelRun::onEvent(Transfer& t, const SseEvent& event, double at)
{
    if (!t.log.error.empty())
        return;
    if (event.data == "[DONE]") {
        t.sawDone = true;
        return;
    }
    auto doc = m_json.parse(event.data.data(), event.data.size(), true);
    if (doc.error()) {
        fail(t, "a stream event is not JSON");
        return;
    }
    simdjson::dom::element root = doc.value();
    simdjson::dom::element err;
    if (!root["error"].get(err)) {
        std::string_view text;
        std::string message = !err["message"].get(text) ? std::string(text) : std::string("(no message)");
        fail(t, "server error mid-stream: " + trimmed(message, 200));
        return;
    }
    simdjson::dom::array choices;
    if (!root["choices"].get(choices)) {
        for (simdjson::dom::element choice : choices) {
            std::string_view text;
            bool has = m_endpoint.chat ? !choice["delta"]["content"].get(text) : !choice["text"].get(text);
            if (has && !text.empty()) {
                if (t.log.firstToken < 0) {
                    t.log.firstToken = at;
                    std::string_view id;
                    if (!root["id"].get(id))
                        t.log.responseId = id;
                }
                t.log.chunks.push_back(static_cast<float>(at - t.log.sent));
                ++t.tokenChunks;
                break;
            }
        }
    }
    simdjson::dom::object usage;
    if (!root["usage"].get(usage)) {
        int64_t prompt = 0, completion = 0;
        if (!usage["prompt_tokens"].get(prompt))
            t.log.serverPromptTokens = static_cast<int>(prompt);
        if (!usage["completion_tokens"].get(completion)) {
            t.log.outputTokens = static_cast<int>(completion);
            t.usage = true;
        }
    }
}

void LevelRun::fail(Transfer& t, std::string message)
{
    if (t.log.error.empty())
        t.log.error = std::move(message);
}

void LevelRun::finish(Transfer& t, CURLcode code)
{
    t.log.end = now();
    if (t.log.error.empty()) {
        long status = 0;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        t.log.httpStatus = static_cast<int>(status);
        if (code == CURLE_OPERATION_TIMEDOUT) {
            std::string what = t.curlError;
            if (what.find("too slow") != std::string::npos)
                fail(t, "stalled: no data for " + std::to_string(static_cast<long>(m_opt.stallTimeout)) + " s");
            else
                fail(t, "timed out after " + std::to_string(static_cast<long>(m_opt.requestTimeout)) + " s");
        } else if (code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING
            || (code == CURLE_OK && status == 200 && !t.sawDone)) {
            fail(t, "connection closed mid-stream");
        } else if (code == CURLE_COULDNT_CONNECT) {
            fail(t, "cannot connect to " + redactUrl(m_endpoint.baseUrl));
        } else if (code != CURLE_OK) {
            fail(t, std::string("transfer failed: ") + (t.curlError[0] ? t.curlError : curl_easy_strerror(code)));
        } else if (status != 200) {
            fail(t, "HTTP " + std::to_string(status) + ": " + errorMessage(m_json, t.errorBody));
        } else if (t.tokenChunks == 0) {
            fail(t, "the stream carried no output tokens");
        }
    }
    if (t.log.ok() && !t.usage)
        t.log.outputTokens = t.tokenChunks;
    if (!t.log.warmup) {
        ++m_measuredDone;
        if (t.log.ok()) {
            m_outputTokens += t.log.outputTokens;
            m_ttfts.push_back(t.log.firstToken - t.log.sent);
            if (t.log.outputTokens > 1)
                m_tpots.push_back((t.log.end - t.log.firstToken) / (t.log.outputTokens - 1));
        } else {
            ++m_failed;
        }
    } else {
        ++m_warmupsDone;
    }
    curl_multi_remove_handle(m_multi, t.easy);
    m_pool.push_back(t.easy);
    t.easy = nullptr;
}

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

} // namespace

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
