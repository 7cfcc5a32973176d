#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace paretoscope::sim {

/// CLOCK_MONOTONIC in nanoseconds: on Linux the same clock as std::chrono::steady_clock in any process of the machine,
/// so a client on this machine can set its own receive times against the server's write times.
std::int64_t monotonicNs();

/// What the emulator really did with one streamed request.
struct TruthRecord {
    std::string_view id; ///< the answer's "id" (cmpl-N, chatcmpl-N), as every event of the stream carries it
    std::int64_t receivedNs = 0; ///< the request's last bytes read (the emulator's clock for it starts then)
    std::int64_t firstNs = 0; ///< the first token's bytes handed to send() (the time taken just before the call)
    std::int64_t lastNs = 0; ///< the last token's, the same way; 0 when the stream ended before it
    int tokens = 0; ///< tokens written
    bool queued = false; ///< some token bytes waited in the emulator for room in the socket: they went out later
    std::string_view outcome; ///< ok, error (an error event mid-stream), closed (the connection went first)
};

/// The --truth-log file, CSV: id,received_ns,first_token_ns,last_token_ns,tokens,queued,outcome; one line per streamed
/// request that got a token out. The server has one thread, so the lines gather in one buffer with no lock, written
/// out in 64 KB blocks, at least once a second while there is something to write, and at exit.
class TruthLog {
public:
    TruthLog() = default;
    ~TruthLog();
    TruthLog(const TruthLog&) = delete;
    TruthLog& operator=(const TruthLog&) = delete;
    /// Creates (truncates) the file and writes the header; false with errno set.
    bool open(const std::string& path);
    void add(const TruthRecord& r);
    /// Writes the buffer out when it has waited a second; true while lines are waiting.
    bool flushIfDue(std::int64_t nowNs);
    void flush();

private:
    int m_fd = -1;
    std::string m_buffer;
    std::int64_t m_lastFlush = 0;
};

} // namespace paretoscope::sim
