#!/usr/bin/env python3
"""Kernel time of a real PyTorch (Kineto) trace, by op category, and the LLaMA trace's
matmul and attention kernels by shape (the source make_h200_profile.py fits from).

Usage: trace_kernels.py TRACE.json.gz [SIM_REPORT.json]

Prints each category's kernel count and time; with a `npustudio --batch --report`
(or `--against TRACE --report`, whose measured column it prints beside its own count)
JSON of the simulated step it prints the simulated time_by_category_ms beside it and
the error of the major categories (matmul, conv, attention, optimizer, and all
memory-bound kernels together). The name rules are those of
profiler/analysis/kernel_category.cpp (first match wins, same order), restated here so
the check is independent of the C++ code under test.
"""
import gzip, json, sys, collections

MAJOR = ("matmul", "conv", "attention", "optimizer")


def _any(n, words):
    return any(w in n for w in words)


def category(name):
    n = name.lower()
    if _any(n, ("nccl", "allreduce", "all_reduce", "allgather", "reducescatter")):
        return "comm"
    at = n.find("triton_")
    if at >= 0:
        kind = n[at + 7:at + 10]
        return "reduce" if kind in ("red", "per") else "matmul" if kind in ("mm_", "tem") else "elementwise"
    if _any(n, ("adam", "sgd", "adagrad", "lamb_", "multi_tensor_apply", "optimizer", "fused_optim")):
        return "optimizer"
    if _any(n, ("flash", "sdpa", "fmha", "attention", "attn", "dot_do_o", "convert_dq")):
        return "attention"
    if _any(n, ("convolution", "conv2d", "conv1d", "conv3d", "depthwise", "fprop", "dgrad", "wgrad", "winograd",
                "scudnn", "nhwckrsc", "cask_cudnn", "cask_plugin")):
        return "conv"
    if _any(n, ("batch_norm", "batchnorm", "bn_fw", "bn_bw", "layer_norm", "layernorm", "rms_norm", "rmsnorm",
                "group_norm", "groupnorm", "instance_norm", "gammabetabackward", "rowwisemoments", "softmax",
                "cross_entropy", "crossentropy")):
        return "norm"
    if _any(n, ("gemm", "gemv", "nvjet", "cutlass", "cublas", "matmul", "splitkreduce", "xmma", "magma",
                "epilogue::")):
        return "matmul"
    if _any(n, ("reduce", "nll_loss", "radix_sort", "radixsort", "scan", "argmax", "topk", "cumsum", "global_avg",
                "adaptive_avg")):
        return "reduce"
    if "_copy_kernel" in n and ("direct_copy" not in n or _any(n, ("loadwithcast", "storewithcast"))):
        return "elementwise"
    if _any(n, ("copy", "cat_array", "catarray", "gather", "scatter", "index", "embedding", "transpose", "permute",
                "pool", "pad", "nchwtonhwc", "nhwctonchw")):
        return "data_movement"
    if _any(n, ("elementwise", "fill", "relu", "gelu", "silu", "dropout", "threshold", "clamp")):
        return "elementwise"
    return "other"


def major(cat):
    return cat if cat in MAJOR else "memory_bound"


def load(path):
    t = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    return t["traceEvents"] if isinstance(t, dict) else t


def kernels(events):
    # memcpy/memset run on the copy engines or as driver fills: data movement
    return [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and e.get("ph") == "X"]


def by_category(events):
    """{category: [count, ms]}. cuDNN runs many convolutions as GEMM kernels (nvjet,
    cutlass gemm, split-K reduce) whose names say matmul: a kernel launched by a
    convolution op (its External id) counts as conv, as the simulator counts it."""
    conv_ops = {e["args"].get("External id") for e in events
                if e.get("cat") == "cpu_op" and e["name"] in ("aten::cudnn_convolution", "aten::convolution_backward")}
    out = collections.defaultdict(lambda: [0, 0.0])
    for k in kernels(events):
        c = "data_movement" if k["cat"] != "kernel" else category(k["name"])
        if c in ("matmul", "conv", "reduce", "other") and k["args"].get("External id") in conv_ops:
            c = "conv"
        out[c][0] += 1
        out[c][1] += k["dur"] / 1000.0
    return out


def launched_by(events, op_names):
    """[(cpu op, its kernels)] for each cpu op named in op_names, in issue order
    (kernels carry their launching op's External id)."""
    by_ext = collections.defaultdict(list)
    for k in kernels(events):
        by_ext[k["args"].get("External id")].append(k)
    ops = sorted((e for e in events if e.get("cat") == "cpu_op" and e["name"] in op_names), key=lambda e: e["ts"])
    return [(o, by_ext.get(o["args"].get("External id"), [])) for o in ops]


