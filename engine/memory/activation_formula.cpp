#include "engine/memory/activation_formula.h"

namespace npu::engine {

double korthikantiLayerBytes(const ActivationFormulaInput& in) {
    return in.seq * in.batch * in.hidden * (34 + 5 * in.heads * in.seq / in.hidden);
}

double korthikantiLayerBytesFlash(const ActivationFormulaInput& in) { return in.seq * in.batch * in.hidden * 34; }

double flashSoftmaxStatsBytes(const ActivationFormulaInput& in) { return in.heads * in.seq * in.batch * 4; }

}  // namespace npu::engine
