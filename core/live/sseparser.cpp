#include "core/live/sseparser.h"

#include <cstring>

namespace paretoscope {

bool SseParser::feed(std::string_view bytes, const std::function<void(SseEvent&)>& onEvent)
{
    if (m_failed)
        return false;
    std::size_t i = 0;
    if (m_afterCr && !bytes.empty()) {
        m_afterCr = false;
        if (bytes[0] == '\n')
            i = 1;
    }
    while (i < bytes.size()) {
        // find the next CR or LF; memchr twice is faster than a byte loop on long data lines
        const char* base = bytes.data() + i;
        std::size_t rest = bytes.size() - i;
        const char* lf = static_cast<const char*>(std::memchr(base, '\n', rest));
        const char* cr
            = static_cast<const char*>(std::memchr(base, '\r', lf ? static_cast<std::size_t>(lf - base) : rest));
        const char* end = cr ? cr : lf;
        if (!end) {
            if (m_line.size() + m_event.data.size() + rest > m_max) {
                m_failed = true;
                return false;
            }
            m_line.append(base, rest);
            return true;
        }
        std::size_t len = static_cast<std::size_t>(end - base);
        if (m_line.size() + m_event.data.size() + len > m_max) {
            m_failed = true;
            return false;
        }
        if (m_line.empty()) {
            line(std::string_view(base, len), onEvent);
        } else {
            m_line.append(base, len);
            std::string whole = std::move(m_line);
            m_line.clear();
            line(whole, onEvent);
        }
        i += len + 1;
        if (*end == '\r') {
            if (i < bytes.size()) {
                if (bytes[i] == '\n')
                    ++i;
            } else {
                m_afterCr = true;
            }
        }
    }
    return true;
}

bool SseParser::finish(const std::function<void(SseEvent&)>& onEvent)
{
    if (m_failed)
        return false;
    if (!m_line.empty()) {
        std::string whole = std::move(m_line);
        m_line.clear();
        line(whole, onEvent);
    }
    line({}, onEvent);
    return true;
}

void SseParser::line(std::string_view text, const std::function<void(SseEvent&)>& onEvent)
{
    if (text.empty()) {
        if (m_hasData)
            onEvent(m_event);
        m_event = {};
        m_hasData = false;
        return;
    }
    if (text[0] == ':')
        return;
    std::string_view field = text, value;
    if (auto colon = text.find(':'); colon != std::string_view::npos) {
        field = text.substr(0, colon);
        value = text.substr(colon + 1);
        if (!value.empty() && value[0] == ' ')
            value.remove_prefix(1);
    }
    if (field == "data") {
        if (m_hasData)
            m_event.data += '\n';
        m_event.data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event.event.assign(value);
    }
    // "id" and "retry" do not matter to a one-shot completion stream
}

} // namespace paretoscope