def llama_gemm_kernel_us(events, tokens, hidden, ffn, vocab):
    """{(M, K, N): [kernel us, ...]} of the HF LLaMA trace's aten::mm calls. The trace has
    no input shapes; they follow from the call order of a LlamaForCausalLM step: per layer
    forward q, k, v, o (h->h), gate, up (h->ffn), down (ffn->h), then lm_head (h->vocab);
    backward in reverse, two mm per linear (input and weight gradient, same FLOPs)."""
    calls = [(o, ks) for o, ks in launched_by(events, ("aten::mm",))]
    layer = [(hidden, hidden)] * 4 + [(hidden, ffn), (hidden, ffn), (ffn, hidden)]
    layers = (len(calls) - 3) // 21
    fwd = layer * layers + [(hidden, vocab)]
    bwd = []
    for k_in, n_out in reversed(fwd):
        bwd += [(k_in, n_out)] * 2
    shapes = fwd + bwd
    if len(shapes) != len(calls):
        raise SystemExit("unexpected aten::mm count %d for %d layers" % (len(calls), layers))
    out = collections.defaultdict(list)
    for (k_in, n_out), (_, ks) in zip(shapes, calls):
        out[(tokens, k_in, n_out)].append(sum(k["dur"] for k in ks))
    return out


def attention_kernel_us(events):
    """(forward us, backward us) of one cuDNN SDPA call: the kernels its
    _cudnn_attention_forward / _backward op launched (flash fprop; flash bprop with the
    dO.O row-sum and dQ conversion helpers), averaged over the calls."""
    def per_call(name):
        calls = launched_by(events, (name,))
        return sum(sum(k["dur"] for k in ks) for _, ks in calls) / len(calls)
    return per_call("aten::_cudnn_attention_forward"), per_call("aten::_cudnn_attention_backward")


