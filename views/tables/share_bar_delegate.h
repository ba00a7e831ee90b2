#pragma once
// Draws a share column as a horizontal bar behind its text (the fraction comes from the
// model's FractionRole), so the heavy rows stand out while scanning.

#include <QStyledItemDelegate>

namespace npu::views {

class ShareBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ShareBarDelegate(int fractionRole, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_role;
};

}  // namespace npu::views
