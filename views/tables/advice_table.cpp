#include "views/tables/advice_table.h"

#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QTableView>

namespace npu::views {

QTableView* makeAdviceTable(QWidget* parent, RecordTableModel* model, std::initializer_list<int> widths) {
    auto* t = new QTableView(parent);
    t->setModel(model);
    t->verticalHeader()->setVisible(false);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideMiddle);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setStretchLastSection(true);
    int c = 0;
    for (int w : widths) t->horizontalHeader()->resizeSection(c++, w);
    return t;
}

}  // namespace npu::views
