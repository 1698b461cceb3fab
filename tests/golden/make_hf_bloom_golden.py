#!/usr/bin/python3
"""A Hugging Face BLOOM folder for Attention Lab's loader, with PyTorch outputs.

Writes tests/golden/fixtures/hf_bloom/:

  config.json           the fields a hub BLOOM config.json has (n_embed, n_layer, n_head, layer_norm_epsilon,
                        apply_residual_connection_post_layernorm false, ...); 6 heads, so that ALiBi's slopes
                        take their extra, non-power-of-two branch
  model.safetensors     F32, named as BloomForCausalLM's save_pretrained names them (transformer.word_embeddings,
                        transformer.word_embeddings_layernorm, transformer.h.{i}.{input_layernorm,
                        self_attention.query_key_value, self_attention.dense, post_attention_layernorm,
                        mlp.dense_h_to_4h, mlp.dense_4h_to_h}, transformer.ln_f; lm_head is tied and not saved);
                        query_key_value in the hub's per-head order (rows h·3D + which·D + d)
  expected.safetensors  F32 outputs of this script's implementation of transformers' modeling_bloom.py under
                        Attention Lab's step paths, with the input ids in the metadata

The reference follows modeling_bloom.py function by function: build_alibi_tensor (slopes: the closest power of
two, then every other slope of twice as many heads; alibi = slope·(cumsum(mask) − 1)·mask, one row per head),
BloomAttention._split_heads (view(T, H, 3, D)), its baddbmm (beta 1, alpha 1/√D: alibi + QKᵀ/√D), the causal
mask filled with finfo.min before the float32 softmax, _merge_heads and dense; BloomMLP (dense_h_to_4h,
bloom_gelu_forward: x·½(1 + tanh(0.79788456·x·(1 + 0.044715x²))), dense_4h_to_h); BloomBlock (pre-LN, residual
from the block's input: apply_residual_connection_post_layernorm false); BloomModel (word_embeddings,
word_embeddings_layernorm, the blocks, ln_f) and BloomForCausalLM (lm_head tied to word_embeddings).

BLOOM adds slope·j (j the key's position) where the ALiBi paper writes −slope·(i − j): on each query row the two
differ by the constant slope·i, which the softmax ignores. The engine's decoder.position_bias and ….biased hold
the paper's form; this script stores those (the bias, and BLOOM's scores minus slope·i) and checks that the
weights softmax gives from BLOOM's own scores are the same to 1e-12. Its weights, context and logits are BLOOM's.

Checks (exit 1 on failure): the slopes against the paper's rule written per head in float64; the weights of the
two bias forms; an independent numpy float64 forward (loops over heads, the paper's bias, softmax over the
allowed keys only) within 1e-9; and that ALiBi matters (the logits move by more than 1e-3 without it).

    /usr/bin/python3 tests/golden/make_hf_bloom_golden.py
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail, rel_diff, whole_f32, write_config, write_safetensors  # noqa: E402

CROSS_CHECK_TOL = 1e-9
SHIFT_TOL = 1e-12
MIN_EFFECT = 1e-3

CONFIG = {
    "apply_residual_connection_post_layernorm": False,
    "architectures": ["BloomForCausalLM"],
    "attention_dropout": 0.0,
    "attention_softmax_in_fp32": True,
    "bias_dropout_fusion": True,
    "bos_token_id": 1,
    "eos_token_id": 2,
    "hidden_dropout": 0.0,
    "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05,
    "masked_softmax_fusion": True,
    "model_type": "bloom",
    "n_embed": 24,
    "n_head": 6,
    "n_inner": None,
    "n_layer": 2,
    "offset_alibi": 100,
    "pad_token_id": 3,
    "pretraining_tp": 1,
    "skip_bias_add": True,
    "skip_bias_add_qkv": False,
    "slow_but_exact": False,
    "unk_token_id": 0,
    "use_cache": True,
    "vocab_size": 48,
}
IDS = [1, 17, 5, 40, 22, 9, 31, 12]  # bos first; no padding id (3)
SEED = 37


def make_weights(torch, cfg, seed):
    """Random F32 weights (then widened), hub names; LayerNorm gains near 1 and biases near 0."""
    g = torch.Generator().manual_seed(seed)
    C, V, L = cfg["n_embed"], cfg["vocab_size"], cfg["n_layer"]

    def randn(*shape, scale=1.0, shift=0.0):
        return (torch.randn(*shape, generator=g, dtype=torch.float32) * scale + shift).double()

    w = {"transformer.word_embeddings.weight": randn(V, C, scale=0.5),
         "transformer.word_embeddings_layernorm.weight": randn(C, scale=0.1, shift=1.0),
         "transformer.word_embeddings_layernorm.bias": randn(C, scale=0.1)}
    for i in range(L):
        p = f"transformer.h.{i}."
        w[p + "input_layernorm.weight"] = randn(C, scale=0.1, shift=1.0)
        w[p + "input_layernorm.bias"] = randn(C, scale=0.1)
        w[p + "self_attention.query_key_value.weight"] = randn(3 * C, C, scale=C ** -0.5 * 1.5)
        w[p + "self_attention.query_key_value.bias"] = randn(3 * C, scale=0.1)
        w[p + "self_attention.dense.weight"] = randn(C, C, scale=C ** -0.5)
        w[p + "self_attention.dense.bias"] = randn(C, scale=0.1)
        w[p + "post_attention_layernorm.weight"] = randn(C, scale=0.1, shift=1.0)
        w[p + "post_attention_layernorm.bias"] = randn(C, scale=0.1)
        w[p + "mlp.dense_h_to_4h.weight"] = randn(4 * C, C, scale=C ** -0.5)
        w[p + "mlp.dense_h_to_4h.bias"] = randn(4 * C, scale=0.1)
        w[p + "mlp.dense_4h_to_h.weight"] = randn(C, 4 * C, scale=(4 * C) ** -0.5)
        w[p + "mlp.dense_4h_to_h.bias"] = randn(C, scale=0.1)
    w["transformer.ln_f.weight"] = randn(C, scale=0.1, shift=1.0)
    w["transformer.ln_f.bias"] = randn(C, scale=0.1)
    return w


def alibi_slopes(torch, n_head):
    """build_alibi_tensor's slopes, float32 as it computes them."""
    closest = 2 ** math.floor(math.log2(n_head))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest) - 3))), dtype=torch.float32)
    slopes = torch.pow(base, torch.arange(1, 1 + closest, dtype=torch.int32))
    if closest != n_head:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest) - 3))), dtype=torch.float32)
        remaining = min(closest, n_head - closest)
        slopes = torch.cat([slopes, torch.pow(extra_base, torch.arange(1, 1 + 2 * remaining, 2, dtype=torch.int32))])
    return slopes


