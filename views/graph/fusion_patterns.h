#pragma once
// How the views name and colour what a fusion pass made. A fused node carries the
// pattern it matched in its "pattern" attribute (engine/passes/fusion/fusion_context);
// this maps a pattern to a legend colour and to the pass that emits it, so the Passes
// panel can point at the nodes a pass produced. The pattern strings are the engine's
// (FusionRequest::pattern in engine/passes/fusion/*.cpp); a pattern this table does not
// know still gets a stable hash colour and no pass.

#include <QColor>
#include <QString>
#include <QStringList>

namespace npu::views {

QColor patternColor(const QString& pattern);
// The fusion pass ("rms-norm") that emits `pattern` ("rms_norm"); empty when unknown.
// Generic passes (elementwise chains, cast folding) that absorb a named kernel keep its
// pattern, so such a node is counted for the named pattern's pass.
QString passOfPattern(const QString& pattern);
// One line of coloured squares and pattern names, for the patterns present.
QString patternLegendHtml(const QStringList& patterns);

}  // namespace npu::views
