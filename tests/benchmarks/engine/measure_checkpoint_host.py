#!/usr/bin/env python3
"""Host cost of per-layer activation checkpointing, measured on this machine's CPU.

Usage: measure_checkpoint_host.py [--reps N] [--quick]

Why: the checkpointed H200 LLaMA-small step (h200_llama_small_training.json,
amp_bf16_checkpointing: 66.51 ms) is ~21 ms longer than all of its host work issued back
to back (docs/calibration.md, "What the measurements imply"); the suspect is
torch.utils.checkpoint's own Python work (hooks per saved tensor, frame bookkeeping,
the re-run's detaches), which no trace in ../shared/data shows. This script measures it.

How: a LLaMA decoder stack written as HF's eager LlamaDecoderLayer runs it (RMSNorm
decomposed: to(fp32), pow, mean, add eps, rsqrt, mul, to(dtype), weight mul; rotary: mul
cos, slices, neg, cat, mul sin, add; q/k/v/o linears; causal attention; gate/up/down with
SiLU * up; residual adds), 8 layers + embedding + final norm + lm_head + cross-entropy,
at tiny sizes on the CPU with one thread, so kernels cost ~nothing and the time is host
overhead (Python, dispatcher, autograd). Forward+backward is timed for:
  plain           no checkpointing
  hooks           identity saved_tensors_hooks around each layer (the bare price of a
                  Python pack + unpack per saved tensor)
  ckpt            torch.utils.checkpoint per layer, use_reentrant=False (what HF
                  transformers 5.x uses)
  ckpt_norng      the same with preserve_rng_state=False
  ckpt_reentrant  use_reentrant=True
  ckpt_v2         use_reentrant=False re-implemented with the per-saved-tensor work of
                  PyTorch 2.x's _checkpoint_without_reentrant_generator (metadata dict
                  per saved tensor, holder + handle objects, graph-task lookup, early stop,
                  the metadata check after the re-run); see docs/calibration.md for what it
                  leaves out. Not PyTorch's code: a re-statement of the steps it takes.
each in fp32 and under CPU autocast(bf16) when available. Also: the eager dispatch of
one tiny add in a Python loop (the H200 data's launch_overhead_1000_tiny_adds), the
forward of the 8 layers alone (what the re-run repeats), and per layer the aten ops and
the saved tensors (counted with saved_tensors_hooks).

The interesting number is the checkpoint's extra host time beyond re-running the
layers' forward: (ckpt - plain) - layers_forward, per saved tensor and per layer, in
units of one tiny-add dispatch, and as a multiple of the re-run's own host time. That
multiple (1.8-2.2 for the layers, about 2 for long op chains) is the h200 profile's
host.checkpoint_overhead_ratio; the printed output is in measure_checkpoint_host_output.txt.

PyTorch 1.13 (Debian's python3-torch) has no scaled_dot_product_attention: attention is
the math path (matmul, scale, causal mask, softmax, matmul), which saves more tensors
than the fused kernel; the per-saved-tensor figures do not depend on that.
"""
import argparse
import contextlib
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as tuc

from checkpoint_host_model import BATCH, HEADS, HIDDEN, INTER, LAYERS, SEQ, VOCAB, DecoderLayer, Model
from checkpoint_v2 import checkpoint_v2

torch.set_num_threads(1)
torch.manual_seed(0)

# The H200 side, for the projection at the end (sources in the comment there).
H200_TINY_ADD_US = 9.399
H200_LAYERS_FORWARD_MS = 10.31


def autocast_ctx(bf16):
    return torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()


def step(model, ids, labels, bf16):
    with autocast_ctx(bf16):
        loss = model(ids, labels)
    loss.backward()


def timed(fn, reps, inner):
    """Median over reps of the mean CPU time of `inner` calls, in microseconds.

    CPU time of this process, not wall time: the machine is shared, and a process
    waiting for a core would otherwise count the wait (one torch thread, and on the CPU
    the autograd engine runs the backward on the calling thread)."""
    out = []
    for _ in range(reps):
        t0 = time.process_time()
        for _ in range(inner):
            fn()
        out.append((time.process_time() - t0) / inner * 1e6)
    return statistics.median(out), out


def tiny_add_us(reps):
    x = torch.ones(4)

    def loop():
        for _ in range(1000):
            x + x
    med, _ = timed(loop, reps, 1)
    return med / 1000


def layers_forward(model, h, cos, sin, bf16):
    # What a checkpoint's re-run repeats: the layers' forward with grad recording on.
    with autocast_ctx(bf16):
        for layer in model.layers:
            layer(h, cos, sin)


