#include "views/tables/share_bar_delegate.h"

#include <QPainter>

#include <algorithm>

namespace npu::views {

ShareBarDelegate::ShareBarDelegate(int fractionRole, QObject* parent) : QStyledItemDelegate(parent), m_role(fractionRole) {}

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QVariant v = index.data(m_role);
    if (v.isValid()) {
        const double f = std::clamp(v.toDouble(), 0.0, 1.0);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        bar.setWidth(int(bar.width() * f));
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(79, 140, 219, 110));
        painter->drawRect(bar);
        painter->restore();
    }
    QStyledItemDelegate::paint(painter, option, index);
}

}  // namespace npu::views