def hf_forward(torch, cfg, w, ids, alibi_on=True):
    """BloomForCausalLM, eager, float64 (the alibi tensor made in float32 as build_alibi_tensor makes it)."""
    C, H, L = cfg["n_embed"], cfg["n_head"], cfg["n_layer"]
    D, eps, T = C // H, cfg["layer_norm_epsilon"], len(ids)
    out = {}

    def layer_norm(x, name):
        return torch.nn.functional.layer_norm(x, (C,), w[name + ".weight"], w[name + ".bias"], eps)

    def linear(x, name):
        return x @ w[name + ".weight"].T + w[name + ".bias"]

    def bloom_gelu(x):  # bloom_gelu_forward
        return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))

    dtype = w["transformer.word_embeddings.weight"].dtype  # float64, or float32 for make_grad_golden.py's check
    attention_mask = torch.ones(1, T, dtype=torch.int64)
    slopes = alibi_slopes(torch, H)
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]  # (1, 1, T)
    alibi = (slopes[..., None] * arange_tensor).reshape(H, 1, T).to(dtype)  # slope·j
    # The engine's bias, the paper's −slope·(i − j): BLOOM's slope·j minus slope·i on row i.
    positions = torch.arange(T, dtype=dtype)
    row_constant = slopes.to(dtype)[:, None, None] * positions[None, :, None]  # (H, T, 1)
    bias = alibi - row_constant  # (H, T, T)
    if not alibi_on:  # to show that ALiBi matters
        alibi, bias = alibi * 0.0, bias * 0.0
    out["decoder.position_bias"] = bias
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # True where masked

    x = w["transformer.word_embeddings.weight"][ids]
    out["tgt.embed"] = x
    x = layer_norm(x, "transformer.word_embeddings_layernorm")
    out["tgt.embed_norm"] = x
    for i in range(L):
        p, s = f"transformer.h.{i}.", f"decoder.layers.{i}."
        n = layer_norm(x, p + "input_layernorm")
        out[s + "norm1"] = n
        fused = linear(n, p + "self_attention.query_key_value")  # (T, 3C)
        fused = fused.view(T, H, 3, D)  # _split_heads
        q, k, v = fused[..., 0, :], fused[..., 1, :], fused[..., 2, :]  # (T, H, D) each
        q, k, v = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)  # (H, T, D)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        # BloomAttention's baddbmm: alibi (slope·j) + QKᵀ/√D, masked with finfo.min, softmax
        scores = torch.baddbmm(alibi, q, k.transpose(1, 2), beta=1.0, alpha=1.0 / math.sqrt(D))  # (H, T, T)
        bloom_weights = torch.softmax(torch.masked_fill(scores, causal, torch.finfo(dtype).min), dim=-1)
        # the same sum split as the engine's steps (each stored step on the autograd path of the logits):
        # scaled = QKᵀ/√D, biased = scaled − slope·(i − j); its softmax is BLOOM's (checked in main)
        scaled = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(D)
        biased = scaled + bias
        weights = torch.softmax(torch.masked_fill(biased, causal, torch.finfo(dtype).min), dim=-1)
        out[s + "self_attn.scaled"], out[s + "self_attn.biased"], out[s + "self_attn.weights"] = scaled, biased, weights
        out[s + "bloom_weights"] = bloom_weights
        context = torch.bmm(weights, v)  # (H, T, D)
        context = context.transpose(0, 1).reshape(T, C)  # _merge_heads
        attn = linear(context, p + "self_attention.dense")
        out[s + "self_attn.out"] = attn
        h = x + attn  # dropout_add, residual = the block's input
        out[s + "residual1"] = h
        n = layer_norm(h, p + "post_attention_layernorm")
        out[s + "norm2"] = n
        hidden = linear(n, p + "mlp.dense_h_to_4h")
        act = bloom_gelu(hidden)
        ffn = linear(act, p + "mlp.dense_4h_to_h")
        out[s + "ffn.hidden"], out[s + "ffn.activation"], out[s + "ffn.out"] = hidden, act, ffn
        x = h + ffn
        out[s + "residual2"] = x
    x = layer_norm(x, "transformer.ln_f")
    out["decoder.output"] = x
    out["logits"] = x @ w["transformer.word_embeddings.weight"].T  # lm_head tied
    return out


