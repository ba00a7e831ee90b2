#!/usr/bin/env python3
"""Builds resources/devices/h200.json from the H200 microbenchmarks.

Usage: make_h200_profile.py [--kernel-time] SHARED_DATA_DIR OUT.json

--kernel-time fits the matmul and attention curves to KERNEL time instead of the
microbenchmarks' per-call time. The microbenchmarks time one eager call between two
CUDA events, so each row holds the host dispatch of that call as well as its kernel.
The shared LLaMA trace (traces/llama_small_amp_bf16_b8s1024_h200.json.gz) times the
kernels of four of the same GEMM shapes; a straight line through those pairs,
per_call_us = slope * kernel_us + host_us, fits them within 3% (see fit_per_call_map),
and inverting it turns every GEMM row, of any shape and dtype, into a kernel time. Flash
attention is mapped the same way with the GEMM slope and its own host part, taken from
its one shape in the trace. Without the flag the profile is the per-call fit that
resources/devices/h200.json holds today (the zoo graphs do not yet spell out HF's
decomposed eager RMSNorm/rotary kernels, whose time that fit's extra host time covers).

Efficiency = achieved rate / datasheet peak, after removing the device-side launch gap
the cost model adds back (so the model reproduces each measured time exactly at the
measured points). Points within 2% of each other in x are averaged (10% for convolutions: ResNet
keeps FLOPs per stage constant, so different shapes share a FLOP count).
"""
import json, sys, os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_kernels  # noqa: E402

args = [a for a in sys.argv[1:] if a != "--kernel-time"]
KERNEL_TIME = "--kernel-time" in sys.argv[1:]
data = args[0]
out = args[1]
mb = json.load(open(os.path.join(data, "hardware/h200_microbench.json")))
ops = json.load(open(os.path.join(data, "hardware/h200_microbench_ops.json")))

MB = "h200_microbench.json"
OPS = "h200_microbench_ops.json"
PEAK = {"fp32": 66.9e12, "tf32": 494.7e12, "bf16": 989.4e12, "fp16": 989.4e12, "int8": 1978.9e12}
BW = 4.8e12
LAUNCH_NS = 2000.0


def merge(points, window=1.02):
    points.sort()
    merged = []
    for x, e in points:
        if merged and x <= merged[-1][0][0] * window:
            merged[-1][1].append((x, e))
        else:
            merged.append([(x, e), [(x, e)]])
    result = []
    for _, group in merged:
        xs = sum(p[0] for p in group) / len(group)
        es = sum(p[1] for p in group) / len(group)
        result.append([float("%.4g" % xs), round(min(es, 1.0), 4)])
    return result


def eff_compute(flops, ms, peak):
    return flops / ((ms * 1e-3 - LAUNCH_NS * 1e-9) * peak)


def eff_memory(nbytes, ms):
    return nbytes / ((ms * 1e-3 - LAUNCH_NS * 1e-9) * BW)


LLAMA_TRACE = "traces/llama_small_amp_bf16_b8s1024_h200.json.gz"


def fit_per_call_map():
    """(slope, host_us): least squares of microbench per-call us against the LLaMA trace's
    kernel us for the bf16 GEMM shapes both measured (M=8192 tokens; hidden 1024, ffn
    2816, vocab 32000 from hardware/h200_llama_small_training.json)."""
    events = trace_kernels.load(os.path.join(data, LLAMA_TRACE))
    kernel = trace_kernels.llama_gemm_kernel_us(events, 8192, 1024, 2816, 32000)
    pairs = []
    for r in mb["gemm"]:
        key = (r["M"], r["K"], r["N"])
        if r["dtype"] == "bf16" and key in kernel:
            pairs.append((sum(kernel[key]) / len(kernel[key]), r["ms"] * 1e3))
            rate = 2.0 * r["M"] * r["K"] * r["N"] / (pairs[-1][0] * 1e-6)
            BEST_KERNEL.update({"rate": rate, "shape": key} if rate > BEST_KERNEL.get("rate", 0) else {})
    n = len(pairs)
    mx = sum(p[0] for p in pairs) / n
    my = sum(p[1] for p in pairs) / n
    slope = sum((x - mx) * (y - my) for x, y in pairs) / sum((x - mx) ** 2 for x, _ in pairs)
    return slope, my - slope * mx, pairs, events


