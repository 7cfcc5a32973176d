#include "simserver.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace paretoscope::sim {

namespace {

constexpr std::size_t maxHeaderBytes = 64 * 1024;
constexpr std::size_t maxBodyBytes = 64u << 20;
constexpr std::size_t maxPendingOutput = 256u << 20;

double monotonicNow()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string lower(std::string s)
{
    for (char& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

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

const char* reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    default:
        return "Internal Server Error";
    }
}

std::string errorBody(const std::string& message, const char* type, int code)
{
    return nlohmann::json { { "error", { { "message", message }, { "type", type }, { "code", code } } } }.dump();
}

} // namespace

enum class Fault { None, Drop, Stall, StreamError };

struct SimServer::Connection {
    int fd = -1;
    std::string in;
    std::string out;
    std::size_t outPos = 0;
    std::uint64_t streamId = 0;
    bool keepAlive = true;
    bool closeAfterWrite = false;
    bool watchingOut = false;
    double receivedAt = 0; ///< when the last bytes came in: a request's clock starts then, not after parsing it
    int flood = 0; ///< an endless answer is being written (Faults::flood)
    std::string floodEvent;
};

struct SimServer::Stream {
    std::uint64_t id = 0;
    int fd = -1;
    bool chat = false;
    bool streaming = true;
    bool includeUsage = false;
    int promptTokens = 0;
    int maxTokens = 16;
    int emitted = 0;
    Fault fault = Fault::None;
    int faultAt = 0;
    bool stalled = false;
    std::string head; ///< the JSON text before the choices, shared by every chunk
};

SimServer::SimServer(ServerOptions options, std::unique_ptr<SimEngine> engine)
    : m_opt(std::move(options))
    , m_engine(std::move(engine))
    , m_rng(m_opt.faults.seed)
{
}

SimServer::~SimServer()
{
    for (auto& [fd, c] : m_conns)
        ::close(fd);
    for (int fd : { m_listen, m_epoll, m_timer, m_wake })
        if (fd >= 0)
            ::close(fd);
}

int SimServer::listen()
{
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_listen < 0)
        return -1;
    int one = 1;
    setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(m_opt.port));
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_listen, 4096) != 0)
        return -1;
    socklen_t len = sizeof addr;
    getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    m_timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    m_wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    for (int fd : { m_listen, m_timer, m_wake }) {
        epoll_event ev {};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    }
    return ntohs(addr.sin_port);
}

void SimServer::stop()
{
    std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_wake, &one, sizeof one);
}

void SimServer::run()
{
    std::vector<epoll_event> events(512);
    std::vector<int> readable;
    for (;;) {
        readable.clear();
        int n = epoll_wait(m_epoll, events.data(), static_cast<int>(events.size()), -1);
        if (n < 0 && errno != EINTR)
            return;
        for (int i = 0; i < n; ++i) {
            int fd = events[i].data.fd;
            if (fd == m_wake)
                return;
            if (fd == m_listen) {
                accept();
                continue;
            }
            if (fd == m_timer) {
                std::uint64_t expirations;
                [[maybe_unused]] auto r = ::read(m_timer, &expirations, sizeof expirations);
                continue;
            }
            auto it = m_conns.find(fd);
            if (it == m_conns.end())
                continue;
            if (events[i].events & (EPOLLERR | EPOLLHUP)) {
                close(fd);
                continue;
            }
            if (events[i].events & EPOLLOUT)
                onWritable(*it->second);
            // the connection may be gone after a write failed
            it = m_conns.find(fd);
            if (it != m_conns.end() && (events[i].events & EPOLLIN) && onReadable(*it->second))
                readable.push_back(fd);
        }
        // Read everything first (each connection's clock starts at its read), send the tokens that are due, and only
        // then parse the new requests: a burst of arrivals must not delay either.
        emitTokens(monotonicNow());
        for (int fd : readable)
            if (auto it = m_conns.find(fd); it != m_conns.end())
                handleRequests(*it->second);
        emitTokens(monotonicNow());
        armTimer();
    }
}

void SimServer::armTimer()
{
    double next = m_engine->nextEventTime();
    if (next == m_armedAt)
        return;
    m_armedAt = next;
    itimerspec spec {};
    if (next != never) {
        // a time in the past fires at once; {0, 0} would disarm, so never pass exactly zero
        next = std::max(next, 1e-9);
        spec.it_value.tv_sec = static_cast<time_t>(next);
        spec.it_value.tv_nsec = static_cast<long>((next - static_cast<double>(spec.it_value.tv_sec)) * 1e9);
    }
    timerfd_settime(m_timer, TFD_TIMER_ABSTIME, &spec, nullptr);
}

void SimServer::accept()
{
    for (;;) {
        int fd = accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        epoll_event ev {};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
        m_conns.emplace(fd, std::move(c));
    }
}

void SimServer::close(int fd)
{
    auto it = m_conns.find(fd);
    if (it == m_conns.end())
        return;
    if (std::uint64_t id = it->second->streamId) {
        m_engine->cancel(id);
        m_streams.erase(id);
    }
    epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    m_conns.erase(it);
}

