#pragma once
// A word-at-a-time string hash for the import's hot maps (names, categories, args).
// libstdc++'s std::hash<std::string_view> mixes byte by byte and was ~4% of a Kineto
// import's CPU; this one reads 8 bytes per round with a multiply-xorshift mix.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace npu::profiler {

inline std::uint64_t textHash(std::string_view s, std::uint64_t seed = 0x9E3779B97F4A7C15ull) {
    std::uint64_t h = seed ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    std::uint64_t tail = 0;
    if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
    h = (h ^ tail) * 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

// Two independent 64-bit hashes in one pass over the text (args de-duplication keys).
struct TextHash128 {
    std::uint64_t a, b;
};
inline TextHash128 textHash128(std::string_view s) {
    std::uint64_t a = 0x9E3779B97F4A7C15ull ^ s.size(), b = 0xD6E8FEB86659FD93ull ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        a = (a ^ w) * 0xBF58476D1CE4E5B9ull;
        a ^= a >> 31;
        b = (b + w) * 0xFF51AFD7ED558CCDull;
        b ^= b >> 33;
    }
    std::uint64_t tail = 0;
    if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
    a = (a ^ tail) * 0x94D049BB133111EBull;
    b = (b + tail) * 0xC4CEB9FE1A85EC53ull;
    return {a ^ (a >> 29), b ^ (b >> 32)};
}

struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return static_cast<size_t>(textHash(s)); }
};

}  // namespace npu::profiler
