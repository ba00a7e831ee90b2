#pragma once
// Slice colours by category: a fixed palette for the simulator's op categories and a
// stable hash colour for anything else (kernel, cpu_op, python_function, ...), so the
// same category keeps its colour across runs and sessions.

#include <QColor>

#include <string_view>

namespace npu::views {

QColor categoryColor(std::string_view category);

// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor& background);

}  // namespace npu::views
