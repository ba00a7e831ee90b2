#include "views/timeline/timeline_palette.h"

#include <array>
#include <cstdint>
#include <utility>

namespace npu::views {

namespace {

// Hand-picked mid-saturation colours: distinct from each other, readable with dark
// text, and leaving the selection outline (black/white) and search highlight (yellow)
// unambiguous.
constexpr std::array<std::pair<std::string_view, QRgb>, 12> kFixed{{
    {"matmul", 0xff4e79a7},
    {"conv", 0xff59a14f},
    {"attention", 0xffb07aa1},
    {"elementwise", 0xff76b7b2},
    {"norm", 0xffedc948},
    {"reduce", 0xfff28e2b},
    {"data_movement", 0xff9c755f},
    {"comm", 0xffe15759},
    {"memcpy", 0xffbab0ac},
    {"optimizer", 0xffff9da7},
    {"other", 0xffa0a0a0},
    {"", 0xffa0a0a0},
}};

std::uint32_t fnv1a(std::string_view s)
{
    std::uint32_t h = 2166136261u;
    for (const char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return h;
}

}  // namespace

QColor categoryColor(std::string_view category)
{
    for (const auto& [name, rgb] : kFixed) {
        if (name == category)
            return QColor::fromRgb(rgb);
    }
    // Other categories hash into a second qualitative palette, so they stay distinct from
    // one another more often than free hues would (Kineto's cpu_op, cuda_runtime, kernel,
    // gpu_memcpy, gpu_memset, python_function, user_annotation land on different entries;
    // the unit test pins that).
    static constexpr std::array<QRgb, 16> kHashed{
        0xff6a9fd4, 0xffe39a5b, 0xff7fbf6a, 0xffd96c6c, 0xffa58ad1, 0xffc49a78, 0xffe58fc7, 0xff9ea7b3,
        0xffc8c85a, 0xff5fc2c9, 0xff8fb0e8, 0xfff0b77a, 0xffa9d68f, 0xffef9a9a, 0xffc6b3e6, 0xff8ccfb0};
    return QColor::fromRgb(kHashed[fnv1a(category) % kHashed.size()]);
}

QColor dtypeColor(std::string_view dtype)
{
    // Full precision cool, half precision warm, so a mixed-precision step reads at a glance.
    static constexpr std::array<std::pair<std::string_view, QRgb>, 8> kDTypes{{
        {"fp32", 0xff4e79a7}, {"tf32", 0xff76b7b2}, {"bf16", 0xfff28e2b}, {"fp16", 0xffe15759},
        {"fp64", 0xff59a14f}, {"int8", 0xff9c755f}, {"int64", 0xffbab0ac}, {"int32", 0xffbab0ac},
    }};
    for (const auto& [name, rgb] : kDTypes)
        if (name == dtype)
            return QColor::fromRgb(rgb);
    return categoryColor("other");
}

QColor textColorOn(const QColor& background)
{
    // Relative luminance in sRGB, approximated: enough to choose between black and white.
    const double l = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return l > 0.55 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

}  // namespace npu::views
