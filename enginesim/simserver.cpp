#include "simserver.h"
#include "simserverinternal.h"

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

constexpr std::size_t maxHeaderBytes = std::size_t { 64 } * 1024;
constexpr std::size_t maxBodyBytes = 64u << 20;
constexpr std::size_t maxPendingOutput = 256u << 20;

std::string lower(std::string s)
{
    for (char& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
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

} // namespace

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

bool SimServer::openTruthLog(const std::string& path)
{
    m_truth = std::make_unique<TruthLog>();
    return m_truth->open(path);
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
        // lines waiting in the truth log are written within about a second, also when the server is idle
        bool truthWaiting = m_truth && m_truth->flushIfDue(monotonicNs());
        int n = epoll_wait(m_epoll, events.data(), static_cast<int>(events.size()), truthWaiting ? 1000 : -1);
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
        if (auto s = m_streams.find(id); s != m_streams.end())
            logTruth(*s->second, "closed");
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
                respond(c, 400, "application/json",
                    errorBody("chunked request bodies are not supported", "BadRequestError", 400));
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

} // namespace paretoscope::sim