bool SimServer::onReadable(Connection& c)
{
    char buf[65536];
    for (;;) {
        ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n > 0) {
            c.receivedAt = monotonicNow();
            c.in.append(buf, static_cast<std::size_t>(n));
            if (c.in.size() > maxHeaderBytes + maxBodyBytes) {
                close(c.fd);
                return false;
            }
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            close(c.fd);
            return false;
        }
        if (errno == EINTR)
            continue;
        break;
    }
    return true;
}

bool SimServer::handleRequests(Connection& c)
{
    int fd = c.fd;
    while (c.streamId == 0 && !c.closeAfterWrite) {
        std::size_t headEnd = c.in.find("\r\n\r\n");
        if (headEnd == std::string::npos) {
            if (c.in.size() > maxHeaderBytes) {
                c.keepAlive = false;
                respond(c, 431, "application/json", errorBody("request headers too large", "BadRequestError", 431));
            }
            return true;
        }
        std::string head = c.in.substr(0, headEnd);
        std::size_t lineEnd = head.find("\r\n");
        std::string requestLine = head.substr(0, lineEnd);
        std::size_t sp1 = requestLine.find(' '), sp2 = requestLine.rfind(' ');
        if (sp1 == std::string::npos || sp2 == sp1) {
            c.keepAlive = false;
            respond(c, 400, "application/json", errorBody("malformed request line", "BadRequestError", 400));
            return true;
        }
        std::string method = requestLine.substr(0, sp1);
        std::string path = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
        std::string version = requestLine.substr(sp2 + 1);
        std::size_t contentLength = 0;
        std::string authorization;
        c.keepAlive = version != "HTTP/1.0";
        std::size_t pos = lineEnd == std::string::npos ? head.size() : lineEnd + 2;
        while (pos < head.size()) {
            std::size_t e = head.find("\r\n", pos);
            if (e == std::string::npos)
                e = head.size();
            std::string line = head.substr(pos, e - pos);
            pos = e + 2;
            std::size_t colon = line.find(':');
            if (colon == std::string::npos)
                continue;
            std::string name = lower(line.substr(0, colon));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            if (name == "authorization") {
                authorization = value;
            } else if (name == "content-length") {
                contentLength = std::strtoull(value.c_str(), nullptr, 10);
            } else if (name == "connection") {
                std::string v = lower(value);
                if (v.find("close") != std::string::npos)
                    c.keepAlive = false;
                else if (v.find("keep-alive") != std::string::npos)
                    c.keepAlive = true;
            } else if (name == "transfer-encoding") {
                c.keepAlive = false;
                respond(c, 400, "application/json", errorBody("chunked request bodies are not supported",
                                                         "BadRequestError", 400));
                return true;
            }
        }
        if (contentLength > maxBodyBytes) {
            c.keepAlive = false;
            respond(c, 413, "application/json", errorBody("request body too large", "BadRequestError", 413));
            return true;
        }
        if (c.in.size() < headEnd + 4 + contentLength)
            return true;
        std::string body = c.in.substr(headEnd + 4, contentLength);
        c.in.erase(0, headEnd + 4 + contentLength);
        route(c, method, path, body, authorization);
        if (!m_conns.count(fd))
            return false;
    }
    return true;
}

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
    int promptTokens = 0;
    if (chat) {
        simdjson::dom::array messages;
        if (req["messages"].get(messages) || messages.size() == 0)
            return bad("messages must be a non-empty array");
        for (simdjson::dom::element m : messages) {
            std::string_view content;
            if (m["content"].get(content))
                return bad("every message needs a string content");
            promptTokens += countWords(content);
        }
    } else {
        simdjson::dom::element prompt;
        if (req["prompt"].get(prompt))
            return bad("prompt is required");
        std::string_view text;
        simdjson::dom::array ids;
        if (!prompt.get(text)) {
            promptTokens = countWords(text);
        } else if (!prompt.get(ids) && ids.size() > 0 && ids.at(0).is_int64()) {
            if (m_opt.faults.textOnly)
                return bad("token id prompts are not accepted by this server");
            for (simdjson::dom::element id : ids) {
                int64_t v = 0;
                if (id.get(v) || v < 0)
                    return bad("prompt token ids must be non-negative integers");
            }
            promptTokens = static_cast<int>(ids.size());
        } else {
            return bad("prompt must be a string or a list of token ids (batched prompts are not simulated)");
        }
    }
    if (promptTokens <= 0)
        return bad("the prompt is empty");
    int maxTokens = 16;
    for (const char* key : { "max_tokens", "max_completion_tokens" }) {
        simdjson::dom::element v;
        if (req[key].get(v) || v.is_null())
            continue;
        int64_t n = 0;
        if (v.get(n) || n < 1 || n > m_opt.maxModelLen)
            return bad(std::string(key) + " must be a positive integer");
        maxTokens = static_cast<int>(n);
    }
    if (promptTokens + maxTokens > m_opt.maxModelLen)
        return bad("This model's maximum context length is " + std::to_string(m_opt.maxModelLen) + " tokens; the request has "
            + std::to_string(promptTokens + maxTokens));
    bool streaming = false, includeUsage = false;
    if (req["stream"].get(streaming))
        streaming = false;
    if (req["stream_options"]["include_usage"].get(includeUsage))
        includeUsage = false;

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
    s->promptTokens = promptTokens;
    s->maxTokens = maxTokens;
    if (s->streaming) {
        std::uniform_int_distribution<int> at(0, std::max(0, maxTokens - 1));
        if (draw < f.drop)
            s->fault = Fault::Drop;
        else if (draw < f.drop + f.stall)
            s->fault = Fault::Stall;
        else if (draw < f.drop + f.stall + f.streamError)
            s->fault = Fault::StreamError;
        if (s->fault != Fault::None)
            s->faultAt = at(m_rng);
    }
    std::string id = (chat ? "chatcmpl-" : "cmpl-") + std::to_string(s->id);
    s->head = "{\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
        + "\",\"created\":" + std::to_string(std::time(nullptr)) + ",\"model\":" + nlohmann::json(m_opt.model).dump();
    c.streamId = s->id;
    if (s->streaming) {
        if (!send(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n"))
            return;
        if (chat
            && !sendChunk(c, "data: " + s->head + ",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                    "\"logprobs\":null,\"finish_reason\":null}]}\n\n"))
            return;
    }
    if (s->streaming && m_opt.faults.flood) {
        // never finishes: the client has to cut it off
        c.flood = m_opt.faults.flood;
        c.floodEvent = c.flood == 1 ? std::string(256 * 1024, 'x')
                                    : "data: " + s->head + ",\"choices\":[{\"index\":0,\"text\":\" tok\"}]}\n\n";
        if (c.flood == 1 && !sendChunk(c, "data: "))
            return;
        m_streams.emplace(s->id, std::move(s));
        refill(c);
        return;
    }
    m_engine->add({ s->id, promptTokens, maxTokens }, c.receivedAt);
    m_streams.emplace(s->id, std::move(s));
}

void SimServer::refill(Connection& c)
{
    int fd = c.fd;
    for (int i = 0; i < 64 && c.outPos >= c.out.size(); ++i) {
        std::string chunk;
        while (chunk.size() < 64 * 1024)
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
            m_streams.erase(it);
            if (sendChunk(c, "data: " + errorBody("simulated engine failure mid-stream", "InternalServerError", 500)
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
        if (sendChunk(c, event) && last)
            finishStream(s, c);
    }
}

void SimServer::finishStream(Stream& s, Connection& c)
{
    std::string usage = "\"usage\":{\"prompt_tokens\":" + std::to_string(s.promptTokens) + ",\"total_tokens\":"
        + std::to_string(s.promptTokens + s.emitted) + ",\"completion_tokens\":" + std::to_string(s.emitted) + "}";
    if (s.streaming) {
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

void SimServer::respond(Connection& c, int status, const std::string& contentType, const std::string& body)
{
    std::string head = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\nContent-Type: " + contentType
        + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    if (status == 429)
        head += "Retry-After: 1\r\n";
    if (!c.keepAlive)
        head += "Connection: close\r\n";
    if (!send(c, head + "\r\n" + body))
        return;
    if (!c.keepAlive) {
        c.closeAfterWrite = true;
        if (c.outPos >= c.out.size())
            close(c.fd);
    }
}

bool SimServer::sendChunk(Connection& c, const std::string& event)
{
    char size[24];
    std::snprintf(size, sizeof size, "%zx\r\n", event.size());
    return send(c, size + event + "\r\n");
}

bool SimServer::send(Connection& c, std::string data)
{
    if (c.outPos >= c.out.size()) {
        c.out.clear();
        c.outPos = 0;
        ssize_t n = ::send(c.fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            close(c.fd);
            return false;
        }
        std::size_t sent = n > 0 ? static_cast<std::size_t>(n) : 0;
        if (sent == data.size())
            return true;
        c.out = data.substr(sent);
    } else {
        c.out += data;
    }
    if (c.out.size() - c.outPos > maxPendingOutput) {
        close(c.fd); // the client stopped reading
        return false;
    }
    if (!c.watchingOut) {
        epoll_event ev {};
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.fd = c.fd;
        epoll_ctl(m_epoll, EPOLL_CTL_MOD, c.fd, &ev);
        c.watchingOut = true;
    }
    return true;
}

void SimServer::onWritable(Connection& c)
{
    while (c.outPos < c.out.size()) {
        ssize_t n = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            close(c.fd);
            return;
        }
        c.outPos += static_cast<std::size_t>(n);
    }
    c.out.clear();
    c.outPos = 0;
    if (c.flood) {
        refill(c);
        return;
    }
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.fd = c.fd;
    epoll_ctl(m_epoll, EPOLL_CTL_MOD, c.fd, &ev);
    c.watchingOut = false;
    if (c.closeAfterWrite)
        close(c.fd);
}

std::string SimServer::metricsText() const
{
    SimCounters k = m_engine->counters();
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
