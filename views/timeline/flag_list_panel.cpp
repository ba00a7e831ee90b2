#include "views/timeline/flag_list_panel.h"

#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_renderer.h"
#include "views/timeline/timeline_widget.h"

#include <QHBoxLayout>
#include <QAbstractItemDelegate>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace npu::views {

FlagListPanel::FlagListPanel(TimelineWidget* timeline, QWidget* parent) : QWidget(parent), m_timeline(timeline)
{
    m_table = new QTableWidget(0, 2, this);
    m_table->setHorizontalHeaderLabels({tr("Time"), tr("Note")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    auto* hint = new QLabel(tr("M on the timeline adds a flag at the mouse; double-click a time to go there."), this);
    hint->setWordWrap(true);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    auto removeCurrent = [this] {
        if (m_table->currentRow() >= 0)
            m_timeline->removeFlag(m_table->currentRow());
    };
    connect(remove, &QPushButton::clicked, this, removeCurrent);
    auto* del = new QShortcut(QKeySequence::Delete, m_table);
    del->setContext(Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, removeCurrent);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column == 0)
            m_timeline->goToFlag(row);
    });
    connect(m_table, &QTableWidget::cellChanged, this, [this](int row, int column) {
        if (!m_refreshing && column == 1)
            m_timeline->setFlagNote(row, m_table->item(row, 1)->text());
    });
    connect(m_timeline, &TimelineWidget::flagsChanged, this, &FlagListPanel::refresh);
    connect(m_table->itemDelegate(), &QAbstractItemDelegate::closeEditor, this, [this] {
        if (m_returnFocus)
            m_timeline->setFocus(Qt::OtherFocusReason);
        m_returnFocus = false;
    });
}

void FlagListPanel::refresh()
{
    m_refreshing = true;
    const auto& flags = m_timeline->flags();
    const TimelineData* data = m_timeline->data();
    // Times as the ruler counts them (from the trace start, or the aligned point).
    const qint64 origin = m_timeline->timeOffset() != 0 || !data ? m_timeline->timeOffset() : data->startNs();
    m_table->setRowCount(static_cast<int>(flags.size()));
    for (int i = 0; i < static_cast<int>(flags.size()); ++i) {
        const TimelineFlag& f = flags[static_cast<std::size_t>(i)];
        auto* time = new QTableWidgetItem(formatDuration(static_cast<std::int64_t>(f.t_ns - origin)));
        time->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        time->setToolTip(tr("%1 ns in the database's clock; double-click to go there").arg(f.t_ns));
        m_table->setItem(i, 0, time);
        auto* note = new QTableWidgetItem(f.note);
        note->setToolTip(f.note);
        m_table->setItem(i, 1, note);
    }
    m_refreshing = false;
}

void FlagListPanel::editNote(int index)
{
    if (index < 0 || index >= m_table->rowCount())
        return;
    m_table->setCurrentCell(index, 1);
    // Type the note, Enter: the keys go back to the timeline (the next M is a flag, not an
    // edit of this cell).
    m_returnFocus = true;
    m_table->setFocus(Qt::OtherFocusReason);
    m_table->editItem(m_table->item(index, 1));
}

}  // namespace npu::views
