#include "core/import/documentstream.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace paretoscope {
namespace {

constexpr std::size_t kPadding = 64; // simdjson::SIMDJSON_PADDING
constexpr std::size_t kReadSize = 256u << 10; // read in pieces that stay in the cache until they are split and parsed

enum class ScanState { Complete, NeedMore, TooDeep };

// The characters the container scan acts on, for 64 bytes at p: one bit per byte in each mask. Reads 64 bytes; the
// window always has kPadding readable bytes past its end.
struct BlockMasks {
    std::uint64_t quotes = 0, backslashes = 0, opens = 0, closes = 0;
};

BlockMasks blockMasks(const char* p)
{
    BlockMasks m;
#if defined(__SSE2__)
    for (int part = 0; part < 4; ++part) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + std::ptrdiff_t { 16 } * part));
        // '[' and '{' (0x5b 0x7b), ']' and '}' (0x5d 0x7d) differ only in bit 0x20: clear it and compare once
        __m128i folded = _mm_andnot_si128(_mm_set1_epi8(0x20), v);
        auto bits = [&](__m128i eq) {
            return std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(eq))) << (16 * part);
        };
        m.quotes |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        m.backslashes |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        m.opens |= bits(_mm_cmpeq_epi8(folded, _mm_set1_epi8(0x5b)));
        m.closes |= bits(_mm_cmpeq_epi8(folded, _mm_set1_epi8(0x5d)));
    }
#else
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t(1) << i;
        switch (p[i]) {
        case '"':
            m.quotes |= bit;
            break;
        case '\\':
            m.backslashes |= bit;
            break;
        case '{':
        case '[':
            m.opens |= bit;
            break;
        case '}':
        case ']':
            m.closes |= bit;
            break;
        default:
            break;
        }
    }
#endif
    return m;
}

// Bit i of the result is the parity of the bits 0..i of x: with x the quotes of a block, the bytes inside a string
// (from its opening quote up to, not including, its closing one).
std::uint64_t prefixXor(std::uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Finds the end of the container value starting at p ('{' or '['), 64 bytes at a time. A block without a backslash
// (nearly all of them) is done with masks: which bytes lie inside strings follows from the quotes alone, and only the
// brackets outside strings are visited. A block with a backslash is walked character by character through its
// quotes, backslashes and brackets, where a backslash inside a string escapes the character after it.
ScanState scanContainer(const char* p, const char* end, int maxDepth, const char*& out)
{
    const std::size_t n = static_cast<std::size_t>(end - p);
    int depth = 0;
    bool inString = false;
    std::size_t escaped = 0; // position of a character escaped by the backslash before it, plus one (0: none)
    for (std::size_t i = 0; i < n; i += 64) {
        BlockMasks b = blockMasks(p + i);
        if (n - i < 64) {
            const std::uint64_t keep = (std::uint64_t(1) << (n - i)) - 1;
            b.quotes &= keep;
            b.backslashes &= keep;
            b.opens &= keep;
            b.closes &= keep;
        }
        if (b.backslashes == 0 && escaped <= i) {
            const std::uint64_t inside = prefixXor(b.quotes) ^ (inString ? ~std::uint64_t(0) : 0);
            inString ^= (std::popcount(b.quotes) & 1) != 0;
            std::uint64_t brackets = (b.opens | b.closes) & ~inside;
            while (brackets) {
                const int bit = std::countr_zero(brackets);
                brackets &= brackets - 1;
                if ((b.opens >> bit) & 1) {
                    if (++depth > maxDepth)
                        return ScanState::TooDeep;
                } else if (--depth == 0) {
                    out = p + i + static_cast<std::size_t>(bit) + 1;
                    return ScanState::Complete;
                }
            }
            continue;
        }
        std::uint64_t m = b.quotes | b.backslashes | b.opens | b.closes;
        while (m) {
            const std::size_t pos = i + static_cast<std::size_t>(std::countr_zero(m));
            m &= m - 1;
            if (pos + 1 == escaped)
                continue;
            const char c = p[pos];
            if (inString) {
                if (c == '\\')
                    escaped = pos + 2;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > maxDepth)
                    return ScanState::TooDeep;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    out = p + pos + 1;
                    return ScanState::Complete;
                }
            }
        }
    }
    return ScanState::NeedMore;
}

