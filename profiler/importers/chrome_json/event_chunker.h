#pragma once
// Splits a Chrome trace (an object with "traceEvents", or a bare array) into batches
// of whole events without parsing them, so simdjson only ever sees a few MB at a time
// and memory stays independent of the file size. Top-level keys other than
// traceEvents (deviceProperties, distributedInfo, ...) are kept as raw JSON text.
// Structural errors (not JSON, truncated, wrong top-level type) name the byte offset
// of the decompressed stream and what was expected there.

#include "base/expected.h"
#include "profiler/importers/common/byte_source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npu::profiler {

// simdjson reads up to this many bytes past the end of its input (SIMDJSON_PADDING).
inline constexpr std::size_t kJsonPadding = 64;

// '[' + whole events + ']' + simdjson padding, and where it came from.
struct EventBatch {
    std::unique_ptr<char[]> text;
    std::size_t capacity = 0;
    std::size_t length = 0;            // of the JSON text, without padding
    std::uint64_t streamOffset = 0;    // stream offset of text[1]
    std::size_t events = 0;

    void assign(const char* events, std::size_t n, std::uint64_t offset, std::size_t count);
    // Stream offset of a pointer into text.
    std::uint64_t offsetOf(const char* p) const {
        return streamOffset + static_cast<std::uint64_t>(p - text.get()) - 1;
    }
};

class EventChunker {
public:
    EventChunker(ByteSource& source, std::string fileName, std::size_t batchBytes = std::size_t(4) << 20);

    // The next batch (true), or the end of the events (false).
    Expected<bool> next(EventBatch& out);

    const std::vector<std::pair<std::string, std::string>>& topLevel() const { return m_topLevel; }
    bool bareArray() const { return m_bare; }
    // A bare array may omit its closing ']' (the format allows it for streaming writers).
    bool unterminatedArray() const { return m_unterminated; }

    // A trace cut inside its events (a file copied while the profiler still wrote it, a
    // truncated .gz): with keepEventsBeforeCut(true) the whole events before the cut are
    // batches as usual, the events end there, and truncation() holds the error the
    // stricter reading reports (file, byte, what was expected), as Perfetto loads what
    // precedes a cut. A cut before the events array starts is an error either way.
    void keepEventsBeforeCut(bool keep) { m_keepBeforeCut = keep; }
    const std::optional<std::string>& truncation() const { return m_truncation; }

private:
    enum class Mode { start, objectKey, objectAfterValue, events, trailer, done };

    Expected<bool> scanEvents(EventBatch& out);  // event_scanner.cpp
    // The end of a cut events array: `cut` or, when keeping, the last whole events.
    Expected<bool> endAtCut(EventBatch& out, Error cut);
    Expected<bool> refill();  // false at end of input
    int nextNonWs();          // -1 at end of input (after a refill attempt)
    Status readKey(std::string& key);
    Status captureValue(std::string& into);
    Error errorAt(std::uint64_t offset, const std::string& what) const;
    std::uint64_t offsetHere() const { return m_base + m_pos; }
    void emitBatch(EventBatch& out);
    static bool isWs(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    // "'x'", "byte 0x07" or "end of file" (c < 0), for the errors.
    static std::string describeByte(int c);

    ByteSource& m_source;
    std::string m_name;
    std::size_t m_batchBytes;
    std::vector<char> m_buf;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    std::uint64_t m_base = 0;  // stream offset of m_buf[0]
    bool m_eof = false;
    Error m_readError;
    bool m_hasReadError = false;

    Mode m_mode = Mode::start;
    bool m_bare = false;
    bool m_sawEvents = false;
    bool m_unterminated = false;
    bool m_keepBeforeCut = false;
    std::optional<std::string> m_truncation;
    std::vector<std::pair<std::string, std::string>> m_topLevel;

    // Events-array scanner state; positions are indexes into m_buf.
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t m_batchStart = kNone;
    std::size_t m_lastBoundary = 0;
    std::size_t m_elemStart = 0;
    std::size_t m_batchEvents = 0;
    bool m_inString = false;
    bool m_escape = false;
    bool m_expectValue = true;
    std::string m_stack;  // expected closers of the open objects/arrays in the current event
};

}  // namespace npu::profiler
