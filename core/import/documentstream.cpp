#include "core/import/documentstream.h"

#include <algorithm>
#include <bit>
#include <cstdint>
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
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * part));
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

} // namespace

Status forEachJsonElement(ByteSource& source, const StreamLimits& limits, const ElementFn& onElement,
    const ProgressFn& progress, const RecordPrefixFn& tryPrefix)
{
    const std::string& name = source.name();
    std::size_t cap = std::max<std::size_t>(kReadSize * 2, 1);
    std::unique_ptr<char[]> buf(new char[cap + kPadding]);
    std::size_t begin = 0, fill = 0; // unconsumed bytes are buf[begin, fill)
    bool eof = false;
    std::uint64_t consumed = 0, line = 1, index = 0;
    const std::uint64_t total = source.size();

    enum class Top { Unknown, Array, Documents } top = Top::Unknown;
    enum class Expect { Value, CommaOrEnd, Done } expect = Expect::Value;
    bool arrayOpen = false;

    auto refill = [&]() -> Status {
        if (begin > 0) {
            std::memmove(buf.get(), buf.get() + begin, fill - begin);
            fill -= begin;
            begin = 0;
        }
        if (fill >= limits.maxElementBytes)
            return Error { name + ": record " + std::to_string(index + 1) + " (line " + std::to_string(line)
                + "): larger than " + std::to_string(limits.maxElementBytes >> 20) + " MB; refusing it" };
        if (fill == cap) {
            std::size_t ncap = cap * 2;
            std::unique_ptr<char[]> nbuf(new char[ncap + kPadding]);
            std::memcpy(nbuf.get(), buf.get(), fill);
            buf = std::move(nbuf);
            cap = ncap;
        }
        auto got = source.read(buf.get() + fill, std::min(kReadSize, cap - fill));
        if (!got)
            return Error { got.error() };
        if (*got == 0)
            eof = true;
        fill += *got;
        std::memset(buf.get() + fill, 0, kPadding);
        return ok();
    };
    auto advance = [&](const char* to) {
        const char* from = buf.get() + begin;
        line += countNewlines(from, to);
        consumed += static_cast<std::uint64_t>(to - from);
        begin = static_cast<std::size_t>(to - buf.get());
    };
    auto where
        = [&]() { return name + ": record " + std::to_string(index + 1) + " (line " + std::to_string(line) + ")"; };

    for (;;) {
        // skip whitespace
        while (begin < fill && isJsonSpace(buf[begin])) {
            if (buf[begin] == '\n')
                ++line;
            ++begin;
            ++consumed;
        }
        if (begin == fill) {
            if (eof)
                break;
            if (auto st = refill(); !st)
                return st;
            if (progress && !progress(consumed, total))
                return Error { name + ": import cancelled" };
            continue;
        }
        char c = buf[begin];
        if (top == Top::Unknown) {
            if (c == '[') {
                top = Top::Array;
                arrayOpen = true;
                advance(buf.get() + begin + 1);
                continue;
            }
            if (c == '{') {
                top = Top::Documents;
            } else {
                return Error { name + ": line " + std::to_string(line) + ": not JSON: the file starts with "
                    + describe(c) + ", expected '[' or '{'" };
            }
        }
        if (top == Top::Array) {
            if (expect == Expect::Done)
                return Error { name + ": line " + std::to_string(line) + ": unexpected " + describe(c)
                    + " after the closing ']'" };
            if (c == ']' && (expect == Expect::CommaOrEnd || index == 0)) {
                arrayOpen = false;
                expect = Expect::Done;
                advance(buf.get() + begin + 1);
                continue;
            }
            if (c == ']')
                return Error { where() + ": a ',' is followed by ']' (trailing comma)" };
            if (expect == Expect::CommaOrEnd) {
                if (c != ',')
                    return Error { where() + ": expected ',' or ']' between records, found " + describe(c) };
                expect = Expect::Value;
                advance(buf.get() + begin + 1);
                continue;
            }
        } else if (c != '{') {
            return Error { where() + ": expected '{' to start the next JSON document, found " + describe(c) };
        }

        // a value starts at begin
        if (c == '{' && tryPrefix) {
            JsonElement from;
            from.text = std::string_view(buf.get() + begin, fill - begin);
            from.capacity = fill + kPadding - begin;
            from.index = index;
            from.line = line;
            auto took = tryPrefix(from);
            if (!took)
                return Error { took.error() };
            if (*took > 0) {
                advance(buf.get() + begin + *took);
                ++index;
                if (top == Top::Array)
                    expect = Expect::CommaOrEnd;
                continue;
            }
        }
        const char* endPtr = nullptr;
        ScanState st = (c == '{' || c == '[')
            ? scanContainer(buf.get() + begin, buf.get() + fill, limits.maxDepth, endPtr)
            : scanScalar(buf.get() + begin, buf.get() + fill, endPtr);
        if (st == ScanState::TooDeep)
            return Error { where() + ": nested deeper than " + std::to_string(limits.maxDepth) + " levels" };
        if (st == ScanState::NeedMore) {
            if (eof)
                return Error { where() + ": truncated: the record never ends (the file stops mid-record)" };
            if (auto s = refill(); !s)
                return s;
            if (progress && !progress(consumed, total))
                return Error { name + ": import cancelled" };
            continue;
        }
        JsonElement el;
        el.text = std::string_view(buf.get() + begin, static_cast<std::size_t>(endPtr - (buf.get() + begin)));
        el.capacity = static_cast<std::size_t>(buf.get() + fill + kPadding - el.text.data());
        el.index = index;
        el.line = line;
        if (auto s = onElement(el); !s)
            return s;
        advance(endPtr);
        ++index;
        if (top == Top::Array)
            expect = Expect::CommaOrEnd;
    }
    if (top == Top::Unknown)
        return Error { name + ": empty: no JSON in the file" };
    if (arrayOpen)
        return Error { name + ": truncated: the top-level array is never closed (after record " + std::to_string(index)
            + ", line " + std::to_string(line) + ")" };
    if (progress)
        progress(consumed, total);
    return ok();
}

} // namespace paretoscope
