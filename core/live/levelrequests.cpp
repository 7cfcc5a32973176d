#include "core/live/levelrun.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/live/levelmetrics.h"
#include "core/model/urls.h"

namespace paretoscope::levelrun {

namespace {

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

} // namespace

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

} // namespace paretoscope::levelrun
