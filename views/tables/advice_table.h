#pragma once
// The read-only table the Diagnostics tab's advice panels share (out of memory:
// oom_panel; communication: communication_advice_panel): no row numbers, alternating
// rows, long cells elided in the middle (full text in the tooltip), whole rows selected,
// the last column stretched.

#include <initializer_list>

class QTableView;
class QWidget;

namespace npu::views {

class RecordTableModel;

QTableView* makeAdviceTable(QWidget* parent, RecordTableModel* model, std::initializer_list<int> widths);

}  // namespace npu::views