// Ends a scalar array element (number, literal or string) at the next ',' / ']' / whitespace outside a string.
ScanState scanScalar(const char* p, const char* end, const char*& out)
{
    const char* q = p;
    if (*q == '"') {
        ++q;
        while (q < end && *q != '"') {
            if (*q == '\\')
                ++q;
            ++q;
        }
        if (q >= end)
            return ScanState::NeedMore;
        out = q + 1;
        return ScanState::Complete;
    }
    while (q < end && *q != ',' && *q != ']' && *q != '}' && !isJsonSpace(*q))
        ++q;
    if (q >= end)
        return ScanState::NeedMore;
    out = q;
    return ScanState::Complete;
}

// memchr jumps from line to line; a byte-by-byte count was half the splitter's time on one-record-per-line files
std::uint64_t countNewlines(const char* from, const char* to)
{
    std::uint64_t n = 0;
    while (from < to) {
        const void* hit = std::memchr(from, '\n', static_cast<std::size_t>(to - from));
        if (!hit)
            break;
        ++n;
        from = static_cast<const char*>(hit) + 1;
    }
    return n;
}

std::string describe(char c)
{
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + c + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned char>(c));
    return buf;
}

// The state of one pass over a stream: the window of unconsumed bytes, buf[begin, fill) with kPadding readable bytes
// past fill, that grows to hold a record that does not fit (up to the limit); where the pass is (bytes, line, record);
// and the structure between records, checked as the records are cut out.
class ElementSplitter {
public:
    ElementSplitter(ByteSource& source, const StreamLimits& limits)
        : m_source(source)
        , m_name(source.name())
        , m_limits(limits)
        , m_buf(new char[m_cap + kPadding])
        , m_total(source.size())
    {
    }

    Status run(const ElementFn& onElement, const ProgressFn& progress, const RecordPrefixFn& tryPrefix)
    {
        for (;;) {
            skipWhitespace();
            if (m_begin == m_fill) {
                if (m_eof)
                    break;
                if (auto st = readMore(progress); !st)
                    return st;
                continue;
            }
            const char c = m_buf[m_begin];
            auto valueStarts = between(c);
            if (!valueStarts)
                return Error { valueStarts.error() };
            if (!*valueStarts)
                continue;
            if (c == '{' && tryPrefix) {
                auto took = offer(tryPrefix);
                if (!took)
                    return Error { took.error() };
                if (*took)
                    continue;
            }
            const char* endPtr = nullptr;
            const ScanState st = (c == '{' || c == '[')
                ? scanContainer(m_buf.get() + m_begin, m_buf.get() + m_fill, m_limits.maxDepth, endPtr)
                : scanScalar(m_buf.get() + m_begin, m_buf.get() + m_fill, endPtr);
            if (st == ScanState::TooDeep)
                return Error { where() + ": nested deeper than " + std::to_string(m_limits.maxDepth) + " levels" };
            if (st == ScanState::NeedMore) {
                if (m_eof)
                    return Error { where() + ": truncated: the record never ends (the file stops mid-record)" };
                if (auto s = readMore(progress); !s)
                    return s;
                continue;
            }
            if (auto s = onElement(element(endPtr)); !s)
                return s;
            recordEnds(endPtr);
        }
        return finish(progress);
    }

private:
    enum class Top { Unknown, Array, Documents };
    enum class Expect { Value, CommaOrEnd, Done };

    // Reads the next piece into the window, growing it when it is full; refuses a record larger than the limit.
    Status refill()
    {
        if (m_begin > 0) {
            std::memmove(m_buf.get(), m_buf.get() + m_begin, m_fill - m_begin);
            m_fill -= m_begin;
            m_begin = 0;
        }
        if (m_fill >= m_limits.maxElementBytes)
            return Error { where() + ": larger than " + std::to_string(m_limits.maxElementBytes >> 20)
                + " MB; refusing it" };
        if (m_fill == m_cap) {
            const std::size_t ncap = m_cap * 2;
            std::unique_ptr<char[]> nbuf(new char[ncap + kPadding]);
            std::memcpy(nbuf.get(), m_buf.get(), m_fill);
            m_buf = std::move(nbuf);
            m_cap = ncap;
        }
        auto got = m_source.read(m_buf.get() + m_fill, std::min(kReadSize, m_cap - m_fill));
        if (!got)
            return Error { got.error() };
        if (*got == 0)
            m_eof = true;
        m_fill += *got;
        std::memset(m_buf.get() + m_fill, 0, kPadding);
        return ok();
    }

    Status readMore(const ProgressFn& progress)
    {
        if (auto st = refill(); !st)
            return st;
        if (progress && !progress(m_consumed, m_total))
            return Error { m_name + ": import cancelled" };
        return ok();
    }

    void advance(const char* to)
    {
        const char* from = m_buf.get() + m_begin;
        m_line += countNewlines(from, to);
        m_consumed += static_cast<std::uint64_t>(to - from);
        m_begin = static_cast<std::size_t>(to - m_buf.get());
    }

