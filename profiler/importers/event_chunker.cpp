#include "profiler/importers/event_chunker.h"

#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npu::profiler {

namespace {

constexpr std::size_t kReadBytes = std::size_t(1) << 20;

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

bool isWs(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string describe(int c) {
    if (c < 0) return "end of file";
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c & 0xff);
    return std::string("byte ") + hex;
}

}  // namespace

void EventBatch::assign(const char* events, std::size_t n, std::uint64_t offset, std::size_t count) {
    const std::size_t need = n + 2 + kJsonPadding;
    if (capacity < need) {
        capacity = need + need / 4;
        text.reset(new char[capacity]);
    }
    text[0] = '[';
    std::memcpy(text.get() + 1, events, n);
    text[n + 1] = ']';
    std::memset(text.get() + n + 2, ' ', kJsonPadding);
    length = n + 2;
    streamOffset = offset;
    this->events = count;
}

EventChunker::EventChunker(ByteSource& source, std::string fileName, std::size_t batchBytes)
    : m_source(source), m_name(std::move(fileName)), m_batchBytes(batchBytes) {
    m_buf.resize(batchBytes + 2 * kReadBytes);
}

Error EventChunker::errorAt(std::uint64_t offset, const std::string& what) const {
    std::string where = m_source.compressed() ? " of the decompressed JSON" : "";
    return makeError(m_name + ": byte " + std::to_string(offset) + where + ": " + what);
}

Expected<bool> EventChunker::refill() {
    if (m_eof) return false;
    // Keep the batch being assembled; everything before it is consumed.
    std::size_t keep = m_batchStart != kNone ? m_batchStart : m_pos;
    if (m_mode == Mode::events && m_batchStart == kNone && !m_stack.empty()) keep = m_elemStart;
    if (keep > 0) {
        std::memmove(m_buf.data(), m_buf.data() + keep, m_end - keep);
        m_base += keep;
        m_pos -= keep;
        m_end -= keep;
        if (m_batchStart != kNone) m_batchStart -= keep;
        m_lastBoundary = m_lastBoundary >= keep ? m_lastBoundary - keep : 0;
        m_elemStart = m_elemStart >= keep ? m_elemStart - keep : 0;
    }
    if (m_buf.size() - m_end < kReadBytes) m_buf.resize(m_buf.size() * 2);  // one event larger than a batch
    auto got = m_source.read(m_buf.data() + m_end, kReadBytes);
    if (!got) {
        m_readError = got.error();
        m_hasReadError = true;
        return m_readError;
    }
    if (*got == 0) {
        m_eof = true;
        return false;
    }
    m_end += *got;
    return true;
}

int EventChunker::nextNonWs() {
    for (;;) {
        while (m_pos < m_end) {
            const unsigned char c = static_cast<unsigned char>(m_buf[m_pos++]);
            if (!isWs(c)) return c;
        }
        auto more = refill();
        if (!more || !*more) return -1;
    }
}

Status EventChunker::readKey(std::string& key) {
    // Called after the opening quote; keys are short, escapes kept verbatim.
    key.clear();
    for (;;) {
        if (m_pos == m_end) {
            auto more = refill();
            if (!more) return more.error();
            if (!*more) return errorAt(offsetHere(), "unexpected end of file inside a key: expected '\"'");
        }
        const char c = m_buf[m_pos++];
        if (c == '"') return {};
        if (c == '\\') {
            key += c;
            if (m_pos == m_end && !refill().ok()) return m_readError;
            if (m_pos == m_end) return errorAt(offsetHere(), "unexpected end of file inside a key");
            key += m_buf[m_pos++];
            continue;
        }
        key += c;
    }
}

Status EventChunker::captureValue(std::string& into) {
    // Raw text of one top-level value (deviceProperties, distributedInfo, ...).
    constexpr std::size_t kMaxKept = std::size_t(4) << 20;
    into.clear();
    bool dropped = false;
    auto keep = [&](char c) {
        if (dropped) return;
        if (into.size() >= kMaxKept) {
            dropped = true;
            into.clear();
            return;
        }
        into += c;
    };
    const int first = nextNonWs();
    if (first < 0) return errorAt(offsetHere(), "unexpected end of file: expected a value");
    const std::uint64_t startOffset = offsetHere() - 1;
    std::string stack;
    bool inString = first == '"';
    bool escape = false;
    keep(static_cast<char>(first));
    if (first == '{') stack += '}';
    else if (first == '[') stack += ']';
    else if (first == '}' || first == ']' || first == ',' || first == ':')
        return errorAt(startOffset, "expected a value, found " + describe(first));
    const bool scalar = stack.empty() && !inString;
    for (;;) {
        if (!inString && stack.empty() && !scalar) return {};
        if (m_pos == m_end) {
            auto more = refill();
            if (!more) return more.error();
            if (!*more) {
                if (scalar) return {};
                return errorAt(offsetHere(), "unexpected end of file inside the value starting at byte " +
                                                 std::to_string(startOffset) + ": expected " +
                                                 (inString ? std::string("'\"'") : "'" + stack.substr(stack.size() - 1) + "'"));
            }
        }
        const char c = m_buf[m_pos];
        if (inString) {
            ++m_pos;
            keep(c);
            if (escape) escape = false;
            else if (c == '\\') escape = true;
            else if (c == '"') {
                inString = false;
                if (stack.empty()) return {};
            }
            continue;
        }
        if (scalar && (c == ',' || c == '}' || c == ']' || isWs(c))) return {};
        ++m_pos;
        keep(c);
        if (c == '"') inString = true;
        else if (c == '{') stack += '}';
        else if (c == '[') stack += ']';
        else if (c == '}' || c == ']') {
            if (stack.empty() || stack.back() != c)
                return errorAt(offsetHere() - 1, "expected " + (stack.empty() ? std::string("a value") : "'" + stack.substr(stack.size() - 1) + "'") +
                                                     ", found " + describe(c));
            stack.pop_back();
        }
    }
}

