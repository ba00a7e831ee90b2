#pragma once
// gzip compression of whole buffers with zlib, for the .npuom container.

#include "base/expected.h"

#include <string>
#include <string_view>

namespace npu {

Expected<std::string> gzipCompress(std::string_view data);
// Accepts gzip or zlib streams; errors say what was wrong ("not gzip data", "truncated").
Expected<std::string> gzipDecompress(std::string_view data);

}  // namespace npu
