#!/usr/bin/env python3
"""Host time of a torch.profiler trace split by host thread, for the checkpointing gap of
the step calibration (docs/calibration.md).

Usage: trace_host_threads.py [LLAMA_TRACE.json.gz]
(default: ../shared/data/traces/llama_small_amp_bf16_b8s1024_h200.json.gz)

Eager PyTorch issues the forward (and the optimizer) from the Python thread and the
backward from the autograd engine's device thread. Per thread this prints the top-level
ops' host time (an op's start to the next top-level op's start, as
scripts/measure-host-dispatch.py measures the profile's "host" figures, whose functions
it reuses), raw and less torch.profiler's cost per recorded event, by op category; the
device's busy and idle time while each thread was issuing; and, for the LLaMA trace, the
host time of the decoder layers' forward (what a per-layer activation checkpoint re-runs
inside the backward) and the sum of all host work of a checkpointed step issued one
thread-step after the other (forward + backward + the layers' forward again +
optimizer), an upper bound for a step whose host side explains it.
"""
import bisect
import collections
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
spec = importlib.util.spec_from_file_location("mhd", os.path.join(ROOT, "scripts", "measure-host-dispatch.py"))
mhd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mhd)


def top_level(ops):
    top, end = [], -1.0
    for e in sorted(ops, key=lambda e: (e["ts"], -e["dur"])):
        if e["ts"] >= end:
            top.append(e)
            end = e["ts"] + e["dur"]
    return top


def main():
    data = os.path.join(ROOT, "..", "shared", "data")
    trace = sys.argv[1] if len(sys.argv) > 1 else os.path.join(data, "traces", "llama_small_amp_bf16_b8s1024_h200.json.gz")
    runs = json.load(open(os.path.join(data, "hardware", "h200_llama_small_training.json")))["llama_small"]["runs"]
    unprofiled = next(r["step_ms"] for r in runs if r["mode"] == "amp_bf16" and not r["ckpt"])
    event_us, profiled, n = mhd.per_event_cost(os.path.join(data, "traces", "llama_small_amp_bf16_b8s1024_h200.json.gz"), unprofiled)
    print(f"profiler cost per recorded event: {event_us:.3f} us ({profiled:.2f} ms profiled - {unprofiled:.2f} ms unprofiled over {n} events)")
    events = mhd.load(trace)
    recorded = mhd.profiler_events(events)
    ev = [e for e in events if e.get("ph") == "X"]
    cpu = [e for e in ev if e.get("cat") == "cpu_op"]
    gpu = sorted((e for e in ev if e.get("cat") in mhd.GPU), key=lambda e: e["ts"])
    launches = collections.defaultdict(list)
    for e in ev:
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and e["name"] in mhd.LAUNCH:
            launches[e["tid"]].append(e["ts"])

    def host_us(tid, a, b):
        """Host time on thread tid over [a, b), less the profiler's recorded events."""
        rec = recorded[tid]
        return (b - a) - event_us * (bisect.bisect_left(rec, b) - bisect.bisect_left(rec, a))

    def device(a, b):
        busy = sum(max(0.0, min(e["ts"] + e["dur"], b) - max(e["ts"], a)) for e in gpu if e.get("cat") == "kernel")
        return busy / 1e3, (b - a - busy) / 1e3

    autograd = {e["tid"] for e in cpu if "autograd::engine" in e["name"]}
    backward_start = min(e["ts"] for e in cpu if e["tid"] in autograd) if autograd else float("inf")
    totals = {}
    for tid in sorted({e["tid"] for e in cpu}):
        top = top_level([e for e in cpu if e["tid"] == tid])
        ts = sorted(launches[tid])
        by_cat, raw_cat, count = collections.defaultdict(float), collections.defaultdict(float), collections.Counter()
        for i, e in enumerate(top):
            nxt = top[i + 1]["ts"] if i + 1 < len(top) else e["ts"] + e["dur"]
            if nxt - e["ts"] > 10 * e["dur"] and nxt - e["ts"] > 1000:  # waited (forward -> backward, step end)
                nxt = e["ts"] + e["dur"]
            cat = "view" if not any(e["ts"] <= t < e["ts"] + e["dur"] for t in ts) else mhd.category(e["name"])
            if e["name"].startswith("aten::_foreach") or "_fused_adam" in e["name"]:
                cat = "optimizer"
            by_cat[cat] += host_us(tid, e["ts"], nxt)
            raw_cat[cat] += nxt - e["ts"]
            count[cat] += 1
        name = "autograd (backward)" if tid in autograd else "python (forward, optimizer)"
        # The device while this thread issued its pass (the Python thread: up to the backward).
        first = top[0]["ts"]
        last = top[-1]["ts"] + top[-1]["dur"] if tid in autograd else min(backward_start, top[-1]["ts"] + top[-1]["dur"])
        busy, idle = device(first, last)
        total = sum(by_cat.values())
        totals[name] = (total, by_cat)
        print(f"thread {tid} {name}: {len(top)} top-level ops, host {total / 1e3:.2f} ms "
              f"(raw {sum(raw_cat.values()) / 1e3:.2f}); device from its first op to "
              f"{'its last' if tid in autograd else 'the backward'}: busy {busy:.2f} ms, idle {idle:.2f} ms")
        for cat in sorted(count):
            print(f"    {cat:14s} {count[cat]:4d} ops {by_cat[cat] / count[cat]:8.1f} us/op (raw {raw_cat[cat] / count[cat]:7.1f})"
                  f"  {by_cat[cat] / 1e3:6.2f} ms")

    # The decoder layers' forward on the Python thread: from the first RMSNorm (aten::pow)
    # to the final norm's (the (2·layers + 1)-th pow), LlamaForCausalLM's order.
    python = [t for t in {e["tid"] for e in cpu} if not any("autograd::engine" in e["name"] for e in cpu if e["tid"] == t)]
    fwd = top_level([e for e in cpu if e["tid"] in python[:1]])
    pows = [e["ts"] for e in fwd if e["name"] == "aten::pow"]
    if len(pows) >= 3 and len(pows) % 2 == 1:
        layers = (len(pows) - 1) // 2
        layer_host = host_us(fwd[0]["tid"], pows[0], pows[-1]) / 1e3
        fwd_total, fwd_cat = totals.get("python (forward, optimizer)", (0, {}))
        bwd_total, _ = totals.get("autograd (backward)", (0, {}))
        # The optimizer's Python (Optimizer.step + zero_grad annotations) in place of its two ops.
        opt = sum(host_us(e["tid"], e["ts"], e["ts"] + e["dur"]) for e in ev
                  if e.get("cat") == "user_annotation" and e["name"].startswith("Optimizer.") and e["tid"] in python[:1])
        fwd_total += opt - fwd_cat.get("optimizer", 0.0)
        print(f"decoder layers' forward ({layers} layers, first RMSNorm to the final norm): host {layer_host:.2f} ms")
        serial = (fwd_total + bwd_total) / 1e3 + layer_host
        print(f"all host work of a per-layer checkpointed step, issued one after the other: forward + optimizer "
              f"{fwd_total / 1e3:.2f} + backward {bwd_total / 1e3:.2f} + layers re-run {layer_host:.2f} = {serial:.2f} ms "
              f"(optimizer {opt / 1e3:.2f} ms of the first)")


if __name__ == "__main__":
    main()
