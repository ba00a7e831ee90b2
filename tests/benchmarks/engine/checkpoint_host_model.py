"""A tiny LLaMA decoder stack written as HF's eager LlamaDecoderLayer runs it, for
measure_checkpoint_host.py: the op sequence of LLaMA-small at sizes that make kernels
negligible, with each layer run plainly, under identity saved-tensor hooks or under one
of the checkpoint variants (Model.mode).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as tuc

from checkpoint_v2 import checkpoint_v2

# Tiny LLaMA: the op sequence of LLaMA-small, sizes that make kernels negligible.
LAYERS, HIDDEN, HEADS, INTER, VOCAB, BATCH, SEQ = 8, 16, 2, 32, 64, 1, 8
HEAD_DIM = HIDDEN // HEADS


class RMSNorm(nn.Module):
    def __init__(self, n, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        var = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(var + self.eps)
        return self.weight * x.to(dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def causal_attention(q, k, v):
    # Math path of scaled_dot_product_attention(is_causal=True) (1.13 has no SDPA).
    s = q.shape[-2]
    scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / HEAD_DIM ** 0.5)
    mask = torch.ones(s, s, dtype=torch.bool).tril()
    scores = scores.masked_fill(~mask, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    return torch.matmul(p, v)


class DecoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm = RMSNorm(HIDDEN)
        self.q_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.k_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.v_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.o_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.post_attention_layernorm = RMSNorm(HIDDEN)
        self.gate_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.up_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.down_proj = nn.Linear(INTER, HIDDEN, bias=False)

    def forward(self, h, cos, sin):
        residual = h
        h = self.input_layernorm(h)
        shape = (*h.shape[:-1], -1, HEAD_DIM)
        q = self.q_proj(h).view(shape).transpose(1, 2)
        k = self.k_proj(h).view(shape).transpose(1, 2)
        v = self.v_proj(h).view(shape).transpose(1, 2)
        q, k = apply_rotary(q, k, cos, sin)
        a = causal_attention(q, k, v)
        a = a.transpose(1, 2).contiguous()
        a = a.reshape(*a.shape[:-2], -1).contiguous()
        h = residual + self.o_proj(a)
        residual = h
        h = self.post_attention_layernorm(h)
        h = self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        return residual + h


class Model(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.layers = nn.ModuleList(DecoderLayer() for _ in range(LAYERS))
        self.norm = RMSNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2).float() / HEAD_DIM)))

    def rotary(self, positions):
        with torch.autocast("cpu", enabled=False):
            freqs = positions[:, :, None].float() * self.inv_freq[None, None, :]
            emb = torch.cat((freqs, freqs), dim=-1)
            return emb.cos(), emb.sin()

    def run_layer(self, layer, h, cos, sin):
        m = self.mode
        if m == "plain":
            return layer(h, cos, sin)
        if m == "hooks":
            with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
                return layer(h, cos, sin)
        if m == "ckpt":
            return tuc.checkpoint(layer, h, cos, sin, use_reentrant=False)
        if m == "ckpt_norng":
            return tuc.checkpoint(layer, h, cos, sin, use_reentrant=False, preserve_rng_state=False)
        if m == "ckpt_reentrant":
            return tuc.checkpoint(layer, h, cos, sin, use_reentrant=True)
        if m == "ckpt_v2":
            return checkpoint_v2(layer, h, cos, sin)
        raise ValueError(m)

    def forward(self, ids, labels):
        h = self.embed(ids)
        cos, sin = self.rotary(torch.arange(ids.shape[1])[None, :])
        for layer in self.layers:
            h = self.run_layer(layer, h, cos, sin)
        logits = self.lm_head(self.norm(h)).float()
        return F.cross_entropy(logits.view(-1, VOCAB), labels.view(-1))
