#include "views/tables/share_bar_delegate.h"

#include <QPainter>

#include <algorithm>

namespace npu::views {

ShareBarDelegate::ShareBarDelegate(int fractionRole, QObject* parent) : QStyledItemDelegate(parent), m_role(fractionRole) {}

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QVariant v = index.data(m_role);
    if (v.isValid()) {
        // The bar keeps left of the figure, which stays right-aligned in its own room, so
        // the digits never sit on the bar (a bar behind them was hard to read, issue 24);
        // in a column too narrow for both, the bar goes behind the text as a faint tint.
        const int textRoom = opt.fontMetrics.horizontalAdvance(opt.text) + 10;
        QRect bar = opt.rect.adjusted(2, 4, -2, -4);
        const bool beside = bar.width() - textRoom >= 24;
        if (beside) bar.setWidth(bar.width() - textRoom);
        bar.setWidth(int(bar.width() * std::clamp(v.toDouble(), 0.0, 1.0)));
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(79, 140, 219, beside ? 170 : 60));
        painter->drawRect(bar);
        painter->restore();
        opt.displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
    }
    QStyledItemDelegate::paint(painter, opt, index);
}

QSize ShareBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(m_role).isValid()) s.setWidth(s.width() + kBarRoom);
    return s;
}

}  // namespace npu::views