class OpCounter(torch.utils._python_dispatch.TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.__name__ not in ("detach.default",):
            self.n += 1
        return func(*args, **(kwargs or {}))


def counts(bf16):
    """aten ops and saved tensors of one decoder layer's forward (and its backward)."""
    layer = DecoderLayer()
    h = torch.randn(BATCH, SEQ, HIDDEN, requires_grad=True)
    m = Model("plain")
    cos, sin = m.rotary(torch.arange(SEQ)[None, :])
    saved = [0]

    def pack(x):
        saved[0] += 1
        return x
    fwd = OpCounter()
    with fwd, autocast_ctx(bf16), torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
        out = layer(h, cos, sin)
    # Backward: autograd functions the engine runs (each one call from the autograd thread).
    seen, todo = set(), [out.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        todo.extend(f for f, _ in fn.next_functions)
    return fwd.n, len(seen), saved[0]


def chain(x, k):
    # k ops that save one tensor each (sin saves its input): a region of k saved tensors.
    for _ in range(k):
        x = torch.sin(x)
    return x


CHAIN_WEIGHTS = [nn.Parameter(torch.randn(4, 4)) for _ in range(64)]


def linear_chain(x, k):
    # k linears, each saving its input and its weight (a parameter): 2k saved tensors.
    for i in range(k):
        x = F.linear(x, CHAIN_WEIGHTS[i])
    return x


def chain_costs(reps, inner, fn, regions=8):
    """Checkpoint cost beyond the re-run for regions of k = 1..64 ops of fn: a line
    through (k, extra) gives the cost per op (slope) and per region (intercept)."""
    x0 = torch.randn(4, 4, requires_grad=True)
    rows = []
    for k in (1, 4, 16, 64):
        def run(ck):
            x = x0 * 1.0
            for _ in range(regions):
                x = tuc.checkpoint(fn, x, k, use_reentrant=False) if ck == "ckpt" else \
                    checkpoint_v2(fn, x, k) if ck == "ckpt_v2" else fn(x, k)
            x.sum().backward()

        def fwd_only():
            with torch.enable_grad():
                x = x0 * 1.0
                for _ in range(regions):
                    x = fn(x, k)
        for ck in ("plain", "ckpt", "ckpt_v2"):
            run(ck)
        samples = {ck: [] for ck in ("plain", "ckpt", "ckpt_v2", "fwd")}
        for _ in range(reps):
            for ck in ("plain", "ckpt", "ckpt_v2"):
                samples[ck].append(timed(lambda: run(ck), 1, inner)[0])
            samples["fwd"].append(timed(fwd_only, 1, inner)[0])
        med = {ck: statistics.median(v) for ck, v in samples.items()}
        rows.append((k, med))
    return rows


def fit(points):
    """Least-squares line through (x, y) points: (slope, intercept)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    slope = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx
    return slope, my - slope * mx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=41)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 7 if args.quick else args.reps
    inner = 3 if args.quick else 10

    print(f"torch {torch.__version__}, python {sys.version.split()[0]}, 1 thread; "
          f"{LAYERS} layers, hidden {HIDDEN}, heads {HEADS}, inter {INTER}, vocab {VOCAB}, batch {BATCH}, seq {SEQ}")
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            torch.ones(2, 2) @ torch.ones(2, 2)
        precisions = [False, True]
    except Exception as e:  # noqa: BLE001 - report and go on in fp32
        print(f"CPU autocast(bf16) unavailable: {e}")
        precisions = [False]

    modes = ["plain", "hooks", "ckpt", "ckpt_norng", "ckpt_reentrant", "ckpt_v2"]
    ids = torch.randint(0, VOCAB, (BATCH, SEQ))
    labels = torch.randint(0, VOCAB, (BATCH, SEQ))
    # The garbage collector stays on, as in training: the checkpoint's Python objects
    # (holders, weak references, frames) trigger collections, part of its host cost.
    projections = {}
    for bf16 in precisions:
        name = "autocast bf16" if bf16 else "fp32"
        fwd_ops, bwd_ops, saved = counts(bf16)
        models = {m: Model(m) for m in modes}
        for m in modes[1:]:
            models[m].load_state_dict(models["plain"].state_dict())
        for m in modes:  # warm-up (and a check that every variant gives the same gradients)
            for _ in range(3):
                models[m].zero_grad(set_to_none=True)
                step(models[m], ids, labels, bf16)
        ref = models["plain"].layers[0].q_proj.weight.grad
        for m in modes[1:]:
            g = models[m].layers[0].q_proj.weight.grad
            assert torch.allclose(ref, g, rtol=1e-2, atol=1e-4), f"{m}: gradients differ from plain"
        # Interleave the variants so that load from other processes hits all alike.
        samples = {m: [] for m in modes}
        add_samples, layer_fwd = [], []
        h = torch.randn(BATCH, SEQ, HIDDEN, requires_grad=True)
        cos, sin = models["plain"].rotary(torch.arange(SEQ)[None, :])
        for _ in range(reps):
            add_samples.append(tiny_add_us(1))
            layer_fwd.append(timed(lambda: layers_forward(models["plain"], h, cos, sin, bf16), 1, inner)[0])
            for m in modes:
                def one(model=models[m]):
                    model.zero_grad(set_to_none=True)
                    step(model, ids, labels, bf16)
                samples[m].append(timed(one, 1, inner)[0])
        add = statistics.median(add_samples)
        lf = statistics.median(layer_fwd)
        med = {m: statistics.median(samples[m]) for m in modes}
        print(f"\n== {name} ==")
        print(f"one tiny add, eager dispatch: {add:.2f} us (median of {reps} loops of 1000)")
        print(f"per decoder layer: {fwd_ops} aten ops forward, {bwd_ops} autograd nodes, {saved} saved tensors")
        print(f"8 layers' forward (grad on, what the re-run repeats): {lf:.0f} us = {lf / add:.0f} adds")
        print("per saved: the variant's extra beyond the re-run, per layer, over the layer's saved tensors (per-region costs included)")
        print(f"{'variant':<16}{'fwd+bwd us':>12}{'vs plain us':>13}{'- re-run us':>13}"
              f"{'per layer us':>14}{'per saved us':>14}{'per saved adds':>16}")
        for m in modes:
            d = med[m] - med["plain"]
            rerun = lf if m.startswith("ckpt") else 0.0
            extra = d - rerun
            per_layer = extra / LAYERS
            per_saved = per_layer / saved
            print(f"{m:<16}{med[m]:>12.0f}{d:>13.0f}{extra:>13.0f}{per_layer:>14.1f}{per_saved:>14.2f}{per_saved / add:>16.2f}")
        for m in ("ckpt", "ckpt_v2", "ckpt_reentrant"):
            projections[f"{m} ({name})"] = (add, lf, med[m] - med["plain"] - lf)
        spread = {m: (min(samples[m]), max(samples[m])) for m in modes}
        print("min/max per variant (us): " + ", ".join(f"{m} {a:.0f}/{b:.0f}" for m, (a, b) in spread.items()))

    add = tiny_add_us(reps)
    for label, fn, saved_per_op in (("sin", chain, 1), ("linear", linear_chain, 2)):
        print(f"\n== chains of {label}, 8 checkpointed regions of k ops, {saved_per_op} saved tensor(s) per op "
              f"(fp32; tiny add {add:.2f} us) ==")
        print(f"{'k':>4}{'plain us':>10}{'re-run us':>11}{'ckpt extra us':>15}{'v2 extra us':>13}   per region")
        pts, pts2 = [], []
        for k, med in chain_costs(reps, inner, fn):
            e1 = (med["ckpt"] - med["plain"] - med["fwd"]) / 8
            e2 = (med["ckpt_v2"] - med["plain"] - med["fwd"]) / 8
            pts.append((k * saved_per_op, e1))
            pts2.append((k * saved_per_op, e2))
            print(f"{k:>4}{med['plain']:>10.0f}{med['fwd']:>11.0f}{e1:>15.1f}{e2:>13.1f}"
                  f"   extra / re-run: {8 * e1 / med['fwd']:.2f} (1.13), {8 * e2 / med['fwd']:.2f} (v2)")
        for name, p in (("ckpt (1.13)", pts), ("ckpt_v2 (2.x steps)", pts2)):
            slope, icpt = fit(p)
            print(f"{name}: {slope:.2f} us per saved tensor = {slope / add:.2f} adds; "
                  f"{icpt:.1f} us per region = {icpt / add:.1f} adds")

    # Scaled to the H200 host two ways: by the tiny add's dispatch (h200_microbench_ops.json
    # launch_overhead_1000_tiny_adds: 9.399 us, which includes the CUDA launch that hooks
    # do not pay), and by the host time of the same decoder layers' forward (the LLaMA
    # trace's 8 layers: 10.31 ms, tests/benchmarks/engine/trace_host_threads.py).
    print("\n== projected onto the H200 step (8 checkpointed layers; gap to explain: ~19-21 ms) ==")
    for name, (add_us, lf, extra) in projections.items():
        by_add = extra / add_us * H200_TINY_ADD_US / 1e3
        by_layers = extra / lf * H200_LAYERS_FORWARD_MS
        print(f"{name:<34} extra {extra:>6.0f} us here = {extra / lf:.2f} x the re-run; "
              f"scaled by tiny add: {by_add:5.1f} ms, by the layers' forward: {by_layers:5.1f} ms")

if __name__ == "__main__":
    main()
