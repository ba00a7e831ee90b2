#include "profiler/importers/trace_file_reader.h"

#include "profiler/importers/byte_source.h"
#include "profiler/importers/event_chunker.h"
#include "profiler/importers/event_parser.h"

#include <string_view>

namespace npu::profiler {

Expected<std::unique_ptr<TraceBuilder>> readTraceFile(const std::filesystem::path& file, const ReadOptions& options) {
    auto source = ByteSource::open(file);
    if (!source) return source.error();
    ByteSource& src = **source;
    const std::string name = file.string();
    EventChunker chunker(src, name, options.batchBytes);
    EventParser parser;
    auto builder = std::make_unique<TraceBuilder>();
    EventBatch batch;
    std::uint64_t reported = 0;
    const auto handler = [&](const RawEvent& ev) { builder->add(ev); };
    for (;;) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return makeError("import cancelled");
        auto more = chunker.next(batch);
        if (!more) return more.error();
        if (options.onBytes && src.fileBytesConsumed() != reported) {
            options.onBytes(src.fileBytesConsumed() - reported);
            reported = src.fileBytesConsumed();
        }
        if (!*more) break;
        if (auto s = parser.parse(batch, name, src.compressed(), handler); !s) return s.error();
    }
    if (chunker.unterminatedArray())
        builder->diagnostics().add("unterminated event array", Severity::info, 1,
                                   "the array of events has no closing ']' (allowed by the Trace Event Format)");
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
