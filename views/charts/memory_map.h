#pragma once
// The memory map: address (y) against time (x), every allocator block a rectangle
// coloured by category over the segments reserved from the device (grey), so free
// gaps inside reserved memory — fragmentation — are visible. For simulated runs (the
// chosen allocator's replay) and imported memory snapshots (real addresses).
//
// Addresses are compacted: the address ranges segments (or blocks outside any segment)
// cover are stacked without the gaps between them, and a line marks each boundary —
// a snapshot's segments lie gigabytes apart in the virtual address space.
// Drawing is level-of-detail: every block becomes at least one pixel of an image the
// size of the widget, so 100k blocks paint in milliseconds at any zoom.
// The time range follows the Memory chart above it; wheel zooms the address axis,
// drag pans it, double-click resets; hovering names the block under the cursor.

#include "profiler/store/memory_block_store.h"

#include <QColor>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace npu::views {

class MemoryMap : public QWidget {
    Q_OBJECT
public:
    explicit MemoryMap(QWidget* parent = nullptr);

    // t0: the database time the x axis counts from (the Memory chart's origin).
    void setData(profiler::MemoryMapData data, std::int64_t t0);
    void setTimeRange(std::int64_t from_ns, std::int64_t to_ns);  // database time
    void resetAddressZoom();
    // Left and right margins of the plot area, so its time axis lines up with the chart's.
    void setHorizontalMargins(int left, int right);

    int blockCount() const { return static_cast<int>(m_data.blocks.size()); }
    std::int64_t compactBytes() const { return m_compactTotal; }  // the address axis' full height
    // The block drawn at a widget position, if any (index into the data's blocks).
    std::optional<std::size_t> blockAt(QPoint pos) const;
    QString describeBlock(std::size_t index) const;
    QSize sizeHint() const override { return {800, 260}; }
    // The colour of a block category, shared with the Memory chart's stacked areas.
    static QColor categoryColor(const std::string& category);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    struct Region {  // one run of addresses on the compacted axis
        std::int64_t addr = 0, end = 0, offset = 0;
    };
    void buildRegions();
    std::optional<std::int64_t> compact(std::int64_t addr) const;
    QRect plotRect() const;
    double xOf(std::int64_t t_ns) const;
    double yOf(std::int64_t compactAddr) const;

    profiler::MemoryMapData m_data;
    std::vector<Region> m_regions;  // sorted by addr
    std::int64_t m_compactTotal = 0;
    std::int64_t m_t0 = 0, m_from = 0, m_to = 1, m_end = 1;  // m_end: last time in the data
    double m_addrLo = 0, m_addrHi = 1;                       // visible compacted addresses
    int m_dragY = -1;
    int m_left = 78, m_right = 12;
};

}  // namespace npu::views
