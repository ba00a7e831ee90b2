#include "profiler/importers/chrome_json/event_chunker.h"

#include <cstdio>
#include <cstring>

// EventChunker's top-level structure: the trace object's keys, the values kept as raw
// text, the buffer refills and the errors; the events array itself is scanned by
// event_scanner.cpp.

namespace npu::profiler {

namespace {

constexpr std::size_t kReadBytes = std::size_t(1) << 20;

}  // namespace

std::string EventChunker::describeByte(int c) {
    if (c < 0) return "end of file";
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c & 0xff);
    return std::string("byte ") + hex;
}

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
        return errorAt(startOffset, "expected a value, found " + describeByte(first));
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
                                                     ", found " + describeByte(c));
            stack.pop_back();
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
                return errorAt(offsetHere() - 1, "expected '{' or '[' (a trace object or an array of events), found " + describeByte(c));
            }
            break;
        }
        case Mode::objectKey: {
            const int c = nextNonWs();
            if (m_hasReadError) return m_readError;
            if (c == '}' && m_topLevel.empty() && !m_sawEvents) {
                return errorAt(offsetHere() - 1, "expected a \"traceEvents\" key in the top-level object, found '}'");
            }
            if (c != '"') return errorAt(offsetHere() - (c < 0 ? 0 : 1), "expected a key string in the top-level object, found " + describeByte(c));
            if (auto s = readKey(key); !s) return s.error();
            const int colon = nextNonWs();
            if (colon != ':') return errorAt(offsetHere() - (colon < 0 ? 0 : 1), "expected ':' after key \"" + key + "\", found " + describeByte(colon));
            if (key == "traceEvents") {
                const int open = nextNonWs();
                if (open != '[')
                    return errorAt(offsetHere() - (open < 0 ? 0 : 1), "expected '[' to start the traceEvents array, found " + describeByte(open));
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
                return errorAt(offsetHere() - (c < 0 ? 0 : 1), "expected ',' or '}' in the top-level object, found " + describeByte(c));
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
            if (c >= 0) return errorAt(offsetHere() - 1, "expected the end of the file after the JSON document, found " + describeByte(c));
            m_mode = Mode::done;
            break;
        }
        case Mode::done: return false;
        }
    }
}

}  // namespace npu::profiler
