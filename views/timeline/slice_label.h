#pragma once
// The text drawn inside a timeline slice of a given width. Scoped op names
// ("layers.3.mlp.act_fn") differ at the end and are elided from the left, but never
// below their last component: "…mlp.act_fn", else "act_…", else nothing. Kernel names
// differ at the start and are elided from the right. A label that would show fewer than
// kMinChars characters is left out ("…t" tells nothing).

#include <QFontMetrics>
#include <QString>

namespace npu::views {

inline constexpr int kSliceLabelMinChars = 3;

QString sliceLabel(const QString& name, const QFontMetrics& fm, int width);

}  // namespace npu::views
