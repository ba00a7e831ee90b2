#include "views/timeline/timeline_details_panel.h"

#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_data.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <cmath>

namespace npu::views {

namespace {

constexpr int kJumpRole = Qt::UserRole + 1;

QString q(const std::string& s) { return QString::fromStdString(s); }

QStandardItem* addRow(QStandardItem* parent, const QString& field, const QString& value, qint64 jump = -1)
{
    auto* key = new QStandardItem(field);
    auto* val = new QStandardItem(value);
    key->setEditable(false);
    val->setEditable(false);
    // Long values are elided in the column: the tooltip has them whole.
    key->setToolTip(field);
    val->setToolTip(value);
    if (jump >= 0) {
        key->setData(jump, kJumpRole);
        val->setData(jump, kJumpRole);
        QFont f = val->font();
        f.setUnderline(true);
        val->setFont(f);
        val->setForeground(QColor(20, 70, 190));
        val->setToolTip(value + QObject::tr("\nClick to select this slice"));
    }
    parent->appendRow({key, val});
    return key;
}

QString jsonScalar(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        // Integers (timestamps in ns, ids) print whole, not as 1.79086e+18.
        const double d = v.toDouble();
        if (d == std::floor(d) && std::abs(d) < 9.2e18)
            return QString::number(static_cast<qint64>(d));
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::String: return v.toString();
    case QJsonValue::Null: return QStringLiteral("null");
    default: return {};
    }
}

void addJson(QStandardItem* parent, const QString& key, const QJsonValue& v)
{
    if (v.isObject()) {
        QStandardItem* node = addRow(parent, key, QStringLiteral("{%1}").arg(v.toObject().size()));
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            addJson(node, it.key(), it.value());
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        QStandardItem* node = addRow(parent, key, QStringLiteral("[%1]").arg(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i)
            addJson(node, QString::number(i), a.at(i));
    } else {
        addRow(parent, key, jsonScalar(v));
    }
}

QStandardItem* section(QStandardItemModel* model, const QString& title)
{
    auto* item = new QStandardItem(title);
    item->setEditable(false);
    QFont f = item->font();
    f.setBold(true);
    item->setFont(f);
    auto* empty = new QStandardItem;
    empty->setEditable(false);
    model->appendRow({item, empty});
    return item;
}

}  // namespace

TimelineDetailsPanel::TimelineDetailsPanel(QWidget* parent) : QWidget(parent)
{
    m_model = new QStandardItemModel(this);
    m_model->setHorizontalHeaderLabels({tr("Field"), tr("Value")});
    m_view = new QTreeView(this);
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    // The field column fits its contents up to 45 % of the width, so the values keep
    // room on a small screen (1024 px wide); both elide in the middle, tooltips hold all.
    m_view->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(true);
    m_view->setTextElideMode(Qt::ElideMiddle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    connect(m_view, &QTreeView::activated, this, &TimelineDetailsPanel::activate);
    // One click follows a link (flows, parents), like a link anywhere else.
    connect(m_view, &QTreeView::clicked, this, &TimelineDetailsPanel::activate);
}

void TimelineDetailsPanel::setSource(std::shared_ptr<const profiler::ProfileDb> db, const TimelineData* data)
{
    m_db = std::move(db);
    m_data = data;
    showSlice(-1);
}

void TimelineDetailsPanel::activate(const QModelIndex& index)
{
    const QVariant jump = index.data(kJumpRole);
    if (jump.isValid())
        emit jumpRequested(jump.toLongLong());
}

void TimelineDetailsPanel::showSlice(qint64 id)
{
    m_shown = id;
    m_model->removeRows(0, m_model->rowCount());
    if (id < 0 || !m_db)
        return;
    const auto details = m_db->slice(id);
    if (!details) {
        section(m_model, tr("Slice %1 not found").arg(id));
        return;
    }
    const profiler::SliceDetails& d = *details;
    const std::int64_t origin = m_data ? m_data->startNs() : 0;
    QStandardItem* slice = section(m_model, tr("Slice"));
    addRow(slice, tr("Name"), q(d.name));
    addRow(slice, tr("Category"), q(d.category));
    addRow(slice, tr("Start"), formatDuration(d.start_ns - origin) + tr(" from trace start"));
    addRow(slice, tr("Duration"), formatDuration(d.dur_ns) + QStringLiteral(" (%1 ns)").arg(d.dur_ns));
    addRow(slice, tr("Depth"), QString::number(d.depth));
    addRow(slice, tr("Id"), QString::number(d.id));
    if (!d.opType.empty() || d.flops > 0 || d.bytes > 0) {
        QStandardItem* op = section(m_model, tr("Operator (simulated)"));
        addRow(op, tr("Op type"), q(d.opType));
        addRow(op, tr("Dtype"), q(d.dtype));
        // A cast or a copy does no arithmetic: "0", not "0FLOP (0)".
        addRow(op, tr("FLOPs"), d.flops > 0 ? formatFlops(d.flops) + QStringLiteral(" (%1)").arg(d.flops, 0, 'f', 0)
                                            : QStringLiteral("0"));
        addRow(op, tr("Bytes"), formatBytes(d.bytes));
        if (const double rate = d.achievedFlopsPerSecond(); rate > 0)
            addRow(op, tr("Achieved rate"), formatFlops(rate) + QStringLiteral("/s"));
    }
    if (!d.args_json.empty()) {
        QStandardItem* args = section(m_model, tr("Arguments"));
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(d.args_json), &error);
        if (doc.isObject()) {
            const QJsonObject o = doc.object();
            for (auto it = o.begin(); it != o.end(); ++it)
                addJson(args, it.key(), it.value());
        } else {
            addRow(args, tr("(raw)"), q(d.args_json));
        }
    }
    const auto flows = m_db->flowsOf(id);
    if (!flows.empty()) {
        QStandardItem* node = section(m_model, tr("Flows (%1)").arg(flows.size()));
        for (const profiler::FlowRow& f : flows) {
            const bool outgoing = f.fromSlice == id;
            const qint64 other = outgoing ? f.toSlice : f.fromSlice;
            const auto o = m_db->slice(other);
            const QString label = (outgoing ? tr("to ") : tr("from ")) + (o ? q(o->name) : QString::number(other));
            addRow(node, q(f.kind), label, other);
        }
    }
    if (m_data) {
        const SliceRef ref = m_data->find(id);
        const auto chain = m_data->parentChain(ref);
        if (!chain.empty()) {
            QStandardItem* node = section(m_model, tr("Parents (outermost first)"));
            for (const SliceRef& p : chain)
                addRow(node, tr("depth %1").arg(m_data->tracks()[static_cast<std::size_t>(p.track)].slices.depth[p.index]),
                       q(m_data->sliceName(p)), m_data->sliceId(p));
        }
    }
    m_view->expandAll();
    fitFieldColumn();
}

void TimelineDetailsPanel::fitFieldColumn()
{
    m_view->resizeColumnToContents(0);
    const int cap = std::max(60, m_view->viewport()->width() * 45 / 100);
    if (m_view->columnWidth(0) > cap)
        m_view->setColumnWidth(0, cap);
}

void TimelineDetailsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitFieldColumn();
}

}  // namespace npu::views
