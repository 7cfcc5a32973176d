// The OpenAI-compatible routes of the emulator and its token streams: request parsing, fault injection, SSE chunks,
// the usage chunk, non-streaming answers and /metrics. Sockets and HTTP framing are in simserver.cpp.
#include <algorithm>
#include <cmath>
#include <random>

#include <simdjson.h>

#include "simserverinternal.h"

namespace paretoscope::sim {

namespace {

int countWords(std::string_view text)
{
    int n = 0;
    bool in = false;
    for (char ch : text) {
        bool space = std::isspace(static_cast<unsigned char>(ch)) != 0;
        if (!space && !in)
            ++n;
        in = !space;
    }
    return n;
}

// The prompt's length in tokens (words of a text, or token ids) into `tokens`; what the server says of a request it
// refuses, or empty.
std::string promptLength(const simdjson::dom::element& req, bool chat, bool textOnly, int& tokens)
{
    tokens = 0;
    if (chat) {
        simdjson::dom::array messages;
        if (req["messages"].get(messages) || messages.size() == 0)
            return "messages must be a non-empty array";
        for (simdjson::dom::element m : messages) {
            std::string_view content;
            if (m["content"].get(content))
                return "every message needs a string content";
            tokens += countWords(content);
        }
    } else {
        simdjson::dom::element prompt;
        if (req["prompt"].get(prompt))
            return "prompt is required";
        std::string_view text;
        simdjson::dom::array ids;
        if (!prompt.get(text)) {
            tokens = countWords(text);
        } else if (!prompt.get(ids) && ids.size() > 0 && ids.at(0).is_int64()) {
            if (textOnly)
                return "token id prompts are not accepted by this server";
            for (simdjson::dom::element id : ids) {
                int64_t v = 0;
                if (id.get(v) || v < 0)
                    return "prompt token ids must be non-negative integers";
            }
            tokens = static_cast<int>(ids.size());
        } else {
            return "prompt must be a string or a list of token ids (batched prompts are not simulated)";
        }
    }
    return tokens <= 0 ? "the prompt is empty" : "";
}

// The fault a streamed answer gets from the request's draw (what is left of it after the HTTP errors' share).
Fault streamFault(const Faults& f, double draw)
{
    if (draw < f.drop)
        return Fault::Drop;
    if (draw < f.drop + f.stall)
        return Fault::Stall;
    if (draw < f.drop + f.stall + f.streamError)
        return Fault::StreamError;
    return Fault::None;
}

// max_tokens (or max_completion_tokens) into `maxTokens` when given; what the server says of a bad one, or empty.
std::string maxTokensOf(const simdjson::dom::element& req, int maxModelLen, int& maxTokens)
{
    for (const char* key : { "max_tokens", "max_completion_tokens" }) {
        simdjson::dom::element v;
        if (req[key].get(v) || v.is_null())
            continue;
        int64_t n = 0;
        if (v.get(n) || n < 1 || n > maxModelLen)
            return std::string(key) + " must be a positive integer";
        maxTokens = static_cast<int>(n);
    }
    return "";
}

} // namespace

void SimServer::route(Connection& c, const std::string& method, const std::string& rawPath, const std::string& body,
    const std::string& authorization)
{
    std::string path = rawPath.substr(0, rawPath.find('?'));
    if (!m_opt.apiKey.empty() && authorization != "Bearer " + m_opt.apiKey && path != "/health")
        return respond(c, 401, "application/json", errorBody("invalid API key", "AuthenticationError", 401));
    bool get = method == "GET";
    bool post = method == "POST";
    if (path == "/health" && get)
        return respond(c, 200, "text/plain", "");
    if (path == "/v1/models" && get && m_refusedModelLists < m_opt.faults.failFirst) {
        ++m_refusedModelLists;
        return respond(c, m_opt.faults.failFirstStatus, "application/json",
            errorBody("simulated refusal at start-up", "ServiceUnavailableError", m_opt.faults.failFirstStatus));
    }
    if (path == "/v1/models" && get) {
        nlohmann::json models = { { "object", "list" },
            { "data",
                { { { "id", m_opt.model }, { "object", "model" }, { "owned_by", "paretoscope-engine-sim" },
                    { "max_model_len", m_opt.maxModelLen }, { "simulation", m_opt.label } } } } };
        return respond(c, 200, "application/json", models.dump());
    }
    if (path == "/metrics" && get)
        return respond(c, 200, "text/plain; version=0.0.4", metricsText());
    if ((path == "/v1/completions" || path == "/v1/chat/completions") && post)
        return startCompletion(c, body, path == "/v1/chat/completions");
    if (path == "/health" || path == "/v1/models" || path == "/metrics" || path == "/v1/completions"
        || path == "/v1/chat/completions")
        return respond(c, 405, "application/json", errorBody("method not allowed", "BadRequestError", 405));
    respond(c, 404, "application/json", errorBody("no route " + path, "NotFoundError", 404));
}

void SimServer::startCompletion(Connection& c, const std::string& body, bool chat)
{
    auto bad = [&](const std::string& message) {
        respond(c, 400, "application/json", errorBody(message, "BadRequestError", 400));
    };
    // simdjson: a burst of a thousand requests with long id prompts must not hold up the token schedule
    simdjson::padded_string padded(body);
    simdjson::dom::element req;
    if (m_json.parse(padded).get(req) || !req.is_object())
        return bad("the body is not a JSON object");
    int promptTokens = 0, maxTokens = 16;
    if (std::string why = promptLength(req, chat, m_opt.faults.textOnly, promptTokens); !why.empty())
        return bad(why);
    if (std::string why = maxTokensOf(req, m_opt.maxModelLen, maxTokens); !why.empty())
        return bad(why);
    if (promptTokens + maxTokens > m_opt.maxModelLen)
        return bad("This model's maximum context length is " + std::to_string(m_opt.maxModelLen)
            + " tokens; the request has " + std::to_string(promptTokens + maxTokens));
    bool streaming = false, includeUsage = false;
    if (req["stream"].get(streaming))
        streaming = false;
    if (req["stream_options"]["include_usage"].get(includeUsage))
        includeUsage = false;

    if (m_refusedCompletions < m_opt.faults.failFirst) {
        ++m_refusedCompletions;
        return respond(c, m_opt.faults.failFirstStatus, "application/json",
            errorBody("simulated refusal at start-up", "ServiceUnavailableError", m_opt.faults.failFirstStatus));
    }
    std::uniform_real_distribution<double> u(0, 1);
    double draw = u(m_rng);
    const Faults& f = m_opt.faults;
    if (draw < f.http500)
        return respond(c, 500, "application/json", errorBody("simulated internal error", "InternalServerError", 500));
    draw -= f.http500;
    if (draw < f.http429)
        return respond(c, 429, "application/json", errorBody("simulated overload", "RateLimitError", 429));
    draw -= f.http429;

    auto s = std::make_unique<Stream>();
    s->id = m_nextId++;
    s->fd = c.fd;
    s->chat = chat;
    s->streaming = streaming;
    s->includeUsage = includeUsage;
    s->promptTokens = promptTokens + f.promptOffset; // as the server reports it
    s->maxTokens = maxTokens;
    if (s->streaming && (s->fault = streamFault(f, draw)) != Fault::None)
        s->faultAt = std::uniform_int_distribution<int>(0, std::max(0, maxTokens - 1))(m_rng);
    std::string id = (chat ? "chatcmpl-" : "cmpl-") + std::to_string(s->id);
    s->head = "{\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
        + "\",\"created\":" + std::to_string(std::time(nullptr)) + ",\"model\":" + nlohmann::json(m_opt.model).dump();
    c.streamId = s->id;
    if (s->streaming) {
        if (!send(c,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                "Transfer-Encoding: chunked\r\n\r\n"))
            return;
        if (chat
            && !sendChunk(c,
                "data: " + s->head
                    + ",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                      "\"logprobs\":null,\"finish_reason\":null}]}\n\n"))
            return;
    }
    if (s->streaming && m_opt.faults.flood) {
        // never finishes: the client has to cut it off
        c.flood = m_opt.faults.flood;
        c.floodEvent = c.flood == 1 ? std::string(std::size_t { 256 } * 1024, 'x')
                                    : "data: " + s->head + ",\"choices\":[{\"index\":0,\"text\":\" tok\"}]}\n\n";
        if (c.flood == 1 && !sendChunk(c, "data: "))
            return;
        m_streams.emplace(s->id, std::move(s));
        refill(c);
        return;
    }
    s->receivedNs = static_cast<std::int64_t>(c.receivedAt * 1e9);
    m_engine->add({ s->id, promptTokens, maxTokens }, c.receivedAt);
    m_prefixQueries += promptTokens;
    m_prefixHits += std::llround(f.prefixHits * promptTokens);
    m_streams.emplace(s->id, std::move(s));
}

void SimServer::refill(Connection& c)
{
    int fd = c.fd;
    for (int i = 0; i < 64 && c.outPos >= c.out.size(); ++i) {
        std::string chunk;
        while (chunk.size() < std::size_t { 64 } * 1024)
            chunk += c.floodEvent;
        if (!sendChunk(c, chunk) || !m_conns.count(fd))
            return;
    }
}

void SimServer::emitTokens(double now)
{
    std::vector<std::uint64_t> produced;
    m_engine->advance(now, produced);
    for (std::uint64_t id : produced) {
        auto it = m_streams.find(id);
        if (it == m_streams.end())
            continue;
        Stream& s = *it->second;
        auto cit = m_conns.find(s.fd);
        if (cit == m_conns.end() || s.stalled)
            continue;
        Connection& c = *cit->second;
        if (s.fault != Fault::None && s.emitted == s.faultAt) {
            if (s.fault == Fault::Drop) {
                close(c.fd); // cancels the stream in the engine and forgets it
                continue;
            }
            m_engine->cancel(id);
            if (s.fault == Fault::Stall) {
                s.stalled = true; // nothing more until the client gives up
                continue;
            }
            c.streamId = 0;
            logTruth(s, "error");
            m_streams.erase(it);
            if (sendChunk(c,
                    "data: " + errorBody("simulated engine failure mid-stream", "InternalServerError", 500)
                        + "\n\ndata: [DONE]\n\n")
                && send(c, "0\r\n\r\n"))
                handleRequests(c);
            continue;
        }
        ++s.emitted;
        if (!s.streaming) {
            if (s.emitted == s.maxTokens)
                finishStream(s, c);
            continue;
        }
        bool last = s.emitted == s.maxTokens;
        const char* finish = last ? "\"length\"" : "null";
        std::string event = "data: " + s.head + ",\"choices\":[{\"index\":0,"
            + (s.chat ? std::string("\"delta\":{\"content\":\" tok\"}") : std::string("\"text\":\" tok\""))
            + ",\"logprobs\":null,\"finish_reason\":" + finish + "}]}\n\n";
        // the truth log's times are taken just before send(): no client can see the token earlier
        std::int64_t at = m_truth && (s.emitted == 1 || last) ? monotonicNs() : 0;
        if (!sendChunk(c, event))
            continue; // the connection and its stream are gone
        if (s.emitted == 1)
            s.firstNs = at;
        if (last)
            s.lastNs = at;
        s.queued = s.queued || c.outPos < c.out.size();
        if (last)
            finishStream(s, c);
    }
}

void SimServer::finishStream(Stream& s, Connection& c)
{
    std::string usage = "\"usage\":{\"prompt_tokens\":" + std::to_string(s.promptTokens) + ",\"total_tokens\":"
        + std::to_string(s.promptTokens + s.emitted) + ",\"completion_tokens\":" + std::to_string(s.emitted) + "}";
    if (s.streaming) {
        logTruth(s, "ok");
        std::string tail;
        if (s.includeUsage)
            tail = "data: " + s.head + ",\"choices\":[]," + usage + "}\n\n";
        tail += "data: [DONE]\n\n";
        if (!sendChunk(c, tail) || !send(c, "0\r\n\r\n"))
            return; // the connection is gone, and the stream with it
    } else {
        std::string text;
        for (int i = 0; i < s.emitted; ++i)
            text += " tok";
        nlohmann::json body = nlohmann::json::parse(s.head + "}");
        body["object"] = s.chat ? "chat.completion" : "text_completion";
        nlohmann::json choice = { { "index", 0 }, { "finish_reason", "length" } };
        if (s.chat)
            choice["message"] = { { "role", "assistant" }, { "content", text } };
        else
            choice["text"] = text;
        body["choices"] = nlohmann::json::array({ choice });
        body["usage"] = { { "prompt_tokens", s.promptTokens }, { "completion_tokens", s.emitted },
            { "total_tokens", s.promptTokens + s.emitted } };
        c.streamId = 0;
        m_streams.erase(s.id);
        respond(c, 200, "application/json", body.dump());
        return;
    }
    c.streamId = 0;
    m_streams.erase(s.id);
    if (!c.keepAlive)
        c.closeAfterWrite = true;
    if (c.closeAfterWrite && c.outPos >= c.out.size())
        close(c.fd);
    else
        handleRequests(c);
}

void SimServer::logTruth(Stream& s, std::string_view outcome)
{
    if (!m_truth || s.logged || s.firstNs == 0)
        return;
    s.logged = true;
    std::string_view head = s.head;
    // head starts {"id":"ID",
    std::size_t from = head.find(':') + 2;
    TruthRecord r;
    r.id = head.substr(from, head.find('"', from) - from);
    r.receivedNs = s.receivedNs;
    r.firstNs = s.firstNs;
    r.lastNs = s.lastNs;
    r.tokens = s.emitted;
    r.queued = s.queued;
    r.outcome = outcome;
    m_truth->add(r);
}

std::string SimServer::metricsText() const
{
    SimCounters k = m_engine->counters();
    k.prefixQueriesTotal += m_prefixQueries;
    k.prefixHitsTotal += m_prefixHits;
    std::string labels = "{model_name=" + nlohmann::json(m_opt.model).dump() + ",engine=\"0\"}";
    auto line = [&](const char* name, const char* type, const std::string& value) {
        return std::string("# TYPE ") + name + " " + type + "\n" + name + labels + " " + value + "\n";
    };
    return line("vllm:num_requests_running", "gauge", std::to_string(k.running))
        + line("vllm:num_requests_waiting", "gauge", std::to_string(k.waiting))
        + line("vllm:kv_cache_usage_perc", "gauge", std::to_string(k.kvUsage))
        + line("vllm:prompt_tokens_total", "counter", std::to_string(k.promptTokensTotal))
        + line("vllm:generation_tokens_total", "counter", std::to_string(k.generationTokensTotal))
        + line("vllm:prefix_cache_queries_total", "counter", std::to_string(k.prefixQueriesTotal))
        + line("vllm:prefix_cache_hits_total", "counter", std::to_string(k.prefixHitsTotal));
}

} // namespace paretoscope::sim
