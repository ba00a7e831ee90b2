#include "profiler/importers/common/byte_source.h"

#include "base/gzip_codec.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace npu::profiler {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

class PlainSource final : public ByteSource {
public:
    PlainSource(FilePtr file, std::string name, std::uint64_t size) : m_file(std::move(file)), m_name(std::move(name)) {
        m_fileSize = size;
    }
    Expected<std::size_t> read(char* dst, std::size_t n) override {
        const std::size_t got = std::fread(dst, 1, n, m_file.get());
        if (got < n && std::ferror(m_file.get()))
            return makeError(m_name + ": read error at byte " + std::to_string(m_consumed + got) + ": " +
                             std::strerror(errno));
        m_consumed += got;
        return got;
    }
    bool compressed() const override { return false; }

private:
    FilePtr m_file;
    std::string m_name;
};

// Inflates through base's codec (the one place that uses zlib) as the parser asks for bytes.
class GzipSource final : public ByteSource {
public:
    GzipSource(FilePtr file, std::string name, std::uint64_t size)
        : m_file(std::move(file)), m_name(std::move(name)), m_in(1 << 20) {
        m_fileSize = size;
    }

    Expected<std::size_t> read(char* dst, std::size_t n) override {
        if (!m_gunzip.valid()) return makeError(m_name + ": cannot initialise zlib");
        if (m_pendingError) return *m_pendingError;
        if (m_finished) return std::size_t{0};
        std::size_t produced = 0;
        while (produced < n) {
            auto out = m_gunzip.decompress(dst + produced, n - produced);
            if (!out) {
                const std::uint64_t at = m_consumed - m_gunzip.inputLeft();
                return makeError(m_name + ": corrupt gzip data at compressed byte " + std::to_string(at) + ": " +
                                 out.message() + " (expected a valid deflate stream)");
            }
            produced += *out;
            if (produced == n) break;
            // Short: the inflater has used up its input.
            const std::size_t got = std::fread(m_in.data(), 1, m_in.size(), m_file.get());
            if (got == 0) {
                if (std::ferror(m_file.get()))
                    return makeError(m_name + ": read error at byte " + std::to_string(m_consumed));
                if (m_gunzip.atMemberEnd()) {  // clean end after a complete gzip member
                    m_finished = true;
                    break;
                }
                m_truncated = true;
                Error cut = makeError(m_name + ": truncated gzip stream: the file ends at byte " +
                                      std::to_string(m_consumed) + " (after " + std::to_string(m_gunzip.memberBytesOut()) +
                                      " decompressed bytes) where more compressed data was expected");
                if (produced == 0) return cut;
                m_pendingError = std::move(cut);  // hand out what was inflated first
                break;
            }
            m_consumed += got;
            m_gunzip.setInput(m_in.data(), got);
        }
        return produced;
    }
    bool compressed() const override { return true; }

private:
    FilePtr m_file;
    std::string m_name;
    std::vector<char> m_in;
    GzipInflater m_gunzip;
    bool m_finished = false;
    std::optional<Error> m_pendingError;
};

}  // namespace

Expected<std::unique_ptr<ByteSource>> ByteSource::open(const std::filesystem::path& file) {
    const std::string name = file.string();
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) return makeError(name + ": is a folder, expected a trace file");
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) return makeError(name + ": cannot open: " + ec.message());
    FilePtr f(std::fopen(name.c_str(), "rb"));
    if (!f) return makeError(name + ": cannot open: " + std::strerror(errno));
    unsigned char magic[2] = {0, 0};
    const std::size_t got = std::fread(magic, 1, 2, f.get());
    std::rewind(f.get());
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
        return std::unique_ptr<ByteSource>(new GzipSource(std::move(f), name, size));
    return std::unique_ptr<ByteSource>(new PlainSource(std::move(f), name, size));
}

}  // namespace npu::profiler