def resnet50_conv_shapes(batch, image=224):
    """[(N, C_in, H_in, C_out, k, stride)] of torchvision's resnet50 convolutions in call
    order: the stem, then per bottleneck conv1 (1x1), conv2 (3x3, carrying the stage's
    stride), conv3 (1x1), and in each stage's first block the 1x1 downsample after them."""
    shapes = [(batch, 3, image, 64, 7, 2)]
    h, c_in = image // 4, 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for b in range(blocks):
            s = stride if b == 0 else 1
            shapes += [(batch, c_in, h, width, 1, 1), (batch, width, h, width, 3, s),
                       (batch, width, h // s, 4 * width, 1, 1)]
            if b == 0:
                shapes.append((batch, c_in, h, 4 * width, 1, s))
            h //= s
            c_in = 4 * width
    return shapes


def conv_flops(shape):
    n, c_in, h, c_out, k, stride = shape
    h_out = h // stride
    return 2.0 * n * h_out * h_out * c_out * c_in * k * k


def resnet50_conv_kernel_us(events, batch):
    """[(shape, forward kernel us, backward kernel us, backward gradient ops)] of the ResNet
    trace: kernels launched by each aten::cudnn_convolution (forward) and, in reverse
    order, each aten::convolution_backward (input and weight gradients; the stem's input
    needs none)."""
    shapes = resnet50_conv_shapes(batch)
    fwd = launched_by(events, ("aten::cudnn_convolution",))
    bwd = list(reversed(launched_by(events, ("aten::convolution_backward",))))
    if len(fwd) != len(shapes) or len(bwd) != len(shapes):
        raise SystemExit("unexpected convolution count %d/%d, resnet50 has %d" % (len(fwd), len(bwd), len(shapes)))
    out = []
    for i, shape in enumerate(shapes):
        out.append((shape, sum(k["dur"] for k in fwd[i][1]), sum(k["dur"] for k in bwd[i][1]), 1 if i == 0 else 2))
    return out


DTYPE_BYTES = {"float": 4, "c10::BFloat16": 2, "c10::Half": 2, "double": 8, "long int": 8, "int": 4, "bool": 1,
               "unsigned char": 1, "signed char": 1, "short int": 2}
# One-kernel memory-bound aten ops and how their traffic follows from their inputs:
# "out": reads every tensor input, writes one output of the broadcast shape in the widest
# input dtype (type promotion); "inplace": reads the inputs, writes the first; "copy":
# copy_(dst, src) reads src and writes dst; "read": a reduction reads its input (its output
# is small); "write": fill_ writes its tensor.
MEMORY_OPS = {"aten::mul": "out", "aten::add": "out", "aten::sub": "out", "aten::div": "out", "aten::neg": "out",
              "aten::pow": "out", "aten::rsqrt": "out", "aten::silu": "out", "aten::silu_backward": "out",
              "aten::cat": "out", "aten::threshold_backward": "out", "aten::add_": "inplace", "aten::mul_": "inplace",
              "aten::clamp_min_": "inplace", "aten::copy_": "copy", "aten::mean": "read", "aten::sum": "read",
              "aten::fill_": "write"}


def _tensors(dims, types):
    """[(numel, bytes per element)] of an op's tensor inputs (lists of tensors, as cat's, flattened)."""
    out = []
    for d, t in zip(dims, types):
        if not d:
            continue
        shapes = d if isinstance(d[0], list) else [d]
        for s in shapes:
            n = 1
            for x in s:
                n *= x
            if n > 0 and t in DTYPE_BYTES:
                out.append((n, DTYPE_BYTES[t]))
    return out


def memory_kernel_points(events):
    """[(bytes, kernel us, uniform)] of the trace's memory-bound kernels whose traffic follows from
    their launching op's recorded input shapes and types (MEMORY_OPS; ops that launched
    exactly one kernel). uniform: every tensor input has the same element count and dtype
    (PyTorch's vectorized path), as against broadcast or mixed-dtype operands and
    concatenation (its strided/casting path). The source of the device profile's
    memory curves (--kernel-time)."""
    by_ext = collections.defaultdict(list)
    for k in kernels(events):
        by_ext[k["args"].get("External id")].append(k)
    points = []
    for e in events:
        rule = MEMORY_OPS.get(e.get("name")) if e.get("cat") == "cpu_op" else None
        args = e.get("args", {})
        ks = by_ext.get(args.get("External id"), [])
        if not rule or len(ks) != 1 or ks[0]["cat"] != "kernel" or "Input Dims" not in args:
            continue
        ts = _tensors(args["Input Dims"], args.get("Input type", []))
        if not ts:
            continue
        if rule == "out":
            if e["name"] == "aten::cat":
                out = sum(n for n, _ in ts) * max(b for _, b in ts)
            else:
                out = max(n for n, _ in ts) * max(b for _, b in ts)
            nbytes = sum(n * b for n, b in ts) + out
        elif rule == "inplace":
            nbytes = sum(n * b for n, b in ts) + ts[0][0] * ts[0][1]
        elif rule == "write":
            nbytes = ts[0][0] * ts[0][1]
        else:
            nbytes = sum(n * b for n, b in ts)
        uniform = e["name"] != "aten::cat" and len(set(ts)) == 1
        if ks[0]["dur"] > 0:
            points.append((float(nbytes), float(ks[0]["dur"]), uniform))
    return points


def main():
    events = load(sys.argv[1])
    cats = by_category(events)
    sim, measured = {}, {}
    if len(sys.argv) > 2:
        rep = json.load(open(sys.argv[2]))
        sim = rep.get("time_by_category_ms", rep.get("simulation", {}).get("time_by_category_ms", {}))
        if "against" in rep:
            # `--against` reports (docs/report-format.md) use the registry's names; reports
            # written before stop 44 used three older ones. Its measured column is what this
            # script checks independently.
            names = {"reduction": "reduce", "memory_copy": "data_movement", "communication": "comm"}
            sim = {names.get(r["category"], r["category"]): r["simulated_ms"] for r in rep["against"]["categories"]}
            measured = {names.get(r["category"], r["category"]): r["measured_ms"] for r in rep["against"]["categories"]}
    print("%-14s %6s %10s %10s %12s" % ("category", "count", "trace_ms", "sim_ms", "against_meas"))
    for c, (n, ms) in sorted(cats.items(), key=lambda x: -x[1][1]):
        print("%-14s %6d %10.3f %10s %12s" % (c, n, ms, "%.3f" % sim[c] if c in sim else "-",
                                               "%.3f" % measured[c] if c in measured else "-"))
    print("total          %6d %10.3f" % (sum(v[0] for v in cats.values()), sum(v[1] for v in cats.values())))
    groups = collections.defaultdict(lambda: [0.0, 0.0])
    for c, (_, ms) in cats.items():
        groups[major(c)][0] += ms
    for c, ms in sim.items():
        groups[major(c)][1] += ms
    print("\n%-14s %10s %10s %8s" % ("major", "trace_ms", "sim_ms", "error"))
    for g in MAJOR + ("memory_bound",):
        t, s = groups[g]
        if t or s:
            err = "%+.1f%%" % (100 * (s - t) / t) if t and sim else "-"
            print("%-14s %10.3f %10.3f %8s" % (g, t, s, err))


if __name__ == "__main__":
    main()
