#pragma once
// Profilers rank by cost: the first click on a numeric column header sorts it
// descending (largest first), as Nsight Systems, MindStudio Insight and Perfetto do;
// text columns keep ascending. A second click on the same column toggles as usual.

class QTableView;

namespace npu::views {

// `sortRole`: the role the table's sort proxy sorts by (a number for numeric columns).
void sortNumbersDescendingFirst(QTableView* table, int sortRole);

}  // namespace npu::views
