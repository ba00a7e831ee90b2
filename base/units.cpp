#include "base/units.h"

#include <cmath>
#include <cstdio>

namespace npu::units {

namespace {

constexpr double kKiB = 1024.0, kMiB = kKiB * 1024, kGiB = kMiB * 1024, kTiB = kGiB * 1024;

std::string threeDigits(double v) {
    const double a = std::abs(v);
    return fixed(v, a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

std::string scaled(double v, Unit u) { return threeDigits(v / u.divisor) + " " + std::string(u.suffix); }

}  // namespace

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

Unit timeUnitFor(double maxNs) {
    const double a = std::abs(maxNs);
    if (a >= 1e9) return {1e9, "s"};
    if (a >= 1e6) return {1e6, "ms"};
    if (a >= 1e3) return {1e3, "µs"};
    return {1, "ns"};
}

Unit byteUnitFor(double maxBytes) {
    const double a = std::abs(maxBytes);
    if (a >= kTiB) return {kTiB, "TiB"};
    if (a >= kGiB) return {kGiB, "GiB"};
    if (a >= kMiB) return {kMiB, "MiB"};
    if (a >= kKiB) return {kKiB, "KiB"};
    return {1, "B"};
}

std::string duration(double ns) {
    if (ns == 0) return "0";
    if (std::abs(ns) < 1000) return fixed(ns, 0) + " ns";
    return scaled(ns, timeUnitFor(ns));
}

std::string bytes(double b) {
    const Unit u = byteUnitFor(b);
    if (u.divisor == 1) return fixed(b, 0) + " B";
    return scaled(b, u);
}

std::string decimalBytes(double b) {
    const double a = std::abs(b);
    if (a >= 1e12) return scaled(b, {1e12, "TB"});
    if (a >= 1e9) return scaled(b, {1e9, "GB"});
    if (a >= 1e6) return scaled(b, {1e6, "MB"});
    if (a >= 1e3) return scaled(b, {1e3, "kB"});
    return fixed(b, 0) + " B";
}

std::string count(double value) {
    const double a = std::abs(value);
    if (a >= 1e15) return scaled(value, {1e15, "P"});
    if (a >= 1e12) return scaled(value, {1e12, "T"});
    if (a >= 1e9) return scaled(value, {1e9, "G"});
    if (a >= 1e6) return scaled(value, {1e6, "M"});
    if (a >= 1e4) return scaled(value, {1e3, "k"});
    return fixed(value, a == std::floor(a) ? 0 : 2);
}

std::string flops(double f) {
    const std::string c = count(f);
    // "8.19 k" + "FLOP" reads "8.19 kFLOP"; a bare number gets its own space.
    return c.back() >= '0' && c.back() <= '9' ? c + " FLOP" : c + "FLOP";
}

std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + " %"; }

}  // namespace npu::units
