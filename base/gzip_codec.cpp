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

}  // namespace npu
