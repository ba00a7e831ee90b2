#include "views/timeline/track_list_panel.h"

#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_renderer.h"
#include "views/timeline/timeline_widget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace npu::views {

TrackListPanel::TrackListPanel(TimelineWidget* timeline, QWidget* parent) : QWidget(parent), m_timeline(timeline)
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter tracks by name…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows only tracks whose name or device name contains this text (also on the timeline)"));
    m_node = new QComboBox(this);
    m_node->setToolTip(tr("Lists the tracks of one node's devices (the timeline folds nodes from their headers)"));
    m_node->setVisible(false);
    m_list = new QListWidget(this);
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setToolTip(tr("Tick to show, drag to reorder; right-click to pin"));
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    auto* pin = new QPushButton(tr("Pin / Unpin"), this);
    pin->setToolTip(tr("Pin the selected track to the top of the timeline, or unpin it"));
    auto* showAll = new QPushButton(tr("Show All"), this);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(pin);
    buttons->addWidget(showAll);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(m_node);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);

    connect(m_filter, &QLineEdit::textChanged, m_timeline, &TimelineWidget::setTrackFilter);
    connect(m_node, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing)
            refresh();
    });
    connect(m_list, &QListWidget::itemChanged, this, &TrackListPanel::onItemChanged);
    // The drop lands after rowsMoved returns; read the new order once it has settled.
    connect(m_list->model(), &QAbstractItemModel::rowsMoved, this,
            [this] { QTimer::singleShot(0, this, &TrackListPanel::onRowsMoved); });
    connect(pin, &QPushButton::clicked, this, &TrackListPanel::togglePinned);
    connect(showAll, &QPushButton::clicked, this, [this] {
        TrackArrangement a = m_timeline->trackArrangement();
        a.hidden.clear();
        m_timeline->setTrackArrangement(a);
    });
    connect(m_list, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        if (!m_list->itemAt(pos))
            return;
        QMenu menu(this);
        menu.addAction(tr("Pin / Unpin"), this, &TrackListPanel::togglePinned);
        menu.exec(m_list->viewport()->mapToGlobal(pos));
    });
    connect(m_timeline, &TimelineWidget::trackArrangementChanged, this, &TrackListPanel::refresh);
}

void TrackListPanel::refresh()
{
    const QSignalBlocker block(m_list);
    m_refreshing = true;
    const qint64 current = m_list->currentItem() ? m_list->currentItem()->data(TrackIdRole).toLongLong() : -1;
    m_list->clear();
    const TimelineData* data = m_timeline->data();
    const TrackArrangement& arr = m_timeline->trackArrangement();
    // The node chooser: rebuilt for the database at hand, keeping the node chosen.
    const int chosen = m_node->currentIndex() >= 0 ? m_node->currentData().toInt() : -1;
    m_node->clear();
    m_node->setVisible(data && data->multiNode());
    if (data && data->multiNode()) {
        m_node->addItem(tr("All nodes"), -1);
        for (const auto& [node, ranks] : data->nodes().ranksOfNode)
            m_node->addItem(nodeHeaderLabel(*data, node), node);
        m_node->setCurrentIndex(std::max(0, m_node->findData(chosen)));
    }
    const int node = data && data->multiNode() ? m_node->currentData().toInt() : -1;
    if (data) {
        for (const qint64 id : m_timeline->arrangedTrackIds()) {
            const TimelineTrack* track = nullptr;
            const TimelineGroup* group = nullptr;
            for (const TimelineGroup& g : data->groups()) {
                for (const int t : g.tracks) {
                    if (data->tracks()[static_cast<std::size_t>(t)].row.id == id) {
                        track = &data->tracks()[static_cast<std::size_t>(t)];
                        group = &g;
                    }
                }
            }
            if (!track)
                continue;
            const bool pinned = arr.isPinned(id);
            auto* item = new QListWidgetItem(QString::fromStdString(group->name) + QStringLiteral(" · ") +
                                             QString::fromStdString(track->row.name) +
                                             (pinned ? tr("  (pinned)") : QString()));
            item->setData(TrackIdRole, QVariant::fromValue<qlonglong>(id));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
            item->setCheckState(arr.isHidden(id) ? Qt::Unchecked : Qt::Checked);
            QFont f = item->font();
            f.setBold(pinned);
            item->setFont(f);
            m_list->addItem(item);
            item->setHidden(!arr.passesFilter(track->row.name, group->name) || (node >= 0 && group->node != node));
            if (id == current)
                m_list->setCurrentItem(item);
        }
    }
    m_refreshing = false;
}

void TrackListPanel::onItemChanged(QListWidgetItem* item)
{
    if (m_refreshing || !item)
        return;
    m_timeline->setTrackHidden(item->data(TrackIdRole).toLongLong(), item->checkState() != Qt::Checked);
}

void TrackListPanel::onRowsMoved()
{
    // Whichever item now sits out of the timeline's order moved: place it before the
    // item that follows it in the list.
    const std::vector<qint64> before = m_timeline->arrangedTrackIds();
    std::vector<qint64> now;
    for (int i = 0; i < m_list->count(); ++i)
        now.push_back(m_list->item(i)->data(TrackIdRole).toLongLong());
    if (now == before || now.size() != before.size())
        return refresh();
    // The moved item: removing it from both lists makes them equal.
    for (std::size_t i = 0; i < now.size(); ++i) {
        std::vector<qint64> a = now;
        std::vector<qint64> b = before;
        a.erase(a.begin() + static_cast<std::ptrdiff_t>(i));
        b.erase(std::find(b.begin(), b.end(), now[i]));
        if (a == b) {
            m_timeline->moveTrackBefore(now[i], i + 1 < now.size() ? now[i + 1] : -1);
            break;
        }
    }
    refresh();
}

void TrackListPanel::togglePinned()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    const qint64 id = item->data(TrackIdRole).toLongLong();
    m_timeline->setTrackPinned(id, !m_timeline->trackArrangement().isPinned(id));
}

}  // namespace npu::views
