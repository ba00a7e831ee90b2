#pragma once
// Activation memory of one transformer layer, Korthikanti et al. 2022 ("Reducing
// Activation Recomputation in Large Transformer Models", arXiv:2205.05198, sec. 4.1 and
// eq. 1; 16-bit activations, dropout on, no tensor/sequence parallelism, no
// recomputation): s*b*h*(34 + 5*a*s/h) bytes. The paper's derivation, per tensor saved:
//   attention 11sbh + 5as^2b: the QKV projections' input 2sbh, Q and K for Q.K^T 4sbh,
//     the softmax output 2as^2b, its dropout mask as^2b (1 byte per element), the
//     dropout output 2as^2b and V 2sbh for the product with V, the output projection's
//     input 2sbh and its dropout mask sbh (the raw scores Q.K^T are not kept: softmax's
//     backward needs only its output);
//   MLP 19sbh: the first linear's input 2sbh, GeLU's input 8sbh, the second linear's
//     input 8sbh, its dropout mask sbh;
//   the two LayerNorms' inputs 4sbh (their fp32 mean and rstd, 8sb, are left out).
// A flash-attention kernel never materialises the as^2b tensors (it regenerates its
// dropout mask from the RNG seed), so the layer keeps s*b*h*34 bytes (plus the
// log-sum-exp statistics, a*s*b*4 bytes, which the paper's model does not count and
// which this returns separately).

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