    void skipWhitespace()
    {
        while (m_begin < m_fill && isJsonSpace(m_buf[m_begin])) {
            if (m_buf[m_begin] == '\n')
                ++m_line;
            ++m_begin;
            ++m_consumed;
        }
    }

    std::string where() const
    {
        return m_name + ": record " + std::to_string(m_index + 1) + " (line " + std::to_string(m_line) + ")";
    }

    // The structure between records, at c (the first byte that is not whitespace): true when a record starts at c,
    // false when c was punctuation and has been consumed.
    Result<bool> between(char c)
    {
        if (m_top == Top::Unknown) {
            if (c == '[') {
                m_top = Top::Array;
                m_arrayOpen = true;
                advance(m_buf.get() + m_begin + 1);
                return false;
            }
            if (c != '{')
                return Error { m_name + ": line " + std::to_string(m_line) + ": not JSON: the file starts with "
                    + describe(c) + ", expected '[' or '{'" };
            m_top = Top::Documents;
        }
        if (m_top == Top::Documents) {
            if (c != '{')
                return Error { where() + ": expected '{' to start the next JSON document, found " + describe(c) };
            return true;
        }
        if (m_expect == Expect::Done)
            return Error { m_name + ": line " + std::to_string(m_line) + ": unexpected " + describe(c)
                + " after the closing ']'" };
        if (c == ']' && (m_expect == Expect::CommaOrEnd || m_index == 0)) {
            m_arrayOpen = false;
            m_expect = Expect::Done;
            advance(m_buf.get() + m_begin + 1);
            return false;
        }
        if (c == ']')
            return Error { where() + ": a ',' is followed by ']' (trailing comma)" };
        if (m_expect == Expect::CommaOrEnd) {
            if (c != ',')
                return Error { where() + ": expected ',' or ']' between records, found " + describe(c) };
            m_expect = Expect::Value;
            advance(m_buf.get() + m_begin + 1);
            return false;
        }
        return true;
    }

    // Offers the record starting at begin to tryPrefix; true when it read the record (which is then consumed).
    Result<bool> offer(const RecordPrefixFn& tryPrefix)
    {
        JsonElement from;
        from.text = std::string_view(m_buf.get() + m_begin, m_fill - m_begin);
        from.capacity = m_fill + kPadding - m_begin;
        from.index = m_index;
        from.line = m_line;
        auto took = tryPrefix(from);
        if (!took)
            return Error { took.error() };
        if (*took == 0)
            return false;
        recordEnds(m_buf.get() + m_begin + *took);
        return true;
    }

    JsonElement element(const char* endPtr) const
    {
        JsonElement el;
        el.text = std::string_view(m_buf.get() + m_begin, static_cast<std::size_t>(endPtr - (m_buf.get() + m_begin)));
        el.capacity = static_cast<std::size_t>(m_buf.get() + m_fill + kPadding - el.text.data());
        el.index = m_index;
        el.line = m_line;
        return el;
    }

    void recordEnds(const char* endPtr)
    {
        advance(endPtr);
        ++m_index;
        if (m_top == Top::Array)
            m_expect = Expect::CommaOrEnd;
    }

    Status finish(const ProgressFn& progress) const
    {
        if (m_top == Top::Unknown)
            return Error { m_name + ": empty: no JSON in the file" };
        if (m_arrayOpen)
            return Error { m_name + ": truncated: the top-level array is never closed (after record "
                + std::to_string(m_index) + ", line " + std::to_string(m_line) + ")" };
        if (progress)
            progress(m_consumed, m_total);
        return ok();
    }

    ByteSource& m_source;
    const std::string& m_name;
    const StreamLimits& m_limits;
    std::size_t m_cap { kReadSize * 2 };
    std::unique_ptr<char[]> m_buf;
    std::size_t m_begin = 0, m_fill = 0; // unconsumed bytes are m_buf[m_begin, m_fill)
    bool m_eof = false;
    std::uint64_t m_consumed = 0, m_line = 1, m_index = 0;
    const std::uint64_t m_total;
    Top m_top = Top::Unknown;
    Expect m_expect = Expect::Value;
    bool m_arrayOpen = false;
};

} // namespace

Status forEachJsonElement(ByteSource& source, const StreamLimits& limits, const ElementFn& onElement,
    const ProgressFn& progress, const RecordPrefixFn& tryPrefix)
{
    ElementSplitter splitter(source, limits);
    return splitter.run(onElement, progress, tryPrefix);
}

} // namespace paretoscope
