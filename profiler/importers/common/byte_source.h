#pragma once
// The bytes of a trace file, decompressed on the fly when it is gzip (detected by its
// magic bytes, not its name), so a .json.gz never needs its inflated size in memory.

#include "base/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>

namespace npu::profiler {

class ByteSource {
public:
    static Expected<std::unique_ptr<ByteSource>> open(const std::filesystem::path& file);
    virtual ~ByteSource() = default;

    // Up to n bytes of the (decompressed) stream, 0 at its end. Errors name the file and
    // the compressed byte offset (truncated or corrupt gzip, read failure).
    virtual Expected<std::size_t> read(char* dst, std::size_t n) = 0;

    std::uint64_t fileSize() const { return m_fileSize; }
    std::uint64_t fileBytesConsumed() const { return m_consumed; }  // for progress
    virtual bool compressed() const = 0;
    // True once read() has reported that a gzip stream ends before its member does (the
    // file was cut, e.g. copied while the profiler still wrote it). The bytes inflated
    // before the cut were all returned first, so a reader can keep what precedes it.
    bool truncated() const { return m_truncated; }

protected:
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_consumed = 0;
    bool m_truncated = false;
};

}  // namespace npu::profiler
