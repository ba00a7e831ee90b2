#!/usr/bin/env python3
"""Host time per framework op, by op category, in the shared torch.profiler traces.

Prints the figures of the "host" block of resources/devices/h200.json (see
docs/device-profiles.md): for every top-level framework op on the Python thread
(forward, optimizer) and on the autograd thread (backward), its host time is from its
start to the next top-level op's start on the same thread (the op, its launches and
the Python/autograd glue before the next op); ops that launch at least one kernel are
put in categories by name and each category's host time is divided by its op count (a
framework op is what the simulator's node stands for: aten::conv2d with its cuDNN
launches, aten::batch_norm with its autocast casts). Ops that launch nothing are the
view figure. The traces were recorded with torch.profiler (record_shapes, memory), which
costs host time per recorded event: that cost, measured as the LLaMA trace's step less
the same step unprofiled (h200_llama_small_training.json), is taken off each op. The optimizer is per step (the
Optimizer.step and zero_grad annotations). Also prints each trace's step, kernel time,
device idle and the launch queue's depth. Standard library only.

usage: scripts/measure-host-dispatch.py [TRACE.json.gz ...]
(default: the two traces of ../shared/data/traces)
"""
import collections
import gzip
import json
import os
import sys

LAUNCH = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
          "cudaMemsetAsync", "cudaMemcpyAsync"}
GPU = {"kernel", "gpu_memset", "gpu_memcpy"}

RULES = [  # (substring of the op name, category); first match wins
    ("conv", "conv"), ("Convolution", "conv"),
    ("batch_norm", "norm"), ("BatchNorm", "norm"), ("layer_norm", "norm"), ("LayerNorm", "norm"),
    ("scaled_dot_product", "attention"), ("Attention", "attention"),
    ("linear", "matmul"), ("matmul", "matmul"), ("MmBackward", "matmul"), ("AddmmBackward", "matmul"),
    ("aten::mm", "matmul"), ("aten::bmm", "matmul"), ("BmmBackward", "matmul"),
    ("embedding", "data_movement"), ("Embedding", "data_movement"),
    ("cross_entropy", "reduce"), ("NllLoss", "reduce"), ("LogSoftmax", "reduce"), ("mean", "reduce"),
    ("Mean", "reduce"), ("pool", "reduce"), ("Pool", "reduce"),
]


def category(name):
    for key, cat in RULES:
        if key in name:
            return cat
    return "elementwise"


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))["traceEvents"]


def profiler_events(events):
    """Per thread, the sorted times of what the profiler recorded on the host (ops,
    runtime calls, [memory] instants): each costs the profiler some host time."""
    out = collections.defaultdict(list)
    for e in events:
        if e.get("cat") in ("cpu_op", "cuda_runtime", "cuda_driver", "cpu_instant_event"):
            out[e["tid"]].append(e["ts"])
    for ts in out.values():
        ts.sort()
    return out


def per_event_cost(llama_trace, unprofiled_ms):
    """Host cost of one recorded profiler event: the LLaMA trace's step with the profiler
    on, less the same step without it (h200_llama_small_training.json amp_bf16), over the
    events recorded in the step. A lower bound: the profiled step is host-bound where the
    unprofiled one may not be."""
    events = load(llama_trace)
    step = step_ms(events)
    n = sum(len(ts) for ts in profiler_events(events).values())
    return 1e3 * (step - unprofiled_ms) / n, step, n


def step_ms(events):
    cpu = [e for e in events if e.get("cat") == "cpu_op"]
    gpu = [e for e in events if e.get("cat") in GPU]
    return (max(e["ts"] + e["dur"] for e in gpu) - min(e["ts"] for e in cpu)) / 1e3