# The fastest bf16 GEMM kernel of the LLaMA trace (rate and M, K, N): the curve's ceiling.
BEST_KERNEL = {}
if KERNEL_TIME:
    SLOPE, HOST_US, GEMM_PAIRS, LLAMA_EVENTS = fit_per_call_map()
    for k, y in GEMM_PAIRS:
        fitted = SLOPE * k + HOST_US
        if abs(fitted / y - 1) > 0.08:
            raise SystemExit("per-call map misses %s us (fit %.1f): refit by hand" % (y, fitted))


def kernel_ms(per_call_ms, host_us=None, slope=True):
    """A microbench per-call time as kernel time (--kernel-time), else unchanged. The
    slope was measured on tensor-core GEMMs only: fp32 (SIMT) rows lose the host part."""
    if not KERNEL_TIME:
        return per_call_ms
    return (per_call_ms * 1e3 - (HOST_US if host_us is None else host_us)) / (SLOPE if slope else 1.0) * 1e-3


def eff_kernel(flops, kernel_ms_, peak):
    # A kernel time has no launch gap in it: the cost model's launch_overhead_ns stands
    # for the gap between kernels, which a real step pays on top of the kernel time.
    return flops / (kernel_ms_ * 1e-3 * peak) if KERNEL_TIME else eff_compute(flops, kernel_ms_, peak)


# GEMM: rows at the ~40 us timing floor time the host-side dispatch, not the kernel.
gemm = {"bf16": [], "fp32": []}
for r in mb["gemm"]:
    if r["ms"] < 0.045:
        continue
    flops = 2.0 * r["M"] * r["N"] * r["K"]
    ms = kernel_ms(r["ms"], slope=r["dtype"] != "fp32")
    gemm[r["dtype"]].append((flops, eff_kernel(flops, ms, PEAK[r["dtype"]])))
# The 8192^3 ceilings are steady-state throughput (no host part, and not the per-call
# timing the slope maps): kept as measured, except the bf16 one in --kernel-time mode,
# where it would sit below the mapped rows of the same timing method's neighbours.
for d, key in (("bf16", "gemm8192_bf16_TFLOPs"), ("fp32", "gemm8192_fp32_TFLOPs")):
    if not (KERNEL_TIME and d == "bf16"):
        gemm[d].append((2.0 * 8192 ** 3, mb["ceilings"][key] * 1e12 / PEAK[d]))

# TF32: no shape sweep was measured, only the 8192^3 ceiling. The curve takes the bf16
# rows' shape in the microbench's own timing (less the host part of a call, as fp32's
# rows) relative to the bf16 ceiling, times the tf32 ceiling, so it passes through the
# one tf32 measurement. The trace slope is not applied: it maps bf16 microbench calls
# to the bf16 kernels of the bf16 trace, and no tf32 kernel was traced (with it, the
# curve sat ~20% above the measured tf32 ceiling at large shapes).
TF32_SCALE = (mb["ceilings"]["gemm8192_tf32_TFLOPs"] / PEAK["tf32"]) / (mb["ceilings"]["gemm8192_bf16_TFLOPs"] / PEAK["bf16"])
gemm["tf32"] = []
for r in mb["gemm"]:
    if r["dtype"] == "bf16" and r["ms"] >= 0.045:
        flops = 2.0 * r["M"] * r["N"] * r["K"]
        gemm["tf32"].append((flops, eff_kernel(flops, kernel_ms(r["ms"], slope=False), PEAK["bf16"]) * TF32_SCALE))
gemm["tf32"].append((2.0 * 8192 ** 3, mb["ceilings"]["gemm8192_tf32_TFLOPs"] * 1e12 / PEAK["tf32"]))

