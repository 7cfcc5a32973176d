#include "truthlog.h"

#include <cerrno>
#include <charconv>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace paretoscope::sim {

namespace {

constexpr std::size_t blockBytes = std::size_t { 64 } * 1024;
constexpr std::int64_t flushEveryNs = 1'000'000'000;

void append(std::string& out, std::int64_t v)
{
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
    out.append(digits, end);
}

} // namespace

std::int64_t monotonicNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

TruthLog::~TruthLog()
{
    flush();
    if (m_fd >= 0)
        ::close(m_fd);
}

bool TruthLog::open(const std::string& path)
{
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0)
        return false;
    m_buffer = "id,received_ns,first_token_ns,last_token_ns,tokens,queued,outcome\n";
    m_buffer.reserve(2 * blockBytes);
    m_lastFlush = monotonicNs();
    return true;
}

void TruthLog::add(const TruthRecord& r)
{
    if (m_fd < 0)
        return;
    m_buffer.append(r.id);
    for (std::int64_t v : { r.receivedNs, r.firstNs, r.lastNs, static_cast<std::int64_t>(r.tokens) }) {
        m_buffer += ',';
        append(m_buffer, v);
    }
    m_buffer += r.queued ? ",1," : ",0,";
    m_buffer.append(r.outcome);
    m_buffer += '\n';
    if (m_buffer.size() >= blockBytes)
        flush();
}

bool TruthLog::flushIfDue(std::int64_t nowNs)
{
    if (!m_buffer.empty() && nowNs - m_lastFlush >= flushEveryNs)
        flush();
    return !m_buffer.empty();
}

void TruthLog::flush()
{
    m_lastFlush = monotonicNs();
    std::size_t done = 0;
    while (m_fd >= 0 && done < m_buffer.size()) {
        ssize_t n = ::write(m_fd, m_buffer.data() + done, m_buffer.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // a full disk loses the log, never the server
        done += static_cast<std::size_t>(n);
    }
    m_buffer.clear();
}

} // namespace paretoscope::sim
