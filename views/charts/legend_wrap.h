#pragma once
// One rule for wrapping a QCustomPlot legend into columns: as many as the widest entry
// (its name plus iconAndSpacing pixels) fits in availableWidth, clamped to [1, maxColumns],
// so no entry is clipped. Used by the Memory chart and the per-rank breakdown chart.
#include "views/charts/qcustomplot_include.h"

#include <algorithm>
#include <climits>

namespace npu::views {

inline void wrapLegendToWidth(QCPLegend* legend, int availableWidth, int iconAndSpacing, int fallbackColumns,
                              int maxColumns = INT_MAX) {
    const QFontMetrics fm(legend->font());
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            widest = std::max(widest, fm.horizontalAdvance(item->plottable()->name()) + iconAndSpacing);
    const int columns = std::clamp(widest > 0 ? availableWidth / widest : fallbackColumns, 1, maxColumns);
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

}  // namespace npu::views
