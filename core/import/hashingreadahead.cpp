#include "core/import/hashingreadahead.h"

#include <cstring>

namespace paretoscope {

HashingReadAhead::HashingReadAhead(ByteSource& inner)
    : m_inner(inner)
    , m_thread([this] { run(); })
{
}

HashingReadAhead::~HashingReadAhead()
{
    stop();
}

void HashingReadAhead::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void HashingReadAhead::run()
{
    for (;;) {
        std::vector<char> chunk;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_queue.size() < kMaxQueued || m_stopping; });
            if (m_stopping)
                return;
            if (!m_spent.empty()) {
                chunk = std::move(m_spent.back());
                m_spent.pop_back();
            }
        }
        chunk.resize(kChunk);
        std::size_t fill = 0;
        std::string error;
        bool end = false;
        while (fill < kChunk) { // a full chunk unless the source ends: fewer hand-overs
            auto got = m_inner.read(chunk.data() + fill, kChunk - fill);
            if (!got) {
                error = got.error();
                break;
            }
            if (*got == 0) {
                end = true;
                break;
            }
            fill += *got;
        }
        chunk.resize(fill);
        m_sha.update(chunk.data(), chunk.size());
        const bool last = end || !error.empty();
        {
            std::lock_guard lock(m_mutex);
            if (fill > 0)
                m_queue.push_back(std::move(chunk));
            if (last) {
                m_error = std::move(error);
                m_end = true;
            }
        }
        m_cv.notify_all();
        if (last)
            return;
    }
}

Result<std::size_t> HashingReadAhead::read(char* dst, std::size_t n)
{
    if (m_frontPos == m_front.size()) {
        std::unique_lock lock(m_mutex);
        if (!m_front.empty() && m_spent.size() < kMaxQueued)
            m_spent.push_back(std::move(m_front));
        m_front.clear();
        m_frontPos = 0;
        m_cv.wait(lock, [&] { return !m_queue.empty() || m_end; });
        if (m_queue.empty()) {
            if (!m_error.empty())
                return Error { m_error };
            return std::size_t { 0 };
        }
        m_front = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        m_cv.notify_all();
    }
    const std::size_t take = std::min(n, m_front.size() - m_frontPos);
    std::memcpy(dst, m_front.data() + m_frontPos, take);
    m_frontPos += take;
    return take;
}

Result<std::string> HashingReadAhead::sha256Hex()
{
    char sink[4096];
    for (;;) { // what the caller left unread is still part of the file
        auto got = read(sink, sizeof sink);
        if (!got)
            return Error { got.error() };
        if (*got == 0)
            break;
    }
    stop();
    return m_sha.hex();
}

} // namespace paretoscope
