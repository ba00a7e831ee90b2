#include "profiler/importers/chrome_json/event_chunker.h"

#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The events array scanner of EventChunker: finds where whole events end without
// parsing them (strings, escapes and nesting tracked 64 bytes at a time), and hands
// batches of them out. The top-level structure around the array is event_chunker.cpp's.

namespace npu::profiler {

namespace {

// Bytes that matter to the scanner outside and inside strings.
constexpr std::array<bool, 256> makeTable(const char* chars) {
    std::array<bool, 256> t{};
    for (const char* c = chars; *c; ++c) t[static_cast<unsigned char>(*c)] = true;
    return t;
}
constexpr auto kStructural = makeTable("\"{}[]");
constexpr auto kInString = makeTable("\"\\");

// The next byte that matters to the scanner: '"' or '\\' inside a string, '"' or a
// bracket outside. 16 bytes at a time where SSE2 is there (every x86-64); the scan
// would otherwise cost as much as simdjson's whole parse.
const char* nextInteresting(const char* p, const char* end, bool inString) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i openBrace = _mm_set1_epi8('{');   // '[' | 0x20
    const __m128i closeBrace = _mm_set1_epi8('}');  // ']' | 0x20
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i hit = _mm_cmpeq_epi8(v, quote);
        if (inString) {
            hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, backslash));
        } else {
            const __m128i folded = _mm_or_si128(v, lower);
            hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(folded, openBrace), _mm_cmpeq_epi8(folded, closeBrace)));
        }
        const int mask = _mm_movemask_epi8(hit);
        if (mask) return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    const auto& table = inString ? kInString : kStructural;
    while (p < end && !table[static_cast<unsigned char>(*p)]) ++p;
    return p;
}

#if defined(__SSE2__)
struct BlockMasks {
    std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

BlockMasks blockMasks(const char* p) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i openBrace = _mm_set1_epi8('{');   // '[' | 0x20
    const __m128i closeBrace = _mm_set1_epi8('}');  // ']' | 0x20
    BlockMasks m;
    for (int k = 0; k < 4; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i folded = _mm_or_si128(v, lower);
        const int shift = 16 * k;
        m.quote |= std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)))) << shift;
        m.backslash |= std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)))) << shift;
        m.open |= std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, openBrace)))) << shift;
        m.close |= std::uint64_t(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, closeBrace)))) << shift;
    }
    return m;
}

// Bit i set when byte i is inside a string (from its opening quote, excluded its closing one).
std::uint64_t prefixXor(std::uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}
#endif


}  // namespace

void EventChunker::emitBatch(EventBatch& out) {
    out.assign(m_buf.data() + m_batchStart, m_lastBoundary - m_batchStart, m_base + m_batchStart, m_batchEvents);
    m_batchStart = kNone;
    m_batchEvents = 0;
}

Expected<bool> EventChunker::endAtCut(EventBatch& out, Error cut) {
    if (!m_keepBeforeCut) return cut;
    m_truncation = cut.message;
    m_mode = Mode::done;
    if (m_batchStart != kNone && m_batchEvents > 0) {  // the whole events before the cut
        emitBatch(out);
        return true;
    }
    m_batchStart = kNone;
    return false;
}