void EventChunker::emitBatch(EventBatch& out) {
    out.assign(m_buf.data() + m_batchStart, m_lastBoundary - m_batchStart, m_base + m_batchStart, m_batchEvents);
    m_batchStart = kNone;
    m_batchEvents = 0;
}

Expected<bool> EventChunker::scanEvents(EventBatch& out) {
    for (;;) {
        if (m_pos == m_end) {
            auto more = refill();
            if (!more) return more.error();
            if (!*more) {
                if (!m_stack.empty())
                    return errorAt(offsetHere(), "unexpected end of file inside the event starting at byte " +
                                                     std::to_string(m_base + m_elemStart) + ": expected " +
                                                     (m_inString ? std::string("'\"'") : "'" + m_stack.substr(m_stack.size() - 1) + "'"));
                if (!m_bare)
                    return errorAt(offsetHere(), "unexpected end of file inside the traceEvents array: expected ',' or ']'");
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
                                                 describe(static_cast<unsigned char>(c)));
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
                                           "expected '" + m_stack.substr(m_stack.size() - 1) + "', found " + describe(static_cast<unsigned char>(c)));
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
                                   "expected '" + m_stack.substr(m_stack.size() - 1) + "', found " + describe(static_cast<unsigned char>(c)));
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

Expected<bool> EventChunker::next(EventBatch& out) {
    std::string key, value;
    for (;;) {
        switch (m_mode) {
        case Mode::start: {
            // A UTF-8 byte order mark is tolerated before the document.
            int c = nextNonWs();
            if (m_hasReadError) return m_readError;
            if (c == 0xEF) {
                const int b = nextNonWs(), d = nextNonWs();
                if (b == 0xBB && d == 0xBF) c = nextNonWs();
                else return errorAt(0, "not JSON: expected '{' or '[' at the start of the file");
            }
            if (c < 0) return errorAt(offsetHere(), "empty file: expected a JSON object with \"traceEvents\" or an array of events");
            if (c == '[') {
                m_bare = true;
                m_sawEvents = true;
                m_mode = Mode::events;
            } else if (c == '{') {
                m_mode = Mode::objectKey;
            } else {
                return errorAt(offsetHere() - 1, "expected '{' or '[' (a trace object or an array of events), found " + describe(c));
            }
            break;
        }
        case Mode::objectKey: {
            const int c = nextNonWs();
            if (m_hasReadError) return m_readError;
            if (c == '}' && m_topLevel.empty() && !m_sawEvents) {
                return errorAt(offsetHere() - 1, "expected a \"traceEvents\" key in the top-level object, found '}'");
            }
            if (c != '"') return errorAt(offsetHere() - (c < 0 ? 0 : 1), "expected a key string in the top-level object, found " + describe(c));
            if (auto s = readKey(key); !s) return s.error();
            const int colon = nextNonWs();
            if (colon != ':') return errorAt(offsetHere() - (colon < 0 ? 0 : 1), "expected ':' after key \"" + key + "\", found " + describe(colon));
            if (key == "traceEvents") {
                const int open = nextNonWs();
                if (open != '[')
                    return errorAt(offsetHere() - (open < 0 ? 0 : 1), "expected '[' to start the traceEvents array, found " + describe(open));
                m_sawEvents = true;
                m_mode = Mode::events;
                break;
            }
            if (auto s = captureValue(value); !s) return s.error();
            m_topLevel.emplace_back(key, value);
            m_mode = Mode::objectAfterValue;
            break;
        }
        case Mode::objectAfterValue: {
            const int c = nextNonWs();
            if (m_hasReadError) return m_readError;
            if (c == ',') {
                m_mode = Mode::objectKey;
            } else if (c == '}') {
                if (!m_sawEvents) return errorAt(offsetHere() - 1, "expected a \"traceEvents\" key in the top-level object, found '}'");
                m_mode = Mode::trailer;
            } else {
                return errorAt(offsetHere() - (c < 0 ? 0 : 1), "expected ',' or '}' in the top-level object, found " + describe(c));
            }
            break;
        }
        case Mode::events: {
            auto r = scanEvents(out);
            if (!r || *r) return r;
            break;
        }
        case Mode::trailer: {
            const int c = nextNonWs();
            if (m_hasReadError) return m_readError;
            if (c >= 0) return errorAt(offsetHere() - 1, "expected the end of the file after the JSON document, found " + describe(c));
            m_mode = Mode::done;
            break;
        }
        case Mode::done: return false;
        }
    }
}

}  // namespace npu::profiler
