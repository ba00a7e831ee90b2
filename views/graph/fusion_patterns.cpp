#include "views/graph/fusion_patterns.h"

#include <QHash>

namespace npu::views {

namespace {

struct PatternInfo {
    const char* pattern;
    const char* pass;
    QRgb color;
};

// Colours picked to stay apart from each other and readable with black text; families
// share hues (norms teal, attention violet, elementwise greens, matmul/conv blues).
constexpr PatternInfo kPatterns[] = {
    {"flash_attention", "attention", 0xB39DDB},
    {"cross_entropy", "cross-entropy", 0xF48FB1},
    {"layer_norm", "layer-norm", 0x80CBC4},
    {"rms_norm", "rms-norm", 0x4DB6AC},
    {"residual_add_norm", "residual-add-norm", 0x26A69A},
    {"gelu", "gelu", 0xC5E1A5},
    {"swiglu", "swiglu", 0xAED581},
    {"rotary", "rotary", 0xFFE082},
    {"bias_dropout_residual", "bias-dropout-residual", 0xFFCC80},
    {"conv_bn_activation", "conv-bn-activation", 0x90CAF9},
    {"conv_bn", "conv-bn-activation", 0x90CAF9},
    {"conv_activation", "conv-bn-activation", 0x90CAF9},
    {"bn_activation", "conv-bn-activation", 0xBBDEFB},
    {"matmul_epilogue", "matmul-epilogue", 0x64B5F6},
    {"elementwise", "elementwise-chain", 0xE6EE9C},
    {"cast_folding", "cast-folding", 0xD7CCC8},
    {"multi_tensor_optimizer", "multi-tensor-optimizer", 0xBCAAA4},
};

const PatternInfo* patternInfo(const QString& pattern) {
    for (const auto& p : kPatterns)
        if (pattern == QLatin1String(p.pattern)) return &p;
    return nullptr;
}

}  // namespace

QColor patternColor(const QString& pattern) {
    if (const PatternInfo* p = patternInfo(pattern)) return QColor::fromRgb(p->color);
    // Stable across sessions (qHash is seeded per process, so not that).
    quint32 h = 2166136261u;
    for (QChar c : pattern) h = (h ^ c.unicode()) * 16777619u;
    return QColor::fromHsv(static_cast<int>(h % 360), 90, 235);
}

QString passOfPattern(const QString& pattern) {
    const PatternInfo* p = patternInfo(pattern);
    return p ? QString::fromLatin1(p->pass) : QString();
}

QString patternLegendHtml(const QStringList& patterns) {
    QStringList parts;
    for (const QString& p : patterns)
        parts << QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
                     .arg(patternColor(p).name(), p.toHtmlEscaped());
    return parts.join(QStringLiteral(" &nbsp; "));
}

}  // namespace npu::views
