#include "profiler/importers/chrome_json/trace_file_reader.h"

#include "profiler/importers/chrome_json/event_chunker.h"
#include "profiler/importers/chrome_json/event_parser.h"
#include "profiler/importers/common/byte_source.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace npu::profiler {

namespace {

// Cutting the stream into batches (inflate, read, bracket scan) runs on its own
// thread while this one parses: the two halves cost about the same.
class BatchPipeline {
public:
    BatchPipeline(EventChunker& chunker, ByteSource& source, const std::atomic<bool>* cancel)
        : m_chunker(chunker), m_source(source), m_cancel(cancel), m_slots(3) {
        for (int i = 0; i < static_cast<int>(m_slots.size()); ++i) m_free.push_back(i);
        m_thread = std::thread([this] { produce(); });
    }
    ~BatchPipeline() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }

    // The next full batch, or nullptr at the end (then error() tells whether it failed).
    struct Slot {
        EventBatch batch;
        std::uint64_t consumed = 0;
    };
    Slot* next() {
        std::unique_lock lock(m_mutex);
        if (m_current >= 0) m_free.push_back(std::exchange(m_current, -1));
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return !m_full.empty() || m_done; });
        if (m_full.empty()) return nullptr;
        m_current = m_full.front();
        m_full.pop_front();
        return &m_slots[m_current];
    }
    const std::optional<Error>& error() const { return m_error; }

private:
    void produce() {
        for (;;) {
            int slot;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return !m_free.empty() || m_stop; });
                if (m_stop) break;
                slot = m_free.front();
                m_free.pop_front();
            }
            Expected<bool> more = (m_cancel && m_cancel->load(std::memory_order_relaxed))
                                      ? Expected<bool>(cancelledError("import cancelled"))
                                      : m_chunker.next(m_slots[slot].batch);
            std::lock_guard lock(m_mutex);
            if (!more || !*more) {
                if (!more) m_error = more.error();
                m_free.push_back(slot);
                m_done = true;
                m_changed.notify_all();
                break;
            }
            m_slots[slot].consumed = m_source.fileBytesConsumed();
            m_full.push_back(slot);
            m_changed.notify_all();
        }
    }

    EventChunker& m_chunker;
    ByteSource& m_source;
    const std::atomic<bool>* m_cancel;
    std::vector<Slot> m_slots;
    std::deque<int> m_free, m_full;
    int m_current = -1;
    bool m_done = false, m_stop = false;
    std::optional<Error> m_error;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::thread m_thread;
};

}  // namespace

Expected<std::unique_ptr<TraceBuilder>> readTraceFile(const std::filesystem::path& file, const ReadOptions& options) {
    auto source = ByteSource::open(file);
    if (!source) return source.error();
    ByteSource& src = **source;
    const std::string name = file.string();
    EventChunker chunker(src, name, options.batchBytes);
    chunker.keepEventsBeforeCut(options.keepEventsBeforeCut);
    EventParser parser;
    auto builder = std::make_unique<TraceBuilder>();
    std::uint64_t reported = 0;
    const auto handler = [&](const RawEvent& ev) { builder->add(ev); };
    {
        BatchPipeline pipeline(chunker, src, options.cancel);
        while (auto* slot = pipeline.next()) {
            if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return cancelledError("import cancelled");
            if (auto s = parser.parse(slot->batch, name, src.compressed(), handler); !s) return s.error();
            if (options.onBytes && slot->consumed > reported) {
                options.onBytes(slot->consumed - reported);
                reported = slot->consumed;
            }
        }
        if (pipeline.error()) return *pipeline.error();
    }
    if (options.onBytes && src.fileBytesConsumed() > reported) options.onBytes(src.fileBytesConsumed() - reported);
    if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return cancelledError("import cancelled");
    if (chunker.unterminatedArray())
        builder->diagnostics().add(DiagnosticKind::unterminated_event_array, 1,
                                   "the array of events has no closing ']' (allowed by the Trace Event Format)");
    // Cut before its first whole event, a trace has nothing to show: the cut is the error.
    if (chunker.truncation() && builder->events() == 0) return makeError(*chunker.truncation() + "; no whole event precedes the cut");
    if (chunker.truncation())
        builder->diagnostics().add(DiagnosticKind::truncated, 1,
                                   *chunker.truncation() + "; the " + std::to_string(builder->events()) +
                                       " whole events before the cut were imported");
    builder->setTopLevel(chunker.topLevel());
    builder->finish();
    return builder;
}

bool sniffTraceFile(const std::filesystem::path& file) {
    auto source = ByteSource::open(file);
    if (!source) return false;
    std::string head(64 * 1024, '\0');
    auto got = (*source)->read(head.data(), head.size());
    if (!got || *got == 0) return false;
    head.resize(*got);
    const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first == std::string::npos) return false;
    if (head[first] == '{') return head.find("\"traceEvents\"") != std::string::npos;
    if (head[first] != '[') return false;
    const auto second = head.find_first_not_of(" \t\r\n", first + 1);
    return second == std::string::npos || head[second] == '{' || head[second] == ']';
}

}  // namespace npu::profiler