Expected<bool> EventChunker::scanEvents(EventBatch& out) {
    for (;;) {
        if (m_pos == m_end) {
            auto more = refill();
            if (!more) return m_source.truncated() ? endAtCut(out, more.error()) : more.error();
            if (!*more) {
                if (!m_stack.empty())
                    return endAtCut(out, errorAt(offsetHere(), "unexpected end of file inside the event starting at byte " +
                                                                   std::to_string(m_base + m_elemStart) + ": expected " +
                                                                   (m_inString ? std::string("'\"'") : "'" + m_stack.substr(m_stack.size() - 1) + "'")));
                if (!m_bare)
                    return endAtCut(out, errorAt(offsetHere(), "unexpected end of file inside the traceEvents array: expected ',' or ']'"));
                m_unterminated = true;
                m_mode = Mode::done;
                if (m_batchStart != kNone) {
                    emitBatch(out);
                    return true;
                }
                return false;
            }
        }
        if (m_stack.empty()) {  // between events
            const char c = m_buf[m_pos];
            if (isWs(c)) {
                ++m_pos;
                continue;
            }
            if (c == ',') {
                if (m_expectValue) return errorAt(offsetHere(), "expected an event object, found ','");
                m_expectValue = true;
                ++m_pos;
                continue;
            }
            if (c == ']') {
                ++m_pos;
                m_mode = m_bare ? Mode::trailer : Mode::objectAfterValue;
                if (m_batchStart != kNone) {
                    emitBatch(out);
                    return true;
                }
                return false;
            }
            if (c != '{') {
                return errorAt(offsetHere(), (m_expectValue ? "expected an event object '{', found " : "expected ',' or ']', found ") +
                                                 describeByte(static_cast<unsigned char>(c)));
            }
            if (!m_expectValue) return errorAt(offsetHere(), "expected ',' or ']' between events, found '{'");
            if (m_batchStart == kNone) m_batchStart = m_pos;
            m_elemStart = m_pos;
            m_stack.push_back('}');
            m_expectValue = false;
            ++m_pos;
            continue;
        }
        // Inside an event: only quotes, escapes and brackets matter.
        const char* p = m_buf.data() + m_pos;
        const char* end = m_buf.data() + m_end;
        const char* scalarUntil = p;
        bool eventEnded = false;
        while (p < end) {
#if defined(__SSE2__)
            // 64 bytes at a time: strings masked out with a prefix XOR of the quotes, then
            // only the brackets are visited. Blocks with a backslash take the byte path.
            if (!m_escape && p >= scalarUntil && end - p >= 64) {
                const BlockMasks m = blockMasks(p);
                if (m.backslash != 0) {
                    scalarUntil = p + 64;
                } else {
                    const std::uint64_t inString = prefixXor(m.quote) ^ (m_inString ? ~std::uint64_t(0) : 0);
                    std::uint64_t brackets = (m.open | m.close) & ~inString;
                    while (brackets) {
                        const int i = __builtin_ctzll(brackets);
                        brackets &= brackets - 1;
                        const char c = p[i];
                        if (c == '{' || c == '[') {
                            m_stack.push_back(c == '{' ? '}' : ']');
                            continue;
                        }
                        if (m_stack.back() != c)
                            return errorAt(m_base + (p + i - m_buf.data()),
                                           "expected '" + m_stack.substr(m_stack.size() - 1) + "', found " + describeByte(static_cast<unsigned char>(c)));
                        m_stack.pop_back();
                        if (m_stack.empty()) {
                            p += i + 1;
                            m_inString = false;
                            eventEnded = true;
                            break;
                        }
                    }
                    if (eventEnded) break;
                    m_inString = (inString >> 63) != 0;
                    p += 64;
                    continue;
                }
            }
#endif
            if (m_escape) {
                m_escape = false;
                ++p;
                continue;
            }
            if (m_inString) {
                p = nextInteresting(p, end, true);
                if (p == end) break;
                if (*p == '"') m_inString = false;
                else m_escape = true;
                ++p;
                continue;
            }
            p = nextInteresting(p, end, false);
            if (p == end) break;
            const char c = *p++;
            if (c == '"') {
                m_inString = true;
            } else if (c == '{') {
                m_stack.push_back('}');
            } else if (c == '[') {
                m_stack.push_back(']');
            } else {
                if (m_stack.back() != c)
                    return errorAt(m_base + (p - 1 - m_buf.data()),
                                   "expected '" + m_stack.substr(m_stack.size() - 1) + "', found " + describeByte(static_cast<unsigned char>(c)));
                m_stack.pop_back();
                if (m_stack.empty()) {
                    eventEnded = true;
                    break;
                }
            }
        }
        m_pos = static_cast<std::size_t>(p - m_buf.data());
        if (eventEnded) {
            m_lastBoundary = m_pos;
            ++m_batchEvents;
            if (m_lastBoundary - m_batchStart >= m_batchBytes) {
                emitBatch(out);
                return true;
            }
        }
    }
}

}  // namespace npu::profiler
