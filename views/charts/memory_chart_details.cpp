// MemoryChart's details under the chart: the tabs of the live blocks, memory per rank
// class and model states, each shown when the run has it, and the memory map under the
// chart or, in a low tab, among them.
#include "views/charts/memory_chart.h"

#include "views/charts/memory_blocks_panel.h"
#include "views/charts/memory_map.h"
#include "views/charts/model_state_table.h"
#include "views/charts/rank_memory_table.h"

#include <QLayout>
#include <QSplitter>
#include <QTabWidget>

namespace npu::views {

void MemoryChart::placeMap() {
    // Under the chart when the tab is tall enough for chart, map and details; else the map
    // is a tab of the details (at 1280x720 the three stacked left the chart 100 px).
    const bool inTabs = height() < kMapUnderChartHeight;
    if (inTabs == (m_map->parentWidget() == m_mapPage)) return;
    const bool shown = !m_map->isHidden();
    if (inTabs) {
        m_mapPage->layout()->addWidget(m_map);
        m_details->insertTab(0, m_mapPage, QStringLiteral("Memory map"));
    } else {
        m_details->removeTab(m_details->indexOf(m_mapPage));
        m_mapPage->hide();
        m_split->insertWidget(1, m_map);
        m_split->setStretchFactor(1, 2);
    }
    m_map->setVisible(shown);
    updateDetailTabs();
}

void MemoryChart::updateDetailTabs() {
    const std::pair<QWidget*, const QWidget*> pages[] = {
        {m_mapPage, m_map}, {m_blocksPage, m_blocks}, {m_rankPage, m_rankMemory}, {m_statesPage, m_modelStates}};
    bool any = false;
    for (const auto& [page, content] : pages) {
        const int tab = m_details->indexOf(page);
        if (tab < 0) continue;
        const bool shown = !content->isHidden();
        m_details->setTabVisible(tab, shown);
        any = any || shown;
    }
    m_details->setVisible(any);
}

}  // namespace npu::views