conv = {"bf16": [], "fp32": []}
conv_bwd = {"bf16": [], "fp32": []}
for r in ops["conv"]:
    if r["groups"] != 1:
        continue  # depthwise convs are memory bound: the roofline's memory side covers them
    h_out = r["H"] // r["stride"]
    flops = 2.0 * r["N"] * r["K"] * h_out * h_out * r["C"] * r["R"] * r["R"]
    conv[r["dtype"]].append((flops, eff_compute(flops, r["fwd_ms"], PEAK[r["dtype"]])))
    # data + weight gradients: two convolutions of the forward's FLOPs; each backward op
    # is costed separately, so the curve is indexed by one op's FLOPs.
    bwd_ms = (r["fwd_bwd_ms"] - r["fwd_ms"]) / 2
    conv_bwd[r["dtype"]].append((flops, eff_compute(flops, bwd_ms, PEAK[r["dtype"]])))

# Flash attention: with --kernel-time each row maps through the GEMM slope and a host
# part of its own, fixed by the trace's one attention shape (B8 H16 S1024 D64 causal):
# host = per-call - slope * kernel there; forward and backward separately.
# Convolutions (--kernel-time): the microbench conv rows are mostly host-bound per-call
# timings (a 1x1 conv's kernel is 10-40 us), so the bf16 curves come from the ResNet-50
# trace's kernels by shape instead (forward: kernels of each aten::cudnn_convolution;
# backward: of each aten::convolution_backward, per gradient op). The 3-channel stem
# is left out: with 3 input channels it runs on a non-tensor-core kernel at 3% of peak,
# which a FLOPs-indexed curve cannot tell from a 3x3 conv of the same FLOPs.
RESNET_TRACE = "traces/resnet50_amp_bf16_b64_h200.json.gz"
if KERNEL_TIME:
    conv["bf16"], conv_bwd["bf16"] = [], []
    resnet = trace_kernels.load(os.path.join(data, RESNET_TRACE))
    for shape, fwd_us, bwd_us, grads in trace_kernels.resnet50_conv_kernel_us(resnet, 64):
        if shape[1] < 8:
            continue
        flops = trace_kernels.conv_flops(shape)
        conv["bf16"].append((flops, eff_kernel(flops, fwd_us * 1e-3, PEAK["bf16"])))
        conv_bwd["bf16"].append((flops, eff_kernel(flops, bwd_us / grads * 1e-3, PEAK["bf16"])))

att_f, att_b = [], []
att_host_f = att_host_b = None
if KERNEL_TIME:
    k_fwd, k_bwd = trace_kernels.attention_kernel_us(LLAMA_EVENTS)
    for r in mb["attention"]:
        if (r["B"], r["H"], r["S"], r["D"]) == (8, 16, 1024, 64):
            att_host_f = r["fwd_ms"] * 1e3 - SLOPE * k_fwd
            att_host_b = (r["fwd_bwd_ms"] - r["fwd_ms"]) * 1e3 - SLOPE * k_bwd
for r in mb["attention"]:
    flops = 4.0 * r["B"] * r["H"] * r["S"] * r["S"] * r["D"] / 2  # causal
    att_f.append((flops, eff_kernel(flops, kernel_ms(r["fwd_ms"], att_host_f), PEAK["bf16"])))
    bwd = kernel_ms(r["fwd_bwd_ms"] - r["fwd_ms"], att_host_b)
    att_b.append((2.5 * flops, eff_kernel(2.5 * flops, bwd, PEAK["bf16"])))

elem, norm = [], []
for r in mb["vector_ops"]:
    nbytes = r["GBps"] * 1e9 * r["ms"] * 1e-3
    (elem if r["op"] in ("add", "gelu", "silu") else norm).append((nbytes, eff_memory(nbytes, r["ms"])))
elem.append((1.0e10, mb["ceilings"]["copy_GBps_rw"] * 1e9 / BW))


def bandwidth_by_size(points):
    """Achieved bandwidth per power-of-two size bin, time-weighted (bytes / kernel time of
    the bin's kernels together), as [(mean bytes, efficiency)]; bins of one kernel dropped,
    and kernels under 64 KiB (scalar fills and the like: pure launch latency, which the
    curve's smallest bin and the launch gap cover)."""
    import math
    bins = {}
    for nbytes, us in points:
        if nbytes < 65536:
            continue
        b = bins.setdefault(int(math.floor(math.log2(nbytes))), [0.0, 0.0, 0])
        b[0] += nbytes
        b[1] += us
        b[2] += 1
    return [(b[0] / b[2], b[0] / (b[1] * 1e-6 * BW)) for _, b in sorted(bins.items()) if b[2] > 1]


