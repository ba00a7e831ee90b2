#pragma once
// The one formatter of quantities a user reads: the views, the batch summaries, the reports'
// messages and the charts all print durations, sizes and counts through these, so the same
// figure reads the same everywhere. Times pick ns/µs/ms/s by magnitude; sizes are binary
// (B/KiB/MiB/GiB/TiB: 1 GiB = 2^30 B), as the allocators and HBM capacities count them;
// counts pick an SI prefix. decimalBytes is for a vendor's figure quoted in GB = 1e9 B.
// Three significant digits: tables stay readable without hiding differences.

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::units {

std::string duration(double ns);         // "812 ns", "15.3 µs", "4.21 ms", "1.50 s"; 0 -> "0"
std::string bytes(double bytes);         // "512 B", "3.50 MiB", "141 GiB"
std::string decimalBytes(double bytes);  // "512 B", "3.67 MB", "151 GB" (1 GB = 1e9 B)
std::string count(double value);         // "6.74 G", "168 M", "12.3 k", "512"
std::string flops(double flops);         // "1.23 PFLOP", "8192 FLOP"
std::string percent(double fraction);    // 0.123 -> "12.3 %"

// One unit for an axis or a column whose values reach `max`: divide by divisor, append suffix.
struct Unit {
    double divisor = 1;
    std::string_view suffix;
};
Unit timeUnitFor(double maxNs);     // ns, µs, ms, s
Unit byteUnitFor(double maxBytes);  // B, KiB, MiB, GiB, TiB

// `value` with `decimals` digits after the point, as printf's %.Nf does.
std::string fixed(double value, int decimals);

}  // namespace npu::units
