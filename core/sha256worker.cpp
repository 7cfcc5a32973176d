#include "sha256worker.h"

#include <cstring>

namespace paretoscope {

Sha256Worker::Sha256Worker()
    : m_thread([this] { run(); })
{
}

Sha256Worker::~Sha256Worker()
{
    drain();
}

void Sha256Worker::update(const char* data, std::size_t size)
{
    if (size == 0)
        return;
    std::vector<char> chunk;
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_queue.size() < kMaxQueued; });
        if (!m_spent.empty()) {
            chunk = std::move(m_spent.back());
            m_spent.pop_back();
        }
    }
    chunk.assign(data, data + size);
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(chunk));
    }
    m_cv.notify_all();
}

std::string Sha256Worker::hex()
{
    drain();
    return m_sha.hex();
}

void Sha256Worker::drain()
{
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void Sha256Worker::run()
{
    for (;;) {
        std::vector<char> chunk;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return !m_queue.empty() || m_closed; });
            if (m_queue.empty())
                return;
            chunk = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_cv.notify_all();
        m_sha.update(chunk.data(), chunk.size());
        std::lock_guard lock(m_mutex);
        if (m_spent.size() < kMaxQueued)
            m_spent.push_back(std::move(chunk));
    }
}

} // namespace paretoscope
