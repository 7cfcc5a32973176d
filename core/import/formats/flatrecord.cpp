#include "core/import/formats/flatrecord.h"

#include "core/import/documentstream.h"
#include "core/import/formats/fieldnames.h"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace paretoscope {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// 10^0 .. 10^22: exactly representable as doubles
constexpr double kPow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

// Eight ASCII digits at p, little-endian as loaded: whether they all are digits, and their value.
bool eightDigits(const char* p, std::uint64_t& value)
{
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if (((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4))
        != 0x3333333333333333ull)
        return false;
    v -= 0x3030303030303030ull;
    v = v * 10 + (v >> 8); // pairs of digits
    value = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32)))
                + (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))))
        >> 32;
    return true;
}

constexpr std::uint64_t kPow10Int[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };

// Of the eight bytes in v (the first in the lowest byte): how many leading ones are ASCII digits, and their value.
// A byte after the digits may carry into the next when 6 is added to it, but only into bytes after it.
inline int leadingDigits(std::uint64_t v, std::uint64_t& value)
{
    const std::uint64_t notDigit = ((v & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull)
        | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
    const int n = notDigit ? std::countr_zero(notDigit) >> 3 : 8;
    if (n == 0) {
        value = 0;
        return 0;
    }
    // the digits' values, moved up so the bytes after them fall off and zeros lead: eight digits' worth
    std::uint64_t d = (v ^ 0x3030303030303030ull) << (8 * (8 - n));
    d = d * 10 + (d >> 8);
    value = (((d & 0x000000FF000000FFull) * (100 + (1000000ull << 32)))
                + (((d >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))))
        >> 32;
    return n;
}

class Scanner {
public:
    Scanner(std::string_view text, std::size_t readable)
        : m_start(text.data())
        , m_p(text.data())
        , m_end(text.data() + text.size())
        , m_limit(text.data() + (readable < text.size() ? text.size() : readable))
    {
    }

    bool skipSpace()
    {
        while (m_p < m_end && isJsonSpace(*m_p))
            ++m_p;
        return m_p < m_end;
    }
    bool take(char c)
    {
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool atEnd() const { return m_p == m_end; }
    std::size_t offset() const { return static_cast<std::size_t>(m_p - m_start); }
    char peek() const { return *m_p; }

    // A string without escapes, control characters or non-ASCII bytes; m_p is at its opening quote.
    bool string(std::string_view& out)
    {
        const char* start = ++m_p;
#if defined(__SSE2__)
        // 16 bytes at a time where they are readable: the first quote, backslash or byte outside 0x20..0x7f decides
        while (m_p + 16 <= m_limit) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(m_p));
            const __m128i stop = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))); // signed: bytes above 0x7f are negative
            const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
            if (mask == 0) {
                m_p += 16;
                continue;
            }
            m_p += std::countr_zero(mask);
            if (m_p >= m_end || *m_p != '"')
                return false;
            out = std::string_view(start, static_cast<std::size_t>(m_p - start));
            ++m_p;
            return true;
        }
