#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/import/bytesource.h"
#include "core/model/sha256.h"

namespace paretoscope {

/// Reads a source ahead on a thread of its own and hashes what it reads (SHA-256): read() hands out bytes already in
/// memory, so the system's read of the file and the hash stay off the parsing thread. At most a few chunks wait at
/// a time, so memory stays bounded whatever the file size.
class HashingReadAhead final : public ByteSource {
public:
    explicit HashingReadAhead(ByteSource& inner);
    ~HashingReadAhead() override; ///< stops reading; safe at any point
    HashingReadAhead(const HashingReadAhead&) = delete;
    HashingReadAhead& operator=(const HashingReadAhead&) = delete;

    /// The inner source's bytes in order; an error of the inner source comes after the bytes read before it.
    Result<std::size_t> read(char* dst, std::size_t n) override;
    std::uint64_t size() const override { return m_inner.size(); }
    const std::string& name() const override { return m_inner.name(); }

    /// The SHA-256 of the whole source as 64 lower-case hex characters (what read() did not take is read here and
    /// hashed too), or the source's read error. The object is then spent.
    Result<std::string> sha256Hex();

    static constexpr std::size_t kChunk = 1u << 20;
    static constexpr std::size_t kMaxQueued = 4;

private:
    void run();
    void stop();

    ByteSource& m_inner;
    Sha256 m_sha;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<char>> m_queue; // read and hashed, not yet handed out
    std::vector<std::vector<char>> m_spent; // handed out, for reuse
    std::vector<char> m_front; // the chunk read() takes from
    std::size_t m_frontPos = 0;
    bool m_end = false; // the reading thread reached the end (or an error)
    bool m_stopping = false;
    std::string m_error;
    std::thread m_thread;
};

} // namespace paretoscope
