"""PyTorch 2.x's non-reentrant activation checkpoint, step by step, for
measure_checkpoint_host.py: the per-saved-tensor work of
torch.utils.checkpoint._checkpoint_without_reentrant_generator (metadata per saved
tensor, holder and handle objects, graph-task lookup, early stop, the metadata check after
the re-run) re-stated on PyTorch 1.13, which lacks it. Not PyTorch's code: a re-statement
of the steps it takes, to time them (docs/calibration.md says what it leaves out).
"""
import weakref
from collections import defaultdict

import torch

class _Holder:
    def __init__(self):
        self.handles = {}


class _Handle:
    pass


class _StopRecompute(Exception):
    pass


def _meta(x):
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


def _disabled(fn):
    # Stands for the torch._dynamo.disable / _disable_dynamo wrappers 2.x puts on
    # checkpoint(), the re-run and the re-run's pack hook: one more Python call layer
    # (the real wrapper also checks dynamo's state; issue #188077 measures 0.2-0.3 us).
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


class _Frame:
    def __init__(self, recompute_fn):
        self.recompute_fn = recompute_fn
        self.weak_holders = []
        self.recomputed = defaultdict(weakref.WeakKeyDictionary)
        self.recomp_counter = defaultdict(int)
        self.is_recomputed = defaultdict(bool)
        self.x_metadatas = []
        self.saved_args = []

    def check(self, gid):
        if len(self.weak_holders) != self.recomp_counter[gid]:
            raise RuntimeError(f"checkpoint: different number of saved tensors {len(self.weak_holders)} {self.recomp_counter[gid]}")
        for idx, wh in enumerate(self.weak_holders):
            holder = wh()
            if holder is None:
                continue
            x = self.recomputed[gid][holder.handles[gid]]
            if self.x_metadatas[idx] != _meta(x):
                raise RuntimeError("checkpoint: metadata mismatch")


def _recompute_hooks(frame_ref, gid):
    @_disabled
    def pack(x):
        x = x.detach() if x.requires_grad else x
        frame = frame_ref()
        idx = frame.recomp_counter[gid]
        frame.recomp_counter[gid] += 1
        holder = frame.weak_holders[idx]()
        if holder is not None:
            holder.handles[gid] = _Handle()
            frame.recomputed[gid][holder.handles[gid]] = x
        # 2.x stops the re-run here with an exception once every saved tensor is back
        # (early stop). Not emulated: 1.13 turns an exception raised inside an op's hook
        # into a RuntimeError carrying formatted tracebacks (~ms, an artefact 2.x does not
        # have), and in a LLaMA layer only the final residual add follows the last save.
        return x

    def unpack(x):
        return x
    return torch.autograd.graph.saved_tensors_hooks(pack, unpack)


def _checkpoint_hooks(frame):
    def pack(x):
        holder = _Holder()
        frame.weak_holders.append(weakref.ref(holder))
        with torch.no_grad():
            frame.x_metadatas.append(_meta(x))
        return holder

    def unpack(holder):
        # 2.x: the current GraphExecGroup, else the autograd graph task's id (C calls);
        # 1.13 has neither, and one backward per frame makes the id a constant here.
        gid = torch._C._current_graph_task_id() if hasattr(torch._C, "_current_graph_task_id") else 0
        if not frame.is_recomputed[gid]:
            args = list(frame.saved_args)  # 2.x: SavedTensor.unpack(), the inputs as they were
            try:
                with _recompute_hooks(weakref.ref(frame), gid), torch.enable_grad():
                    _disabled(frame.recompute_fn)(*args)
            except _StopRecompute:
                pass
            frame.is_recomputed[gid] = True
            frame.check(gid)
        ret = frame.recomputed[gid][holder.handles[gid]]
        holder.handles[gid] = None
        return ret
    return torch.autograd.graph.saved_tensors_hooks(pack, unpack)


@_disabled
def checkpoint_v2(fn, *args, preserve_rng_state=True):
    autocast_on = torch.is_autocast_cpu_enabled()
    autocast_dtype = torch.get_autocast_cpu_dtype()
    rng = torch.get_rng_state() if preserve_rng_state else None

    def recompute_fn(*a):
        with torch.random.fork_rng(devices=[], enabled=preserve_rng_state):
            if preserve_rng_state:
                torch.set_rng_state(rng)
            with torch.autocast("cpu", enabled=autocast_on, dtype=autocast_dtype):
                fn(*a)

    frame = _Frame(recompute_fn)
    frame.saved_args = list(args)
    with _checkpoint_hooks(frame):
        return fn(*args)