#endif
        for (; m_p < m_end; ++m_p) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out = std::string_view(start, static_cast<std::size_t>(m_p - start));
                ++m_p;
                return true;
            }
            if (c == '\\' || c < 0x20 || c >= 0x80)
                return false;
        }
        return false;
    }

    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? with at most 18 integer digits (an int64 whatever they are).
    // Converted correctly rounded: exactly (Clinger's fast path) when the digits fit 53 bits and the power of ten is
    // at most 22, else by from_chars. An integer is made a double from its int64 value, as the general parser does.
    bool number(double& out)
    {
        return shortNumber(out) || anyNumber(out);
    }

    // The common case without a loop per digit: at most 7 integer digits, at most 19 digits in all, no exponent,
    // and the digits fitting 53 bits. False (m_p unchanged) for anything else, which anyNumber() then reads.
    bool shortNumber(double& out)
    {
        const char* p = m_p;
        const bool negative = *p == '-';
        p += negative;
        if (p + 32 > m_limit)
            return false;
        std::uint64_t chunk, mantissa;
        std::memcpy(&chunk, p, 8);
        const int intDigits = leadingDigits(chunk, mantissa);
        if (intDigits == 0 || intDigits == 8 || (*p == '0' && intDigits > 1))
            return false;
        p += intDigits;
        int exponent = 0;
        const bool integer = *p != '.';
        if (!integer) {
            ++p;
            int digits = intDigits;
            for (int part = 0;; ++part) {
                if (part == 3)
                    return false;
                std::uint64_t value;
                std::memcpy(&chunk, p, 8);
                const int n = leadingDigits(chunk, value);
                if (n == 0 && part == 0)
                    return false; // "1." is not a number
                if (digits + n > 19)
                    return false;
                mantissa = mantissa * kPow10Int[n] + value;
                digits += n;
                exponent -= n;
                p += n;
                if (n < 8)
                    break;
            }
            if (mantissa > (std::uint64_t(1) << 53) || exponent < -22)
                return false;
        }
        if (p >= m_end || *p == 'e' || *p == 'E')
            return false;
        const double m = static_cast<double>(mantissa); // exact: at most 53 bits, or an int64 made a double
        if (integer)
            out = negative && mantissa != 0 ? -m : m; // "-0" is 0: an integer zero has no sign
        else
            out = negative ? -(m / kPow10[-exponent]) : m / kPow10[-exponent]; // one rounding of exact operands
        m_p = p;
        return true;
    }

    bool anyNumber(double& out)
    {
        const char* start = m_p;
        const char* p = m_p;
        const bool negative = p < m_end && *p == '-';
        if (negative)
            ++p;
        const char* intStart = p;
        std::uint64_t mantissa = 0;
        int significant = 0; // digits in mantissa (leading zeros need not count); more than 19: from_chars
        int exponent = 0;
        if (p < m_end && *p == '0') {
            ++p;
        } else if (p < m_end && *p >= '1' && *p <= '9') {
            while (p < m_end && isDigit(*p)) {
                mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
                ++significant;
                ++p;
            }
        } else {
            return false;
        }
        if (p - intStart > 18)
            return false; // the general parser decides what a larger integer is
        bool integer = true;
        if (p < m_end && *p == '.') {
            integer = false;
            ++p;
            if (p == m_end || !isDigit(*p))
                return false;
            std::uint64_t eight = 0;
            while (significant <= 11 && p + 8 <= m_end && eightDigits(p, eight)) {
                mantissa = mantissa * 100000000 + eight;
                significant += 8; // leading zeros counted too: at worst from_chars is asked sooner
                exponent -= 8;
                p += 8;
            }
            while (p < m_end && isDigit(*p)) {
                if (significant < 19) {
                    mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
                    significant += mantissa != 0;
                    --exponent;
                } else {
                    significant = 20;
                }
                ++p;
            }
        }
        if (p < m_end && (*p == 'e' || *p == 'E')) {
            integer = false;
            ++p;
            bool negativeExp = false;
            if (p < m_end && (*p == '+' || *p == '-'))
                negativeExp = *p++ == '-';
            if (p == m_end || !isDigit(*p))
                return false;
            int e = 0;
            while (p < m_end && isDigit(*p)) {
                if (e < 100000)
                    e = e * 10 + (*p - '0');
                ++p;
            }
            exponent += negativeExp ? -e : e;
        }
        if (integer) {
            out = static_cast<double>(mantissa); // rounded to nearest, as an int64 made a double is
            if (negative && mantissa != 0)
                out = -out; // "-0" is 0: an integer zero has no sign
        } else if (significant <= 19 && mantissa <= (std::uint64_t(1) << 53) && exponent >= -22 && exponent <= 22) {
            const double m = static_cast<double>(mantissa); // exact
            out = exponent >= 0 ? m * kPow10[exponent] : m / kPow10[-exponent]; // one rounding of exact operands
            if (negative)
                out = -out;
        } else {
            auto [ptr, ec] = std::from_chars(start, p, out);
            if (ec != std::errc() || ptr != p)
                return false; // out of range: the general parser says what it makes of it
        }
        m_p = p;
        return true;
    }

    bool literal(std::string_view word)
    {
        if (static_cast<std::size_t>(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

private:
    const char* m_start;
    const char* m_p;
    const char* m_end;
    const char* m_limit;
};

} // namespace

namespace {

// The object at the start of text; with `length`, stops after its closing brace, else the text must end there
// (whitespace aside).
bool readFlatObject(
    std::string_view text, std::size_t readable, RecordMapper& mapper, Status& status, std::size_t* length)
{
    status = ok();
    bool feeding = true; // until the mapper refuses a field; the rest is still checked
    thread_local FieldNames keys;
    keys.clear();
    Scanner s(text, readable);
    if (!s.skipSpace() || !s.take('{') || !s.skipSpace())
        return false;
    if (!s.take('}')) {
        for (;;) {
            std::string_view key;
            if (s.peek() != '"' || !s.string(key) || !s.skipSpace() || !s.take(':') || !s.skipSpace())
                return false;
            FieldValue v;
            const char c = s.peek();
            if (c == '"') {
                v.kind = FieldValue::Kind::Text;
                if (!s.string(v.text))
                    return false;
            } else if (c == '-' || isDigit(c)) {
                v.kind = FieldValue::Kind::Number;
                if (!s.number(v.number))
                    return false;
            } else if (c == 't' || c == 'f') {
                v.kind = FieldValue::Kind::Bool;
                v.boolean = c == 't';
                if (!s.literal(c == 't' ? "true" : "false"))
                    return false;
            } else if (c == 'n') {
                if (!s.literal("null"))
                    return false;
            } else {
                return false; // nested values and anything else: the general parser
            }
            if (feeding && !keys.insert(key)) {
                status = Error { "field '" + std::string(key.substr(0, 200)) + "': given twice in the record" };
                feeding = false;
            }
            if (feeding) {
                if (Status st = mapper.field(key, v); !st) { // assigned only when refused: the common case is cheap
                    status = std::move(st);
                    feeding = false;
                }
            }
            if (!s.skipSpace())
                return false;
            if (s.take('}'))
                break;
            if (!s.take(',') || !s.skipSpace())
                return false;
        }
    }
    if (length) {
        *length = s.offset();
        return true;
    }
    s.skipSpace();
    return s.atEnd();
}

} // namespace

bool readFlatRecord(std::string_view text, std::size_t readable, RecordMapper& mapper, Status& status)
{
    return readFlatObject(text, readable, mapper, status, nullptr);
}

bool readFlatRecordPrefix(
    std::string_view text, std::size_t readable, RecordMapper& mapper, Status& status, std::size_t& length)
{
    return readFlatObject(text, readable, mapper, status, &length);
}

} // namespace paretoscope
