#pragma once
// Eliding a name so the part that tells it from its neighbours stays: kernel names of one
// family share long prefixes ("void at::native::elementwise_kernel<128, 4, ...>",
// "sm90_xmma_gemm_bf16bf16_..."), and a middle or right elision shows them all alike.
// distinctFrom is where the name first differs from the most similar other name of its
// table (sharedPrefixLengths); the elided text starts a few characters before it.

#include <QStyledItemDelegate>

#include <vector>

class QFontMetrics;

namespace npu::views {

// Per name: the longest prefix it shares with any other name of the list.
std::vector<int> sharedPrefixLengths(const std::vector<QString>& names);

// `text` in `width` pixels: whole if it fits; else "…" + from just before distinctFrom,
// elided on the right; a name without a long shared prefix is elided in the middle.
QString distinguishingElide(const QString& text, int distinctFrom, const QFontMetrics& fm, int width);

// Draws a column's text with distinguishingElide, reading distinctFrom from `role`.
class DistinguishingElideDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    DistinguishingElideDelegate(int distinctFromRole, QObject* parent);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_role;
};

}  // namespace npu::views
