#pragma once
// Draws a share column as a horizontal bar left of its right-aligned figure (the
// fraction comes from the model's FractionRole), so the heavy rows stand out while
// scanning and the digits stay readable.

#include <QStyledItemDelegate>

namespace npu::views {

class ShareBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ShareBarDelegate(int fractionRole, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // The text's size plus room for the bar beside it (columns sized to contents).
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    static constexpr int kBarRoom = 64;

private:
    int m_role;
};

}  // namespace npu::views
