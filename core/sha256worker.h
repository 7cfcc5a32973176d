#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sha256.h"

namespace paretoscope {

/// SHA-256 computed on a thread of its own: update() copies the bytes and returns. A large import hashes its file
/// (about a second per gigabyte) while the parser and the writer keep their cores busy with the rest. At most a few
/// chunks wait at a time, so memory stays bounded.
class Sha256Worker {
public:
    Sha256Worker();
    ~Sha256Worker();
    Sha256Worker(const Sha256Worker&) = delete;
    Sha256Worker& operator=(const Sha256Worker&) = delete;
    /// Adds bytes to the message (waits while the queue is full).
    void update(const char* data, std::size_t size);
    /// Waits for every byte to be hashed and returns the digest as 64 lower-case hex characters; the object is then
    /// spent.
    std::string hex();

private:
    void run();
    void drain(); ///< hashes what is queued and ends the thread

    static constexpr std::size_t kMaxQueued = 4;
    Sha256 m_sha;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<char>> m_queue;
    std::vector<std::vector<char>> m_spent; // hashed chunks handed back for reuse
    bool m_closed = false;
    std::thread m_thread;
};

} // namespace paretoscope
