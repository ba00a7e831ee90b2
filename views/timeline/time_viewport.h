#pragma once
// The visible time window and its navigation arithmetic (zoom about an anchor, pan,
// clamping to the trace), separate from the widget so key and wheel behaviour is testable.

#include <cstdint>

namespace npu::views {

class TimeViewport {
public:
    // The trace's extent; the view may not wander far outside it.
    void setBounds(std::int64_t start, std::int64_t end);
    std::int64_t boundsStart() const { return m_boundsStart; }
    std::int64_t boundsEnd() const { return m_boundsEnd; }

    void setRange(std::int64_t t0, std::int64_t t1);
    std::int64_t t0() const { return m_t0; }
    std::int64_t t1() const { return m_t1; }
    std::int64_t span() const { return m_t1 - m_t0; }
    void fit() { setRange(m_boundsStart, m_boundsEnd); }

    // factor < 1 zooms in. anchor in [0, 1]: the fraction of the width that stays put
    // (the cursor, or 0.5 for the centre).
    void zoom(double factor, double anchor);
    // Moves by a fraction of the visible span; positive moves later in time.
    void pan(double fraction);
    void panNs(std::int64_t ns);

    double xOf(std::int64_t t, double widthPx) const;
    std::int64_t timeAt(double x, double widthPx) const;

    static constexpr std::int64_t kMinSpanNs = 20;

private:
    void clamp();

    std::int64_t m_boundsStart = 0;
    std::int64_t m_boundsEnd = 1000;
    std::int64_t m_t0 = 0;
    std::int64_t m_t1 = 1000;
};

}  // namespace npu::views
