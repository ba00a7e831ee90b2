#include "views/charts/memory_map.h"

#include "views/common/units.h"

#include <QHelpEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>

namespace npu::views {
namespace {

constexpr int kTop = 6, kBottom = 22;  // room for the time labels

}  // namespace

QColor MemoryMap::categoryColor(const std::string& category) {
    static const std::map<std::string, QColor, std::less<>> kColors = {
        {"weights", QColor(52, 120, 198)},       {"master_weights", QColor(31, 78, 140)},
        {"gradients", QColor(192, 57, 43)},      {"optimizer_state", QColor(142, 68, 173)},
        {"activations", QColor(39, 174, 96)},    {"temporaries", QColor(230, 126, 34)},
        {"comm_buffers", QColor(22, 160, 133)},  {"inputs", QColor(127, 140, 141)},
        {"kv_cache", QColor(241, 196, 15)},      {"gathered_weights", QColor(93, 173, 226)}};
    const auto it = kColors.find(category);
    return it != kColors.end() ? it->second : QColor(70, 110, 170);  // imported blocks: one colour
}

namespace {

const QColor kSegment(222, 224, 228);  // reserved, not handed out: the free gaps
const QColor kBoundary(150, 150, 150);

}  // namespace

MemoryMap::MemoryMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(90);  // the chart above needs the room at 1280x720
}

// Tooltips: the block under the cursor, else how to use the map.
bool MemoryMap::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    const auto* help = static_cast<QHelpEvent*>(e);
    const auto block = blockAt(help->pos());
    QToolTip::showText(help->globalPos(), block ? describeBlock(*block)
                                                : QStringLiteral("Memory map: address against time. Wheel: zoom addresses · "
                                                                 "drag: pan · double-click: reset"), this);
    return true;
}

void MemoryMap::setData(profiler::MemoryMapData data, std::int64_t t0) {
    m_data = std::move(data);
    m_t0 = t0;
    m_end = t0 + 1;
    for (const auto& b : m_data.blocks) m_end = std::max({m_end, b.alloc_ns, b.free_ns});
    for (const auto& s : m_data.segments) m_end = std::max({m_end, s.alloc_ns, s.free_ns});
    m_from = t0;
    m_to = m_end;
    buildRegions();
    resetAddressZoom();
}

void MemoryMap::setTimeRange(std::int64_t from_ns, std::int64_t to_ns) {
    m_from = from_ns;
    m_to = std::max(to_ns, from_ns + 1);
    update();
}

void MemoryMap::resetAddressZoom() {
    m_addrLo = 0;
    m_addrHi = static_cast<double>(std::max<std::int64_t>(1, m_compactTotal));
    update();
}

// Address runs covered by segments, else by blocks; overlapping runs merge.
void MemoryMap::buildRegions() {
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const auto& s : m_data.segments) spans.emplace_back(s.addr, s.addr + s.size);
    for (const auto& b : m_data.blocks) spans.emplace_back(b.addr, b.addr + std::max<std::int64_t>(1, b.size));
    std::sort(spans.begin(), spans.end());
    m_regions.clear();
    m_compactTotal = 0;
    for (const auto& [a, e] : spans) {
        if (!m_regions.empty() && a <= m_regions.back().end) {
            if (e > m_regions.back().end) {
                m_compactTotal += e - m_regions.back().end;
                m_regions.back().end = e;
            }
            continue;
        }
        m_regions.push_back({a, e, m_compactTotal});
        m_compactTotal += e - a;
    }
}

std::optional<std::int64_t> MemoryMap::compact(std::int64_t addr) const {
    auto it = std::upper_bound(m_regions.begin(), m_regions.end(), addr, [](std::int64_t a, const Region& r) { return a < r.addr; });
    if (it == m_regions.begin()) return std::nullopt;
    --it;
    if (addr > it->end) return std::nullopt;
    return it->offset + (addr - it->addr);
}

QRect MemoryMap::plotRect() const { return rect().adjusted(m_left, kTop, -m_right, -kBottom); }

void MemoryMap::setHorizontalMargins(int left, int right) {
    if (left == m_left && right == m_right) return;
    m_left = std::max(40, left);
    m_right = std::max(4, right);
    update();
}

double MemoryMap::xOf(std::int64_t t) const {
    const QRect r = plotRect();
    return r.left() + double(t - m_from) / double(m_to - m_from) * r.width();
}

