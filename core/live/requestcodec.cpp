#include "core/live/requestcodec.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace paretoscope {

namespace {

constexpr char magic[4] = { 'P', 'S', 'R', 'Q' };
constexpr std::uint32_t version = 1;

template <typename T> void put(std::string& out, T v)
{
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

class Reader {
public:
    explicit Reader(std::string_view b)
        : m_b(b)
    {
    }
    template <typename T> bool get(T& v)
    {
        if (m_b.size() - m_pos < sizeof(T))
            return false;
        std::memcpy(&v, m_b.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool bytes(std::size_t n, std::string& out)
    {
        if (m_b.size() - m_pos < n)
            return false;
        out.assign(m_b.data() + m_pos, n);
        m_pos += n;
        return true;
    }
    std::size_t left() const { return m_b.size() - m_pos; }

private:
    std::string_view m_b;
    std::size_t m_pos = 0;
};

} // namespace

std::string encodeRequests(const std::vector<RequestLog>& requests)
{
    std::string out(magic, 4);
    put(out, version);
    put(out, static_cast<std::uint32_t>(requests.size()));
    for (const RequestLog& r : requests) {
        for (double t : { r.scheduled, r.sent, r.firstToken, r.end })
            put(out, t);
        for (std::int32_t n : { r.inputTokens, r.serverPromptTokens, r.outputTokens, r.httpStatus })
            put(out, n);
        put(out, static_cast<std::uint8_t>(r.warmup ? 1 : 0));
        put(out, static_cast<std::uint32_t>(r.error.size()));
        out += r.error;
        put(out, static_cast<std::uint32_t>(r.chunks.size()));
        for (float c : r.chunks)
            put(out, c);
    }
    return out;
}

Result<std::vector<RequestLog>> decodeRequests(std::string_view bytes, const std::string& name)
{
    Reader in(bytes);
    std::string head;
    std::uint32_t ver = 0, count = 0;
    if (!in.bytes(4, head) || std::memcmp(head.data(), magic, 4) != 0)
        return Error { name + ": not a Paretoscope request log (no PSRQ header)" };
    if (!in.get(ver) || ver != version)
        return Error { name + ": request log version " + std::to_string(ver) + " is not known to this build" };
    if (!in.get(count))
        return Error { name + ": request log ends before its count" };
    // a request takes at least 57 bytes: a count larger than the data allows is corrupt, not a reason to allocate
    if (count > in.left() / 57)
        return Error { name + ": request log claims " + std::to_string(count) + " requests in "
            + std::to_string(in.left()) + " bytes" };
    std::vector<RequestLog> out(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        RequestLog& r = out[i];
        auto where = [&](const char* field) { return name + ": request " + std::to_string(i) + ", field " + field; };
        std::int32_t n[4];
        std::uint8_t warm = 0;
        std::uint32_t errorLen = 0, chunks = 0;
        if (!in.get(r.scheduled) || !in.get(r.sent) || !in.get(r.firstToken) || !in.get(r.end))
            return Error { where("times") + ": the log ends early" };
        for (double t : { r.scheduled, r.sent, r.firstToken, r.end })
            if (!std::isfinite(t))
                return Error { where("times") + ": not a finite number" };
        for (auto& v : n)
            if (!in.get(v))
                return Error { where("token counts") + ": the log ends early" };
        r.inputTokens = n[0];
        r.serverPromptTokens = n[1];
        r.outputTokens = n[2];
        r.httpStatus = n[3];
        if (!in.get(warm) || warm > 1)
            return Error { where("warmup") + ": not 0 or 1" };
        r.warmup = warm == 1;
        if (!in.get(errorLen) || !in.bytes(errorLen, r.error))
            return Error { where("error") + ": the log ends early" };
        if (!in.get(chunks) || chunks > in.left() / 4)
            return Error { where("chunks") + ": the log ends early" };
        r.chunks.resize(chunks);
        for (float& c : r.chunks) {
            in.get(c);
            if (!std::isfinite(c))
                return Error { where("chunks") + ": not a finite number" };
        }
    }
    if (in.left() != 0)
        return Error { name + ": " + std::to_string(in.left()) + " bytes after the last request" };
    return out;
}

} // namespace paretoscope
