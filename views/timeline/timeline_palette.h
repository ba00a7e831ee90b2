#pragma once
// Slice colours by category: a fixed palette for the simulator's op categories and a
// stable hash colour for anything else (kernel, cpu_op, python_function, ...), so the
// same category keeps its colour across runs and sessions.

#include <QColor>

#include <string_view>

namespace npu::views {

QColor categoryColor(std::string_view category);

// What a timeline slice's colour shows (the timeline's "Colour by" menu): its category,
// its name (the same name, the same colour: repeated kernels line up), or the dtype the
// op computes in (simulated runs; slices without one are grey).
enum class SliceColouring { category, name, dtype };
QColor dtypeColor(std::string_view dtype);

// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor& background);

}  // namespace npu::views