# Memory-bound kernels (--kernel-time): the microbench vector_ops rows are per-call times
# (a 32 MB add's row holds ~2x its kernel time), so the curves come from the kernels of
# both traces, bytes from their launching op's recorded shapes and dtypes
# (trace_kernels.memory_kernel_points). Two curves by rule, as PyTorch picks its kernel:
# "memory" for operands of one shape and dtype (its vectorized path, and every fused
# kernel), "memory.strided" for broadcast or mixed-dtype operands and concatenation.
strided = []
if KERNEL_TIME:
    pooled = []
    for trace in (LLAMA_TRACE, "traces/resnet50_amp_bf16_b64_h200.json.gz"):
        pooled += trace_kernels.memory_kernel_points(trace_kernels.load(os.path.join(data, trace)))
    elem = bandwidth_by_size([(b, us) for b, us, uniform in pooled if uniform])
    elem.append((1.0e10, mb["ceilings"]["copy_GBps_rw"] * 1e9 / BW))
    strided = bandwidth_by_size([(b, us) for b, us, uniform in pooled if not uniform])

adam = []
adam_rows = [(28.0 * r["params"], r["ms"]) for r in ops["other"] if r["op"] == "adamw_fused_step_fp32"]
# param r/w, grad r, exp_avg r/w, exp_avg_sq r/w (fp32) = 28 bytes per parameter.
# --kernel-time: one fused AdamW call's host part (per-tensor bookkeeping of the param
# list) is the intercept of the line through the two largest rows (ms against bytes);
# it is removed from every row. At 168M parameters the line's slope alone gives 1.42 ms,
# the LLaMA trace's multi_tensor_apply kernels 1.41 ms.
ADAM_HOST_MS = 0.0
if KERNEL_TIME:
    (b1, t1), (b2, t2) = sorted(adam_rows)[-2:]
    ADAM_HOST_MS = t1 - (t2 - t1) / (b2 - b1) * b1
for nbytes, ms in adam_rows:
    adam.append((nbytes, nbytes / ((ms - ADAM_HOST_MS) * 1e-3 * BW) if KERNEL_TIME else eff_memory(nbytes, ms)))

# Dense embedding backward (zero-fill dW, read dY, read-modify-write rows: the engine's
# EmbeddingGrad bytes) from embedding_fwd_bwd - embedding_fwd.
emb = []
fwd = {r["dtype"]: r["ms"] for r in ops["other"] if r["op"] == "embedding_fwd"}
for r in ops["other"]:
    if r["op"] == "embedding_fwd_bwd":
        tokens, vocab, hidden = r["shape"]
        size = 2 if r["dtype"] == "bf16" else 4
        dy = tokens * hidden * size
        nbytes = vocab * hidden * size + 3 * dy + tokens * 8
        emb.append((nbytes, eff_memory(nbytes, r["ms"] - fwd[r["dtype"]])))


def curve(x, points, source, window=1.02, ceiling=None):
    c = {"x": x, "points": merge(points, window), "source": source}
    if ceiling:
        c["ceiling"] = ceiling
    return c


# The trace slope maps the microbench's long GEMMs (8192x4096x11008: 718 TFLOP/s per call)
# above any rate a GEMM kernel was seen to reach on this device (0.89 of peak). The ceiling
# is the trace's fastest GEMM kernel; stas00/ml-engineering's mamf-finder table
# (compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS comparison table")
# finds 794.5 TFLOPS bf16 at best on the H100 SXM, "H200 is the same", 0.803 of peak.
def gemm_ceiling(scale=1.0):
    if not BEST_KERNEL:
        return None
    m, k, n = BEST_KERNEL["shape"]
    return {"value": round(BEST_KERNEL["rate"] / PEAK["bf16"] * scale, 4),
            "source": ("the fastest bf16 GEMM kernel of %s: %dx%dx%d at %.0f TFLOP/s (kernel time); stas00/ml-engineering's "
                       "mamf-finder table finds 794.5 TFLOPS at best on H100/H200 SXM (0.803)") % (
                LLAMA_TRACE, m, k, n, BEST_KERNEL["rate"] / 1e12) + (" scaled as the curve" if scale != 1.0 else "")}


