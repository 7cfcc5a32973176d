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
    int_type overflow(int_type ch) override
    {
        if (traits_type::eq_int_type(ch, traits_type::eof()))
            return traits_type::not_eof(ch);
        const char c = traits_type::to_char_type(ch);
        const auto u = static_cast<unsigned char>(c);
        if (m_pendingC2) {
            m_pendingC2 = false;
            if (u >= 0x80 && u <= 0x9f) {
                const char pair[2] { '\xc2', c };
                return put(printable(std::string_view(pair, 2))) ? ch : traits_type::eof();
            }
            if (traits_type::eq_int_type(m_inner->sputc('\xc2'), traits_type::eof()))
                return traits_type::eof();
        }
        if (u == 0xc2) {
            m_pendingC2 = true;
            return ch;
        }
        if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f)
            return put(printable(std::string_view(&c, 1))) ? ch : traits_type::eof();
        return m_inner->sputc(c) == traits_type::eof() ? traits_type::eof() : ch;
    }
    int sync() override
    {
        if (m_pendingC2) // a 0xC2 at the end of what was written: the rest of its character comes later, or never
            m_inner->sputc('\xc2');
        m_pendingC2 = false;
        return m_inner->pubsync();
    }

private:
    bool put(const std::string& s)
    {
        return m_inner->sputn(s.data(), static_cast<std::streamsize>(s.size()))
            == static_cast<std::streamsize>(s.size());
    }
    std::streambuf* m_inner;
    bool m_pendingC2 = false;
};

} // namespace

void escapeControlCharacters(std::ostream& stream)
{
    // never deleted: the standard streams are flushed at exit, after static objects of ours are gone, and the
    // stream keeps pointing at it
    stream.rdbuf(new EscapingBuf(stream.rdbuf()));
}

} // namespace paretoscope::cli
