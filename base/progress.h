#pragma once
// Progress reporting and cancellation for long library work (simulation, import,
// conversion). Plain callback + atomic flag so the libraries stay free of Qt; the GUI
// adapts this to signals on its side.

#include <atomic>
#include <functional>
#include <string_view>

namespace npu {

struct Progress {
    // fraction in [0, 1]; stage is a short human-readable label ("building graph").
    std::function<void(double fraction, std::string_view stage)> report;
    const std::atomic<bool>* cancel = nullptr;

    void operator()(double fraction, std::string_view stage) const {
        if (report) report(fraction, stage);
    }
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

}  // namespace npu