def independent_forward(cfg, w, ids):
    """numpy float64: per-head loops, the paper's −m_h·(i − j) with m_h = 2^(−8(h+1)/P) then the odd slopes of 2P,
    softmax over the allowed keys j <= i only."""
    C, H, L = cfg["n_embed"], cfg["n_head"], cfg["n_layer"]
    D, eps, T = C // H, cfg["layer_norm_epsilon"], len(ids)
    W = {k: v.numpy() for k, v in w.items()}
    P = 1
    while P * 2 <= H:
        P *= 2
    m = [2.0 ** (-8.0 * (h + 1) / P) for h in range(P)] + [2.0 ** (-8.0 * (2 * k + 1) / (2 * P)) for k in range(H - P)]

    def ln(x, name):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * W[name + ".weight"] + W[name + ".bias"]

    def lin(x, name):
        return x @ W[name + ".weight"].T + W[name + ".bias"]

    out = {}
    x = ln(W["transformer.word_embeddings.weight"][ids], "transformer.word_embeddings_layernorm")
    for i in range(L):
        p, s = f"transformer.h.{i}.", f"decoder.layers.{i}."
        n = ln(x, p + "input_layernorm")
        fused = lin(n, p + "self_attention.query_key_value")
        weights = np.zeros((H, T, T))
        context = np.zeros((T, C))
        for h in range(H):
            q = fused[:, h * 3 * D: h * 3 * D + D]
            k = fused[:, h * 3 * D + D: h * 3 * D + 2 * D]
            v = fused[:, h * 3 * D + 2 * D: h * 3 * D + 3 * D]
            for a in range(T):
                row = np.array([q[a] @ k[b] / math.sqrt(D) - m[h] * (a - b) for b in range(a + 1)])
                e = np.exp(row - row.max())
                weights[h, a, :a + 1] = e / e.sum()
            context[:, h * D:(h + 1) * D] = weights[h] @ v
        out[s + "self_attn.weights"] = weights
        hh = x + lin(context, p + "self_attention.dense")
        z = lin(ln(hh, p + "post_attention_layernorm"), p + "mlp.dense_h_to_4h")
        z = 0.5 * z * (1.0 + np.tanh(0.79788456 * (z + 0.044715 * z ** 3)))
        x = hh + lin(z, p + "mlp.dense_4h_to_h")
        out[s + "residual2"] = x
    x = ln(x, "transformer.ln_f")
    out["logits"] = x @ W["transformer.word_embeddings.weight"].T
    return out, m


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    cfg, ids = CONFIG, IDS
    w = make_weights(torch, cfg, SEED)
    out = hf_forward(torch, cfg, w, ids)

    # the independent forward, and the slopes by the paper's rule
    ind, m = independent_forward(cfg, w, ids)
    d = rel_diff(alibi_slopes(torch, cfg["n_head"]).double().numpy(), np.array(m))
    if d > 1e-7:
        fail(f"slopes differ from the paper's rule by {d:.3g}")
    print(f"slopes {[float(x) for x in alibi_slopes(torch, cfg['n_head'])]} (paper's rule: {d:.1e})")
    for key, want in ind.items():
        d = rel_diff(out[key].numpy(), want)
        if d > CROSS_CHECK_TOL:
            fail(f"{key} differs from the independent forward by {d:.3g}")
        print(f"independent {key}: {d:.1e}")

    # the paper's form and BLOOM's baddbmm give the same weights
    for i in range(cfg["n_layer"]):
        s = f"decoder.layers.{i}."
        d = float((out.pop(s + "bloom_weights") - out[s + "self_attn.weights"]).abs().max())
        if d > SHIFT_TOL:
            fail(f"layer {i}: softmax of −m(i − j) and of BLOOM's m·j differ by {d:.3g}")
        print(f"layer {i}: weights of the paper's bias vs BLOOM's baddbmm: {d:.1e}")

    d = float((hf_forward(torch, cfg, w, ids, alibi_on=False)["logits"] - out["logits"]).abs().max())
    if d <= MIN_EFFECT:
        fail(f"ALiBi moves the logits by only {d:.3g}")
    print(f"ALiBi on vs off, logits (abs): {d:.3g}")

    folder = os.path.join(FIXTURES, "hf_bloom")
    os.makedirs(folder, exist_ok=True)
    write_config(folder, cfg)
    write_safetensors(os.path.join(folder, "model.safetensors"),
                      [(k, *whole_f32(v.numpy())) for k, v in sorted(w.items())], {"format": "pt"})
    metadata = {"tgt_ids": json.dumps(ids), "src_ids": "[]", "case": "hf_bloom",
                "description": "BloomForCausalLM (modeling_bloom.py), float64 from the F32 weights; ALiBi in the "
                               "paper's form −m_h·(i − j) in position_bias and biased"}
    write_safetensors(os.path.join(folder, "expected.safetensors"),
                      [(k, *whole_f32(v.detach().numpy())) for k, v in sorted(out.items())], metadata)
    sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
    print("hf_bloom: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))


if __name__ == "__main__":
    main()
