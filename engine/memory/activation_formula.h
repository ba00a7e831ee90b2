#pragma once
// Activation memory of one transformer layer, Korthikanti et al. 2022 ("Reducing
// Activation Recomputation in Large Transformer Models", eq. 1, 16-bit activations, no
// tensor/sequence parallelism, no recomputation): s*b*h*(34 + 5*a*s/h) bytes, where
// the 5*a*s/h term is the attention scores, softmax output and its dropout mask (2+2+1
// bytes per a*s*s*b element). A flash-attention kernel never materialises those, so the
// layer keeps s*b*h*34 bytes (plus the log-sum-exp statistics, a*s*b*4 bytes, which the
// paper's model does not count and which this returns separately).

#include <cstdint>

namespace npu::engine {

struct ActivationFormulaInput {
    double seq = 0;     // s
    double batch = 0;   // b
    double hidden = 0;  // h
    double heads = 0;   // a
};

double korthikantiLayerBytes(const ActivationFormulaInput& in);
double korthikantiLayerBytesFlash(const ActivationFormulaInput& in);
double flashSoftmaxStatsBytes(const ActivationFormulaInput& in);

}  // namespace npu::engine
