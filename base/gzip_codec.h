#pragma once
// gzip with zlib, the one place that talks to it: whole buffers (the .npuom container,
// fusion graphs in the .npudb) and a streaming inflater (trace files read while they are
// parsed, profiler/importers/common/byte_source).

#include "base/expected.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace npu {

Expected<std::string> gzipCompress(std::string_view data);
// Accepts gzip or zlib streams; errors say what was wrong ("not gzip data", "truncated").
Expected<std::string> gzipDecompress(std::string_view data);

// Decompression a piece at a time, so a .json.gz never needs its inflated size in memory:
// the caller hands over compressed bytes as it reads them and takes decompressed ones
// out. Accepts gzip or zlib headers; the members of a concatenated .gz are read as one
// stream, as gzip -d does.
class GzipInflater {
public:
    GzipInflater();
    ~GzipInflater();
    GzipInflater(const GzipInflater&) = delete;
    GzipInflater& operator=(const GzipInflater&) = delete;

    bool valid() const;  // false when zlib could not be initialised

    // The next compressed bytes; they must stay valid until inputLeft() is 0.
    void setInput(const char* data, std::size_t n);
    std::size_t inputLeft() const;

    // Decompresses into out until n bytes are written or more input is needed (then
    // inputLeft() is 0), and returns how many were written. The error is zlib's reason
    // (data that is not deflate, a bad checksum).
    Expected<std::size_t> decompress(char* out, std::size_t n);

    // True when the input so far ends a complete member: the stream may end here cleanly.
    bool atMemberEnd() const;
    // Decompressed bytes of the current member, for messages about a truncated stream.
    std::uint64_t memberBytesOut() const;

private:
    struct Stream;  // zlib's z_stream stays out of this header
    std::unique_ptr<Stream> m_stream;
};

}  // namespace npu
