#!/usr/bin/python3
"""PyTorch baseline for `attnlab-cli bench DIR` on a Hugging Face llama / mistral / qwen2 folder.

Opens DIR's weights as attnlab does: model.safetensors, or the shards model.safetensors.index.json names;
an F32 tensor is a view of the memory-mapped file (no copy), a BF16 or F16 one is widened to a float32 copy
(attnlab computes in F32 and decodes them the same way). Then times the Llama template's forward pass on
random ids, batch 1, untraced, in float32: the token embeddings, n layers of RMSNorm, Q/K/V maps (qwen2's
biases on Q, K and V), rotary embeddings as Hugging Face makes them (inv_freq from rope_theta and
rope_scaling, the cos/sin table in float32, rotate_half's split halves), grouped-query attention by
repeat_kv, causal softmax (mistral's sliding window), the output map, RMSNorm, the SwiGLU FFN
(down(silu(gate(x)) * up(x))), the final RMSNorm, the logits (lm_head, or embed_tokens when tied) and the
softmax over the vocabulary. Prints one line of JSON, with the process's peak resident memory
(getrusage's ru_maxrss, the mapped weights included) as "peak_rss_mb".

--check TRACE compares, instead of timing, the logits of this forward pass with those of an
`attnlab-cli trace DIR --tgt-ids ... --out TRACE` on the same ids (read from the trace's metadata) and
prints the largest absolute difference at the last position and over all positions.

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_llama.py DIR --tgt-len 256
"""
import argparse
import json
import math
import mmap
import os
import resource
import statistics
import struct
import time
import warnings

import numpy as np
import torch
import torch.nn.functional as F

from blas_threads import openblas_threads