def measure(path, event_us):
    import bisect
    events = load(path)
    recorded = profiler_events(events)
    ev = [e for e in events if e.get("ph") == "X"]
    cpu = [e for e in ev if e.get("cat") == "cpu_op"]
    launches = collections.defaultdict(list)
    for e in ev:
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and e["name"] in LAUNCH:
            launches[e["tid"]].append(e["ts"])
    gpu = sorted((e for e in ev if e.get("cat") in GPU), key=lambda e: e["ts"])
    host = collections.defaultdict(float)
    kernels = collections.Counter()
    views_host, views = 0.0, 0
    for tid in {e["tid"] for e in cpu}:
        ops = sorted((e for e in cpu if e["tid"] == tid), key=lambda e: (e["ts"], -e["dur"]))
        top, end = [], -1.0
        for e in ops:
            if e["ts"] >= end:
                top.append(e)
                end = e["ts"] + e["dur"]
        ts = sorted(launches[tid])
        for i, e in enumerate(top):
            nxt = top[i + 1]["ts"] if i + 1 < len(top) else e["ts"] + e["dur"]
            span = nxt - e["ts"]
            if span > 10 * e["dur"] and span > 1000:  # the thread waited (forward -> backward): not dispatch
                span = e["dur"]
            rec = recorded[tid]
            span -= event_us * (bisect.bisect_left(rec, e["ts"] + span) - bisect.bisect_left(rec, e["ts"]))
            if e["name"].startswith("aten::_foreach") or "_fused_adam" in e["name"]:
                continue  # the optimizer: counted per step below
            n = sum(1 for t in ts if e["ts"] <= t < e["ts"] + e["dur"])
            if n == 0:
                views_host += span
                views += 1
            else:
                cat = category(e["name"])
                host[cat] += span
                kernels[cat] += 1
    opt = 0.0
    for e in ev:
        if e.get("cat") == "user_annotation" and e["name"].startswith("Optimizer."):
            rec = recorded[e["tid"]]
            opt += e["dur"] - event_us * (bisect.bisect_left(rec, e["ts"] + e["dur"]) - bisect.bisect_left(rec, e["ts"]))
    # Step: first CPU op to the last device activity; device busy and idle; launch queue depth.
    start = min(e["ts"] for e in cpu)
    end = max(e["ts"] + e["dur"] for e in gpu)
    busy = sum(e["dur"] for e in gpu if e.get("cat") == "kernel")
    starts = sorted(e["ts"] for e in gpu)
    depth = 0
    for tid, ts in launches.items():
        for t in ts:
            depth = max(depth, sum(1 for s in starts if s > t) - sum(1 for s in starts if s > end))
    return host, kernels, views_host, views, opt, (end - start) / 1e3, busy / 1e3, len([e for e in gpu if e.get("cat") == "kernel"])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data = os.path.join(here, "..", "..", "shared", "data")
    paths = sys.argv[1:] or [os.path.join(data, "traces", n)
                             for n in ("resnet50_amp_bf16_b64_h200.json.gz", "llama_small_amp_bf16_b8s1024_h200.json.gz")]
    runs = json.load(open(os.path.join(data, "hardware", "h200_llama_small_training.json")))["llama_small"]["runs"]
    unprofiled = next(r["step_ms"] for r in runs if r["mode"] == "amp_bf16" and not r["ckpt"])
    event_us, profiled, n = per_event_cost(os.path.join(data, "traces", "llama_small_amp_bf16_b8s1024_h200.json.gz"), unprofiled)
    print(f"profiler cost per recorded event: ({profiled:.2f} - {unprofiled:.2f} ms) / {n} events = {event_us:.3f} us, "
          "taken off every host time below")
    host, kernels = collections.defaultdict(float), collections.Counter()
    vh, vn, opt_total, opt_steps = 0.0, 0, 0.0, 0
    for p in paths:
        h, k, v_host, v_n, opt, step, busy, nk = measure(p, event_us)
        print(f"{os.path.basename(p)}: step {step:.2f} ms, {nk} kernels {busy:.2f} ms, device idle {step - busy:.2f} ms")
        for cat in sorted(k):
            print(f"  {cat:14s} {k[cat]:5d} ops       {h[cat] / k[cat]:7.1f} us host per op")
        print(f"  {'views':14s} {v_n:5d} ops       {v_host / max(1, v_n):7.1f} us host per op")
        print(f"  {'optimizer':14s} {opt:9.1f} us host per step")
        for cat in k:
            host[cat] += h[cat]
            kernels[cat] += k[cat]
        vh, vn = vh + v_host, vn + v_n
        opt_total, opt_steps = opt_total + opt, opt_steps + 1
    print("both traces (the device profile's figures, ns):")
    for cat in sorted(kernels):
        print(f"  {cat:14s} {1e3 * host[cat] / kernels[cat]:9.0f}  ({kernels[cat]} ops)")
    print(f"  {'views':14s} {1e3 * vh / max(1, vn):9.0f}  ({vn} ops)")
    print(f"  {'optimizer':14s} {1e3 * opt_total / max(1, opt_steps):9.0f}  (per step, {opt_steps} steps)")


if __name__ == "__main__":
    main()
