#pragma once
// Interns names, categories and keys once per import: events refer to small ids, and
// the strings live in stable blocks so the views handed out never move.

#include "profiler/store/text_hash.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npu::profiler {

class StringPool {
public:
    StringPool() { intern({}); }

    std::uint32_t intern(std::string_view s) {
        if (auto it = m_ids.find(s); it != m_ids.end()) return it->second;
        const std::string_view stored = store(s);
        const auto id = static_cast<std::uint32_t>(m_views.size());
        m_views.push_back(stored);
        m_ids.emplace(stored, id);
        return id;
    }
    std::string_view view(std::uint32_t id) const { return m_views[id]; }
    std::size_t size() const { return m_views.size(); }

private:
    std::string_view store(std::string_view s) {
        if (s.empty()) return {};
        if (m_used + s.size() > m_blockSize || m_blocks.empty()) {
            const std::size_t size = std::max(m_blockSize, s.size());
            m_blocks.emplace_back(new char[size]);
            m_used = 0;
            if (s.size() > m_blockSize) {  // a huge string gets its own block
                std::memcpy(m_blocks.back().get(), s.data(), s.size());
                m_used = m_blockSize;
                return {m_blocks.back().get(), s.size()};
            }
        }
        char* dst = m_blocks.back().get() + m_used;
        std::memcpy(dst, s.data(), s.size());
        m_used += s.size();
        return {dst, s.size()};
    }

    static constexpr std::size_t m_blockSize = 1 << 16;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_used = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, std::uint32_t, TextHash> m_ids;
};

// Append-only store for the raw args JSON of slices, addressed by a 64-bit offset.
class TextArena {
public:
    struct Ref {
        std::uint64_t offset = 0;
        std::uint32_t length = 0;
    };
    Ref append(std::string_view s) {
        if (s.empty()) return {};
        if (s.size() > kBlock) s = s.substr(0, 0);  // pathological args (> 16 MB): dropped
        if (m_blocks.empty() || m_used + s.size() > kBlock) {
            m_blocks.emplace_back(new char[kBlock]);
            m_used = 0;
        }
        std::memcpy(m_blocks.back().get() + m_used, s.data(), s.size());
        Ref r{(m_blocks.size() - 1) * kBlock + m_used, static_cast<std::uint32_t>(s.size())};
        m_used += s.size();
        return r;
    }
    std::string_view view(Ref r) const {
        if (r.length == 0) return {};
        return {m_blocks[r.offset / kBlock].get() + r.offset % kBlock, r.length};
    }
    std::size_t bytes() const { return m_blocks.size() * kBlock; }

private:
    static constexpr std::size_t kBlock = std::size_t(16) << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_used = 0;
};

}  // namespace npu::profiler