// Low addresses at the bottom, as a heap grows up.
double MemoryMap::yOf(std::int64_t a) const {
    const QRect r = plotRect();
    return r.bottom() - (double(a) - m_addrLo) / (m_addrHi - m_addrLo) * r.height();
}

void MemoryMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect r = plotRect();
    if (r.width() < 4 || r.height() < 4) return;
    p.fillRect(r, Qt::white);
    if (m_data.empty()) {
        p.drawText(r, Qt::AlignCenter, QStringLiteral("No allocator blocks in this run (simulated runs and memory snapshots have them)."));
        return;
    }
    // Level of detail: rectangles rasterised into an image of the plot's pixels, each at
    // least one pixel wide and high, so a block never disappears at any zoom.
    QImage image(r.size(), QImage::Format_RGB32);
    image.fill(Qt::white);
    auto fill = [&](std::int64_t t0, std::int64_t t1, std::int64_t a0, std::int64_t a1, QRgb rgb) {
        const double x0 = xOf(t0) - r.left(), x1 = xOf(t1 < 0 ? m_end : t1) - r.left();
        const double y0 = yOf(a1) - r.top(), y1 = yOf(a0) - r.top();
        if (x1 < 0 || x0 >= r.width() || y1 < 0 || y0 >= r.height()) return;
        const int ix0 = std::clamp(int(std::floor(x0)), 0, r.width() - 1), iy0 = std::clamp(int(std::floor(y0)), 0, r.height() - 1);
        const int ix1 = std::clamp(std::max(int(std::ceil(x1)), ix0 + 1), 1, r.width());
        const int iy1 = std::clamp(std::max(int(std::ceil(y1)), iy0 + 1), 1, r.height());
        for (int y = iy0; y < iy1; ++y) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
            std::fill(line + ix0, line + ix1, rgb);
        }
    };
    for (const auto& s : m_data.segments)
        if (const auto a = compact(s.addr)) fill(s.alloc_ns, s.free_ns, *a, *a + s.size, kSegment.rgb());
    for (const auto& b : m_data.blocks)
        if (const auto a = compact(b.addr)) fill(b.alloc_ns, b.free_ns, *a, *a + std::max<std::int64_t>(1, b.size), categoryColor(b.category).rgb());
    p.drawImage(r.topLeft(), image);

    // Boundaries between compacted address runs (segments apart in the address space).
    p.setPen(QPen(kBoundary, 1, Qt::DashLine));
    for (std::size_t i = 1; i < m_regions.size() && m_regions.size() < 2000; ++i) {
        const double y = yOf(m_regions[i].offset);
        if (y > r.top() && y < r.bottom()) p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    // Axes: a few address and time labels; addresses as numbers in one binary unit named
    // in the axis title, as the chart above names its unit, so they fit its margin.
    const QFontMetrics fm = p.fontMetrics();
    const double span = m_addrHi - m_addrLo;
    const auto [unitDiv, unitName] = span >= double(1 << 30) * 0.5 ? std::pair{double(1 << 30), "GiB"}
                                     : span >= double(1 << 20) * 0.5 ? std::pair{double(1 << 20), "MiB"}
                                                                     : std::pair{1024.0, "KiB"};
    p.save();
    p.translate(fm.height() / 2.0 + 2, r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2.0, -fm.height() / 2.0, r.height(), fm.height()), Qt::AlignCenter,
               QStringLiteral("address (%1)").arg(QLatin1String(unitName)));
    p.restore();
    for (int i = 0; i <= 4; ++i) {
        const double a = m_addrLo + span * i / 4.0;
        const double y = yOf(std::int64_t(a));
        p.drawText(QRectF(fm.height() + 4, y - fm.height() / 2.0, m_left - fm.height() - 9, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(a / unitDiv, 'g', 4));
        const std::int64_t t = m_from + (m_to - m_from) * i / 4;
        const double x = xOf(t);
        const QString label = formatDuration(double(t - m_t0));
        const double w = fm.horizontalAdvance(label) + 4;
        const double left = std::clamp(x - w / 2, 0.0, double(width()) - w);
        p.drawText(QRectF(left, r.bottom() + 3, w, fm.height()), Qt::AlignHCenter | Qt::AlignTop, label);
    }
    // Legend, top right inside the plot: the categories present, and the grey of
    // reserved memory no block holds. A map too low for it (1280x720) goes without: it
    // would cover the blocks, and the chart above names the same categories' colours.
    std::map<std::string, int> present;
    for (const auto& b : m_data.blocks) ++present[b.category];
    std::vector<std::pair<QColor, QString>> entries;
    for (const auto& [category, n] : present)
        entries.emplace_back(categoryColor(category), category.empty() ? QStringLiteral("allocated") : QString::fromStdString(category));
    entries.emplace_back(kSegment, QStringLiteral("reserved, free"));
    int width = 0;
    for (const auto& e : entries) width = std::max(width, fm.horizontalAdvance(e.second));
    const QRect box(r.right() - width - 34, r.top() + 4, width + 30, int(entries.size()) * (fm.height() + 2) + 6);
    if (box.height() > r.height() * 2 / 3) return;
    p.fillRect(box, QColor(255, 255, 255, 220));
    p.drawRect(box);
    int y = box.top() + 3;
    for (const auto& [color, text] : entries) {
        p.fillRect(QRect(box.left() + 6, y + 3, 12, 10), color);
        p.drawText(QRect(box.left() + 22, y, width + 6, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        y += fm.height() + 2;
    }
}

std::optional<std::size_t> MemoryMap::blockAt(QPoint pos) const {
    const QRect r = plotRect();
    if (!r.contains(pos) || m_data.blocks.empty()) return std::nullopt;
    const std::int64_t t = m_from + std::int64_t(double(pos.x() - r.left()) / r.width() * double(m_to - m_from));
    const double a = m_addrLo + double(r.bottom() - pos.y()) / r.height() * (m_addrHi - m_addrLo);
    // Half a pixel of slack each way, so a one-pixel block can be hovered.
    const double slackA = (m_addrHi - m_addrLo) / r.height(), slackT = double(m_to - m_from) / r.width();
    for (std::size_t i = 0; i < m_data.blocks.size(); ++i) {
        const auto& b = m_data.blocks[i];
        const std::int64_t end = b.free_ns < 0 ? m_end : b.free_ns;
        if (double(b.alloc_ns) > double(t) + slackT || double(end) < double(t) - slackT) continue;
        const auto c = compact(b.addr);
        if (c && double(*c) <= a + slackA && a - slackA <= double(*c + b.size)) return i;
    }
    return std::nullopt;
}

QString MemoryMap::describeBlock(std::size_t index) const {
    const auto& b = m_data.blocks.at(index);
    QString text = QStringLiteral("%1 at 0x%2").arg(formatBytes(double(b.size))).arg(QString::number(qulonglong(b.addr), 16));
    if (!b.name.empty()) text += QStringLiteral("\n%1").arg(QString::fromStdString(b.name));
    if (!b.category.empty()) text += QStringLiteral("\ncategory: %1").arg(QString::fromStdString(b.category));
    if (!b.producer.empty()) text += QStringLiteral("\nproduced by %1").arg(QString::fromStdString(b.producer));
    text += QStringLiteral("\nallocated at %1, ").arg(formatDuration(double(b.alloc_ns - m_t0)));
    text += b.free_ns < 0 ? QStringLiteral("live at the end") : QStringLiteral("freed at %1").arg(formatDuration(double(b.free_ns - m_t0)));
    return text;
}

void MemoryMap::wheelEvent(QWheelEvent* event) {
    const QRect r = plotRect();
    const double f = std::clamp(double(event->position().y() - r.top()) / std::max(1, r.height()), 0.0, 1.0);
    const double at = m_addrHi - f * (m_addrHi - m_addrLo);
    const double scale = event->angleDelta().y() > 0 ? 0.8 : 1.25;
    const double span = std::clamp((m_addrHi - m_addrLo) * scale, 256.0, double(std::max<std::int64_t>(1, m_compactTotal)));
    m_addrHi = at + f * span;
    m_addrLo = m_addrHi - span;
    update();
    event->accept();
}

void MemoryMap::mousePressEvent(QMouseEvent* event) { m_dragY = int(event->position().y()); }

void MemoryMap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton && m_dragY >= 0) {
        const double perPixel = (m_addrHi - m_addrLo) / std::max(1, plotRect().height());
        const double shift = (event->position().y() - m_dragY) * perPixel;
        m_addrLo += shift;
        m_addrHi += shift;
        m_dragY = int(event->position().y());
        update();
        return;
    }
    // A tooltip already open follows the cursor from block to block.
    if (QToolTip::isVisible()) {
        if (const auto i = blockAt(event->position().toPoint())) QToolTip::showText(event->globalPosition().toPoint(), describeBlock(*i), this);
        else QToolTip::hideText();
    }
}

void MemoryMap::mouseDoubleClickEvent(QMouseEvent*) { resetAddressZoom(); }

}  // namespace npu::views