FP16_SCALE = mb["ceilings"]["gemm8192_fp16_TFLOPs"] / mb["ceilings"]["gemm8192_bf16_TFLOPs"]
profile = {
    "format": "npustudio-device",
    "version": 1,
    "name": "h200",
    "description": "NVIDIA H200 SXM (141 GB HBM3e), one GPU, calibrated on PyTorch 2.11 / CUDA 13.0 microbenchmarks",
    "kind": "gpu",
    "peak_flops": {
        "fp32": {"value": PEAK["fp32"], "source": "NVIDIA H200 datasheet: FP32 67 TFLOPS"},
        "tf32": {"value": PEAK["tf32"], "source": "NVIDIA H200 datasheet: TF32 Tensor Core 989 TFLOPS with sparsity, half dense"},
        "bf16": {"value": PEAK["bf16"], "source": "NVIDIA H200 datasheet: BF16 Tensor Core 1,979 TFLOPS with sparsity, half dense"},
        "fp16": {"value": PEAK["fp16"], "source": "NVIDIA H200 datasheet: FP16 Tensor Core 1,979 TFLOPS with sparsity, half dense"},
        "int8": {"value": PEAK["int8"], "source": "NVIDIA H200 datasheet: INT8 Tensor Core 3,958 TOPS with sparsity, half dense"},
    },
    "hbm": {
        "bytes": {"value": mb["env"]["total_mem"], "source": MB + " env.total_mem (torch.cuda.get_device_properties total_memory)"},
        "bandwidth": {"value": BW, "source": "NVIDIA H200 datasheet: 4.8 TB/s HBM3e"},
    },
    "on_chip": {
        "l2_bytes": {"value": 50 * 1024 * 1024, "source": "NVIDIA Hopper architecture whitepaper: 50 MB L2 (GH100 as in H100 SXM5)"},
        "shared_memory_per_core_bytes": {"value": 228 * 1024, "source": "NVIDIA Hopper tuning guide: 228 KB shared memory per SM"},
    },
    "cores": {"value": mb["env"]["sm_count"], "source": MB + " env.sm_count"},
    "launch_overhead_ns": {
        "value": LAUNCH_NS,
        "source": "estimate: device-side gap between back-to-back kernels on one CUDA stream (1-3 us in Nsight timelines). "
                  "Not the 9.4 us host-side eager launch cost of " + OPS + " launch_overhead_1000_tiny_adds",
    },
    "efficiency": {
        "matmul.bf16": curve("flops", gemm["bf16"], (MB + " gemm rows (bf16) as kernel time: (per-call us - %.1f) / %.3f, the line through the per-call and kernel times of the 4 shapes " + LLAMA_TRACE + " shares (fit_per_call_map); rows under 45 us excluded: host-dispatch bound") % (HOST_US, SLOPE) if KERNEL_TIME else MB + " gemm rows (bf16) and ceilings.gemm8192_bf16_TFLOPs / peak bf16; rows under 45 us (512^3, 2048x512x512, 128x4096x4096) excluded: host-dispatch bound", ceiling=gemm_ceiling()),
        "matmul.fp16": curve("flops", [(x, e * FP16_SCALE) for x, e in gemm["bf16"]], MB + " bf16 gemm curve scaled by ceilings.gemm8192_fp16_TFLOPs / gemm8192_bf16_TFLOPs", ceiling=gemm_ceiling(FP16_SCALE)),
        "matmul.fp32": curve("flops", gemm["fp32"], MB + " gemm rows (fp32, TF32 off)" + (" less the %.1f us host part of a call (estimate: the bf16 fit's; no fp32 kernel in the traces)" % HOST_US if KERNEL_TIME else "") + " and ceilings.gemm8192_fp32_TFLOPs / peak fp32"),
        "matmul.tf32": curve("flops", gemm["tf32"], MB + " gemm rows (bf16)" + (" less the %.1f us host part of a call, no trace slope" % HOST_US if KERNEL_TIME else "") + ", their shape relative to ceilings.gemm8192_bf16_TFLOPs scaled to ceilings.gemm8192_tf32_TFLOPs / peak tf32 (no tf32 sweep measured; estimate)"),
        "conv.bf16": curve("flops", conv["bf16"], RESNET_TRACE + " forward conv kernels by shape (torchvision resnet50 call order, batch 64, stem excluded)" if KERNEL_TIME else OPS + " conv rows (bf16, groups 1) fwd_ms", 1.10),
        "conv.fp32": curve("flops", conv["fp32"], OPS + " conv rows (fp32, groups 1) fwd_ms", 1.10),
        "conv_backward.bf16": curve("flops", conv_bwd["bf16"], RESNET_TRACE + " convolution_backward kernels by shape per gradient op (stem excluded)" if KERNEL_TIME else OPS + " conv rows (bf16, groups 1) (fwd_bwd_ms - fwd_ms) / 2 per gradient op", 1.10),
        "conv_backward.fp32": curve("flops", conv_bwd["fp32"], OPS + " conv rows (fp32, groups 1) (fwd_bwd_ms - fwd_ms) / 2 per gradient op", 1.10),
        "attention.bf16": curve("flops", att_f, (MB + " attention rows fwd_ms (flash, causal) as kernel time: (per-call us - %.1f) / %.3f; host part from the B8 H16 S1024 D64 kernels of " + LLAMA_TRACE) % (att_host_f, SLOPE) if KERNEL_TIME else MB + " attention rows fwd_ms (flash, causal)"),
        "attention_backward.bf16": curve("flops", att_b, (MB + " attention rows fwd_bwd_ms - fwd_ms, 2.5x forward FLOPs, as kernel time: (per-call us - %.1f) / %.3f; host part from the B8 H16 S1024 D64 kernels of " + LLAMA_TRACE) % (att_host_b, SLOPE) if KERNEL_TIME else MB + " attention rows fwd_bwd_ms - fwd_ms, 2.5x forward FLOPs"),
        "memory": curve("bytes", elem, (LLAMA_TRACE + " and " + RESNET_TRACE + " memory-bound kernels whose operands share one shape and dtype: bytes (from the ops' recorded shapes) / kernel time per power-of-two size bin, and " + MB + " ceilings.copy_GBps_rw") if KERNEL_TIME else MB + " vector_ops add/gelu/silu GBps / 4.8 TB/s, and ceilings.copy_GBps_rw"),
        **({"memory.strided": curve("bytes", strided, LLAMA_TRACE + " and " + RESNET_TRACE + " memory-bound kernels with broadcast or mixed-dtype operands, and concatenations: bytes / kernel time per power-of-two size bin")} if strided else {}),
        "memory.norm": curve("bytes", norm, MB + " vector_ops softmax/layernorm/rmsnorm GBps / 4.8 TB/s"),
        "memory.EmbeddingGrad": curve("bytes", emb, OPS + " embedding_fwd_bwd - embedding_fwd rows (bf16, fp32), bytes as the engine's EmbeddingGrad counts them"),
        "memory.optimizer": curve("bytes", adam, OPS + " adamw_fused_step_fp32 rows, 28 bytes per parameter" + (", less the %.3f ms host part of a call (intercept of the 1e8 and 1e9 parameter rows)" % ADAM_HOST_MS if KERNEL_TIME else "")),
    },
    "links": {
        "nvlink_bandwidth": {"value": 900e9, "source": "NVIDIA H200 datasheet: NVLink 900 GB/s"},
        "pcie_bandwidth": {"value": 64e9, "source": "NVIDIA H200 datasheet: PCIe Gen5 128 GB/s (both directions), 64 GB/s per direction"},
        "host_optimizer_bandwidth": {"value": 50e9, "source": "estimate: host-side optimizer (DeepSpeed CPU Adam style) share of a dual-socket host's memory bandwidth per GPU"},
    },
}
# Links and the host side are not measured here (NCCL figures, datasheets, host traces):
# carried over from the profile being rewritten.
if os.path.exists(out):
    with open(out) as f:
        kept = json.load(f)
    for key in ("links", "host"):
        if key in kept:
            profile[key] = kept[key]
with open(out, "w") as f:
    json.dump(profile, f, indent=1, ensure_ascii=False)
    f.write("\n")
