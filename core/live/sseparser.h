#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace paretoscope {

/// One server-sent event: its `event:` name (empty for the default "message") and its `data:` lines joined by '\n'.
struct SseEvent {
    std::string event;
    std::string data;
};

/// Incremental parser of a text/event-stream (the WHATWG rules): lines end in CRLF, LF or CR, wherever the reads
/// cut them; comment lines (": keep-alive") are skipped; a blank line dispatches the event. An event larger than
/// the limit is an error, so that a server sending an endless line cannot exhaust memory.
class SseParser {
public:
    explicit SseParser(std::size_t maxEventBytes = 16u << 20)
        : m_max(maxEventBytes)
    {
    }

    /// Feeds bytes as they arrive; calls onEvent for every event completed by them. Returns false (and stops
    /// parsing for good) once the limit is passed.
    bool feed(std::string_view bytes, const std::function<void(SseEvent&)>& onEvent);
    /// Dispatches an event the stream ended without a blank line after (the spec drops it; servers that close
    /// right after the last `data:` line are common enough that the caller may want it).
    bool finish(const std::function<void(SseEvent&)>& onEvent);
    bool failed() const { return m_failed; }
    std::size_t maxEventBytes() const { return m_max; }

private:
    void line(std::string_view text, const std::function<void(SseEvent&)>& onEvent);

    std::size_t m_max;
    std::string m_line; ///< a line not ended yet
    SseEvent m_event;
    bool m_hasData = false;
    bool m_afterCr = false; ///< the last byte was CR: a following LF belongs to it
    bool m_failed = false;
};

} // namespace paretoscope
