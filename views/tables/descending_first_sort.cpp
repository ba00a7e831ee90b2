#include "views/tables/descending_first_sort.h"

#include <QHeaderView>
#include <QTableView>

#include <memory>

namespace npu::views {

namespace {
bool isNumber(const QVariant& v) {
    switch (v.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Double:
    case QMetaType::Float: return true;
    default: return false;
    }
}
}  // namespace

void sortNumbersDescendingFirst(QTableView* table, int sortRole) {
    QHeaderView* header = table->horizontalHeader();
    auto last = std::make_shared<int>(header->sortIndicatorSection());
    QObject::connect(header, &QHeaderView::sortIndicatorChanged, table,
                     [table, header, last, sortRole](int column, Qt::SortOrder order) {
                         const bool newColumn = column != *last;
                         *last = column;
                         if (!newColumn || order == Qt::DescendingOrder || !table->model()) return;
                         if (isNumber(table->model()->index(0, column).data(sortRole)))
                             header->setSortIndicator(column, Qt::DescendingOrder);
                     });
}

}  // namespace npu::views
