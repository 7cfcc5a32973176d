#include "app/escapingstream.h"

#include <streambuf>
#include <string>

#include "core/model/printable.h"

namespace paretoscope::cli {

namespace {

// Passes bytes on to the stream's own buffer, escaping control characters on the way; a 0xC2 byte waits for the
// next one to know whether the pair is a C1 control.
class EscapingBuf final : public std::streambuf {
public:
    explicit EscapingBuf(std::streambuf* inner)
        : m_inner(inner)
    {
    }

protected:
    // Bytes that may begin a C1 control or a direction mark (hiddenMarkLength) wait in m_pending until the sequence
    // is known: escaped whole when it is one, passed on as they came when it is not.
    int_type overflow(int_type ch) override
    {
        if (traits_type::eq_int_type(ch, traits_type::eof()))
            return traits_type::not_eof(ch);
        const char c = traits_type::to_char_type(ch);
        m_pending += c;
        const int mark = hiddenMarkLength(m_pending, 0);
        if (mark < 0)
            return ch; // it may still become one
        const bool ok = mark > 0 ? put(printable(m_pending)) : passOn();
        m_pending.clear();
        return ok ? ch : traits_type::eof();
    }
    int sync() override
    {
        // what waits at the end of what was written: the rest of its character comes later, or never
        const bool ok = put(m_pending);
        m_pending.clear();
        return ok ? m_inner->pubsync() : -1;
    }

private:
    // m_pending, which is no mark: its control characters escaped, the rest as it is
    bool passOn()
    {
        for (const char c : m_pending) {
            const auto u = static_cast<unsigned char>(c);
            const bool control = (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
            if (!(control ? put(printable(std::string_view(&c, 1))) : m_inner->sputc(c) != traits_type::eof()))
                return false;
        }
        return true;
    }
    bool put(const std::string& s)
    {
        return m_inner->sputn(s.data(), static_cast<std::streamsize>(s.size()))
            == static_cast<std::streamsize>(s.size());
    }
    std::streambuf* m_inner;
    std::string m_pending;
};

} // namespace

void escapeControlCharacters(std::ostream& stream)
{
    // never deleted: the standard streams are flushed at exit, after static objects of ours are gone, and the
    // stream keeps pointing at it
    stream.rdbuf(new EscapingBuf(stream.rdbuf()));
}

} // namespace paretoscope::cli