def read_safetensors(path, as_float32=True):
    """name -> float32 tensor of the file at path (F32: a view of the mapping; BF16 / F16: a widened copy),
    and the __metadata__ dict."""
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    (header_len,) = struct.unpack("<Q", mapped[:8])
    header = json.loads(mapped[8:8 + header_len])
    base = 8 + header_len
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        dtype = entry["dtype"]
        if dtype == "F32":
            values = torch.from_numpy(np.frombuffer(mapped, dtype="<f4", count=(end - begin) // 4, offset=base + begin))
        elif dtype in ("BF16", "F16"):  # widened by torch's own conversion
            half = torch.bfloat16 if dtype == "BF16" else torch.float16
            values = torch.frombuffer(mapped, dtype=half, count=(end - begin) // 2, offset=base + begin).float()
        else:
            continue  # e.g. old checkpoints' I64 buffers: nothing the forward pass reads
        tensors[name] = values.view(entry["shape"])
    return tensors, header.get("__metadata__", {})


def open_weights(folder):
    """The config and name -> tensor over every weights file of the folder."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
    else:
        files = ["model.safetensors"]
    weights = {}
    for name in files:
        weights.update(read_safetensors(os.path.join(folder, name))[0])
    return config, weights


class Arch:
    """What Hugging Face's modeling code reads from a llama / mistral / qwen2 config.json (its defaults where a
    key is missing)."""

    def __init__(self, cfg):
        t = cfg["model_type"]
        if t not in ("llama", "mistral", "qwen2"):
            raise SystemExit(f"model_type {t!r}: this baseline runs llama, mistral and qwen2")
        if cfg.get("hidden_act", "silu") != "silu":
            raise SystemExit(f"hidden_act {cfg['hidden_act']!r}: only silu")
        self.C = cfg["hidden_size"]
        self.H = cfg["num_attention_heads"]
        self.Hkv = cfg.get("num_key_value_heads") or self.H
        self.D = cfg.get("head_dim") or self.C // self.H
        self.L = cfg["num_hidden_layers"]
        self.V = cfg["vocab_size"]
        self.eps = cfg["rms_norm_eps"]
        self.theta = cfg.get("rope_theta", 10000.0)
        self.rope_scaling = cfg.get("rope_scaling")
        self.tied = cfg.get("tie_word_embeddings", False)  # LlamaConfig's, MistralConfig's and Qwen2Config's default
        self.window = None
        if t == "mistral":
            self.window = cfg.get("sliding_window")
        elif cfg.get("use_sliding_window"):
            raise SystemExit("qwen2 with use_sliding_window: not in this baseline")


def inv_freq(a):
    """modeling_rope_utils: the default frequencies, then linear or llama3 scaling, in float32 as there."""
    f = 1.0 / (a.theta ** (torch.arange(0, a.D, 2, dtype=torch.int64).float() / a.D))
    s = a.rope_scaling
    kind = None if s is None else s.get("rope_type", s.get("type"))
    if kind in (None, "default"):
        return f
    if kind == "linear":
        return f / s["factor"]
    if kind == "llama3":
        factor, low, high = s["factor"], s["low_freq_factor"], s["high_freq_factor"]
        old = s["original_max_position_embeddings"]
        wavelen = 2 * math.pi / f
        scaled = torch.where(wavelen > old / low, f / factor, f)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < old / high) * ~(wavelen > old / low)
        return torch.where(medium, smoothed, scaled)
    raise SystemExit(f"rope_scaling type {kind!r}: not in this baseline")


def rms_norm(x, weight, eps):
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def repeat_kv(x, n_rep):
    """(H_kv, T, D) -> (H_kv * n_rep, T, D), each key/value head n_rep times in a row."""
    if n_rep == 1:
        return x
    Hkv, T, D = x.shape
    return x[:, None].expand(Hkv, n_rep, T, D).reshape(Hkv * n_rep, T, D)


def linear(x, w, p):
    return F.linear(x, w[p + ".weight"], w.get(p + ".bias"))


def forward(a, w, ids, probs=True):
    """ids (T,) -> probabilities (T, V) (or the logits with probs=False)."""
    T = ids.shape[0]
    freqs = torch.outer(torch.arange(T, dtype=torch.float32), inv_freq(a))  # (T, D/2), float32
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()                                            # (T, D)
    allowed = torch.ones(T, T, dtype=torch.bool).tril()
    if a.window is not None:
        allowed &= ~torch.ones(T, T, dtype=torch.bool).tril(-a.window)         # 0 <= i - j < window
    scale = a.D ** -0.5
    x = w["model.embed_tokens.weight"][ids]                                    # (T, C)
    for i in range(a.L):
        p = f"model.layers.{i}."
        h = rms_norm(x, w[p + "input_layernorm.weight"], a.eps)
        q = linear(h, w, p + "self_attn.q_proj").view(T, a.H, a.D).transpose(0, 1)    # (H, T, D)
        k = linear(h, w, p + "self_attn.k_proj").view(T, a.Hkv, a.D).transpose(0, 1)  # (H_kv, T, D)
        v = linear(h, w, p + "self_attn.v_proj").view(T, a.Hkv, a.D).transpose(0, 1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = repeat_kv(k, a.H // a.Hkv), repeat_kv(v, a.H // a.Hkv)
        scores = (q @ k.transpose(1, 2)) * scale                                           # (H, T, T)
        attn = scores.masked_fill(~allowed, float("-inf")).softmax(-1)
        heads = (attn @ v).transpose(0, 1).reshape(T, a.H * a.D)
        x = x + linear(heads, w, p + "self_attn.o_proj")
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], a.eps)
        h = F.silu(linear(h, w, p + "mlp.gate_proj")) * linear(h, w, p + "mlp.up_proj")
        x = x + linear(h, w, p + "mlp.down_proj")
    x = rms_norm(x, w["model.norm.weight"], a.eps)
    logits = x @ w["model.embed_tokens.weight" if a.tied else "lm_head.weight"].t()       # (T, V)
    return logits.softmax(-1) if probs else logits


def check(folder, trace_path):
    """The largest |PyTorch - attnlab| of the logits on the trace's ids."""
    config, weights = open_weights(folder)
    a = Arch(config)
    trace, metadata = read_safetensors(trace_path)
    ids = torch.tensor(json.loads(metadata["tgt_ids"]), dtype=torch.int64)
    with torch.inference_mode():
        ours = forward(a, weights, ids, probs=False)
    theirs = trace["logits"].reshape(ours.shape)
    diff = (ours - theirs).abs()
    print(json.dumps({"check": os.path.basename(os.path.normpath(folder)), "tokens": len(ids),
                      "max_abs_diff_last": float(diff[-1].max()), "max_abs_diff_all": float(diff.max()),
                      "max_abs_logit_last": float(theirs[-1].abs().max()),
                      "same_argmax_last": bool(ours[-1].argmax() == theirs[-1].argmax())}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tgt-len", type=int, default=256)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--opens", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--check", metavar="TRACE", help="compare the logits with an attnlab-cli trace instead")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    for what in ("NumPy array", "buffer"):  # the weights are only read
        warnings.filterwarnings("ignore", message=f"The given {what} is not writable")
    if args.check:
        check(args.folder, args.check)
        return

    open_ms = []
    for _ in range(args.opens):
        t0 = time.perf_counter()
        config, weights = open_weights(args.folder)
        open_ms.append((time.perf_counter() - t0) * 1e3)
    a = Arch(config)
    ids = torch.randint(0, a.V, (args.tgt_len,), generator=torch.Generator().manual_seed(0))
    ms = []
    with torch.inference_mode():
        for r in range(args.reps + 2):  # two warm-up runs
            t0 = time.perf_counter()
            forward(a, weights, ids)
            if r >= 2:
                ms.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"impl": "torch " + torch.__version__, "tgt_len": args.tgt_len, "reps": args.reps,
                      "threads": torch.get_num_threads(), "blas_threads": openblas_threads(), "median_ms": statistics.median(ms), "min_ms": min(ms),
                      "open_median_ms": statistics.median(open_ms),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
