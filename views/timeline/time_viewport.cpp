#include "views/timeline/time_viewport.h"

#include <algorithm>
#include <cmath>

namespace npu::views {

void TimeViewport::setBounds(std::int64_t start, std::int64_t end)
{
    m_boundsStart = start;
    m_boundsEnd = std::max(end, start + kMinSpanNs);
    clamp();
}

void TimeViewport::setRange(std::int64_t t0, std::int64_t t1)
{
    if (t1 < t0)
        std::swap(t0, t1);
    m_t0 = t0;
    m_t1 = t1;
    clamp();
}

void TimeViewport::zoom(double factor, double anchor)
{
    anchor = std::clamp(anchor, 0.0, 1.0);
    const double current = static_cast<double>(span());
    const double pivot = static_cast<double>(m_t0) + anchor * current;
    const double newSpan = std::max(static_cast<double>(kMinSpanNs), current * factor);
    m_t0 = static_cast<std::int64_t>(std::llround(pivot - anchor * newSpan));
    m_t1 = m_t0 + static_cast<std::int64_t>(std::llround(newSpan));
    clamp();
}

void TimeViewport::pan(double fraction)
{
    panNs(static_cast<std::int64_t>(std::llround(fraction * static_cast<double>(span()))));
}

void TimeViewport::panNs(std::int64_t ns)
{
    m_t0 += ns;
    m_t1 += ns;
    clamp();
}

void TimeViewport::clamp()
{
    // Allow a little air around the trace (10 % of its length) but no further, so the
    // user cannot get lost in empty time.
    const std::int64_t total = m_boundsEnd - m_boundsStart;
    const std::int64_t margin = total / 10;
    const std::int64_t lo = m_boundsStart - margin;
    const std::int64_t hi = m_boundsEnd + margin;
    std::int64_t span = std::clamp<std::int64_t>(m_t1 - m_t0, kMinSpanNs, hi - lo);
    if (m_t0 < lo)
        m_t0 = lo;
    if (m_t0 + span > hi)
        m_t0 = hi - span;
    m_t1 = m_t0 + span;
}

double TimeViewport::xOf(std::int64_t t, double widthPx) const
{
    return static_cast<double>(t - m_t0) * widthPx / static_cast<double>(span());
}

std::int64_t TimeViewport::timeAt(double x, double widthPx) const
{
    if (widthPx <= 0)
        return m_t0;
    return m_t0 + static_cast<std::int64_t>(std::llround(x / widthPx * static_cast<double>(span())));
}

}  // namespace npu::views
