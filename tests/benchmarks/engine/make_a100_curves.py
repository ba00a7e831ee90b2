#!/usr/bin/env python3
"""Writes the efficiency curves of resources/devices/a100-80gb.json from h200.json's measured ones.

No public A100 GEMM sweep by size is available to the project; one published A100 figure is:
the best bf16 matmul found by stas00/ml-engineering's mamf-finder (compute/accelerator/README.md,
"Maximum Achievable Matmul FLOPS comparison table"), 271.2 of 312 TFLOPS = 86.9 % at
1024x10240x5120 (torch 2.6.0+cu126), and 267.9 TFLOPS at 6912x16384x2048 (CUDA 12.1).

Rule: a GEMM that keeps the tensor cores busy for t on the H200 keeps them busy for t on the A100
at peak_A100 / peak_H200 of the FLOPs, so each H200 point moves to x * peak_A100 / peak_H200;
the efficiencies are scaled so that the curve's top equals the published A100 best (86.9 %).
The H200 curves' "ceiling" (the H200's fastest measured kernel) is not carried over: the shape
comes from the H200's points, the level from the A100's own published best.
Each point's origin goes to the curve's "point_sources" (the loader reads "points" and "source").

The other curves (attention, conv, memory-bound) follow the same rule without an A100 anchor:
a kernel that runs for t at peak on the H200 runs for t at peak on the A100 at the A100's share
of the FLOPs (attention, conv) or of the bytes (memory curves: x * 2.039 / 4.8 TB/s), and
reaches the efficiency the H200 reached there. Curves the H200 re-measures are carried over
when this script runs again, so the two profiles cannot drift apart.
Usage: make_a100_curves.py [repo root]   (rewrites resources/devices/a100-80gb.json)
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3])
A100 = ROOT / "resources/devices/a100-80gb.json"
MAMF_BEST = 0.869
MAMF = ('stas00/ml-engineering compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS '
        'comparison table" (BF16)')


def main():
    h = json.loads((ROOT / "resources/devices/h200.json").read_text())
    a = json.loads(A100.read_text())
    for curve, dt in (("matmul.bf16", "bf16"), ("matmul.fp16", "fp16"), ("matmul.tf32", "tf32")):
        pts = h["efficiency"][curve]["points"]
        ratio = a["peak_flops"][dt]["value"] / h["peak_flops"][dt]["value"]
        top = max(e for _, e in pts)
        scale = MAMF_BEST / top
        new = [[float("%.4g" % (x * ratio)), round(e * scale, 4)] for x, e in pts]
        srcs = ["h200.json %s point [%.4g, %.4g] moved by equal time at peak and scaled by %.4f" % (curve, x, e, scale)
                for x, e in pts]
        if dt in ("bf16", "fp16"):
            new.append([4.638e11, 0.8587])
            srcs.append("measured: A100 SXM bf16 matmul 6912x16384x2048 (4.638e11 FLOPs) 267.9 of 312 TFLOPS, "
                        "CUDA 12.1 (" + MAMF + ", earlier revision)")
        a["efficiency"][curve] = {
            "x": "flops", "points": new, "point_sources": srcs,
            "source": ("estimate anchored on a published A100 measurement: the shape is h200.json's measured \"%s\" "
                       "curve (kernel time) moved to the A100 by equal time at peak (FLOPs x %.4g = A100 peak / H200 "
                       "peak, %g / %g TFLOP/s: a GEMM that keeps the tensor cores busy for t on one keeps them busy "
                       "for t on the other at that FLOP ratio) and scaled by %.4f so that its top (%.4f) equals the "
                       "A100's best published bf16 matmul, 271.2 of 312 TFLOPS = 86.9%% at 1024x10240x5120, torch "
                       "2.6.0+cu126 (%s)%s. No public A100 sweep by size exists to the project; the per-point origin "
                       "is in point_sources")
            % (curve, ratio, a["peak_flops"][dt]["value"] / 1e12, h["peak_flops"][dt]["value"] / 1e12, scale, top,
               MAMF, "" if dt != "tf32" else "; tf32 assumes the bf16 ratio of achieved to peak (no published A100 "
               "tf32 sweep)")}
    moveUnanchoredCurves(h, a)
    A100.write_text(json.dumps(a, indent=1) + "\n")


def moveUnanchoredCurves(h, a):
    bandwidth = a["hbm"]["bandwidth"]["value"] / h["hbm"]["bandwidth"]["value"]
    for curve, measured in h["efficiency"].items():
        if curve.startswith("matmul."):
            continue
        if measured["x"] == "bytes":
            ratio, what = bandwidth, "bytes x %.4g = A100 / H200 HBM bandwidth, %g / %g GB/s" % (
                bandwidth, a["hbm"]["bandwidth"]["value"] / 1e9, h["hbm"]["bandwidth"]["value"] / 1e9)
        else:
            dt = curve.split(".")[-1]
            if dt not in a["peak_flops"] or dt not in h["peak_flops"]:
                continue
            ratio = a["peak_flops"][dt]["value"] / h["peak_flops"][dt]["value"]
            what = "FLOPs x %.4g = A100 / H200 %s peak" % (ratio, dt)
        a["efficiency"][curve] = {
            "x": measured["x"],
            "points": [[float("%.4g" % (x * ratio)), e] for x, e in measured["points"]],
            "source": ("estimate: h200.json's measured \"%s\" curve (%s) moved to the A100 by equal time at peak (%s): "
                       "a kernel busy for t at peak on one is busy for t at peak on the other; efficiencies unscaled, "
                       "no A100 sweep available") % (curve, measured["source"], what)}


if __name__ == "__main__":
    main()
