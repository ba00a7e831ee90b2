#include "base/gzip_codec.h"

#include <zlib.h>

namespace npu {

Expected<std::string> gzipCompress(std::string_view data) {
    z_stream zs{};
    // windowBits 15 + 16: gzip header, so `zcat model.npuom` shows the JSON.
    if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return makeError("zlib: deflateInit2 failed");
    std::string out;
    out.resize(deflateBound(&zs, static_cast<uLong>(data.size())));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) return makeError("zlib: deflate failed");
    return out;
}

Expected<std::string> gzipDecompress(std::string_view data) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) return makeError("zlib: inflateInit2 failed");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    std::string out;
    char buffer[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(buffer);
        zs.avail_out = sizeof buffer;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - zs.avail_out);
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
    }
    inflateEnd(&zs);
    if (rc == Z_STREAM_END) return out;
    if (rc == Z_DATA_ERROR) return makeError("not gzip data or corrupt (" + std::string(zs.msg ? zs.msg : "data error") + ")");
    return makeError("truncated gzip stream after " + std::to_string(out.size()) + " uncompressed bytes");
}

struct GzipInflater::Stream {
    z_stream zs{};
    bool ok = false;
    bool memberDone = false;
};

GzipInflater::GzipInflater() : m_stream(std::make_unique<Stream>()) {
    m_stream->ok = inflateInit2(&m_stream->zs, 15 + 32) == Z_OK;  // +32: accept gzip or zlib headers
}

GzipInflater::~GzipInflater() {
    if (m_stream->ok) inflateEnd(&m_stream->zs);
}

bool GzipInflater::valid() const { return m_stream->ok; }

void GzipInflater::setInput(const char* data, std::size_t n) {
    m_stream->zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    m_stream->zs.avail_in = static_cast<uInt>(n);
}

std::size_t GzipInflater::inputLeft() const { return m_stream->zs.avail_in; }

bool GzipInflater::atMemberEnd() const { return m_stream->memberDone; }

std::uint64_t GzipInflater::memberBytesOut() const { return m_stream->zs.total_out; }

Expected<std::size_t> GzipInflater::decompress(char* out, std::size_t n) {
    z_stream& zs = m_stream->zs;
    zs.next_out = reinterpret_cast<Bytef*>(out);
    zs.avail_out = static_cast<uInt>(n);
    while (zs.avail_out > 0) {
        if (m_stream->memberDone) {
            if (zs.avail_in == 0) break;  // whether another member follows is for the next input to tell
            // Another gzip member follows (concatenated .gz files).
            if (inflateReset(&zs) != Z_OK) return makeError("zlib reset failed");
            m_stream->memberDone = false;
        }
        // Called even without input: zlib may still hold output of what it has read.
        const int rc = ::inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END)
            m_stream->memberDone = true;
        else if (rc == Z_BUF_ERROR)
            break;  // no progress without more input
        else if (rc != Z_OK)
            return makeError(zs.msg ? zs.msg : "inflate failed");
    }
    return n - zs.avail_out;
}

}  // namespace npu
