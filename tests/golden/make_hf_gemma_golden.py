#!/usr/bin/python3
"""Hugging Face gemma2 / gemma3_text folders for Attention Lab's loaders, with PyTorch outputs.

Writes two tiny random models into tests/golden/fixtures/<case>/ (config.json, model.safetensors named as
Gemma2ForCausalLM / Gemma3ForCausalLM save them, tied: no lm_head; expected.safetensors: this script's
reference outputs under Attention Lab's step paths, the input ids in the metadata):

  hf_gemma2  4 layers, local (sliding window 3) on layers 0 and 2, global on 1 and 3; soft-capping of the
             scores (5.0) and of the logits (3.0); query_pre_attn_scalar 24 (the scores times 24^-1/2, not D^-1/2);
             head_dim 16 with hidden 32 and 4 heads (H*D = 64 != C), 2 K/V heads
  hf_gemma3  4 layers, sliding_window_pattern 3 (layers 0, 1, 3 local, layer 2 global); q_norm / k_norm;
             local layers turned with rope_local_base_freq 10000, the global one with rope_theta 1e6 and
             linear rope_scaling 8; no soft-capping

The reference follows transformers' modeling_gemma2.py and modeling_gemma3.py function by function:
Gemma2RMSNorm / Gemma3RMSNorm (x * rsqrt(mean(x^2) + eps) * (1 + weight)), Gemma2MLP (down(act(gate(x)) * up(x)),
ACT2FN["gelu_pytorch_tanh"]), Gemma2RotaryEmbedding / Gemma3RotaryEmbedding (float32 table, one per layer type),
rotate_half, apply_rotary_pos_emb, repeat_kv, eager_attention_forward (matmul * scaling, then
softcap * tanh(x / softcap), then the mask, softmax), Gemma2Attention / Gemma3Attention (scaling =
query_pre_attn_scalar ** -0.5; Gemma 3's q_norm and k_norm before the rotation), Gemma2DecoderLayer /
Gemma3DecoderLayer (input_layernorm, post_attention_layernorm, pre_feedforward_layernorm,
post_feedforward_layernorm; is_sliding = not layer_idx % 2 for Gemma 2, (layer_idx + 1) % sliding_window_pattern
for Gemma 3; the sliding mask keeps key j for query i iff i - sliding_window < j <= i), Gemma2Model /
Gemma3TextModel (embeddings times the normalizer hidden_size ** 0.5 made a float32 tensor; Gemma3TextScaledWordEmbedding)
and Gemma2ForCausalLM / Gemma3ForCausalLM (final_logit_softcapping). Everything in float64 from the F32 weights,
but the RoPE tables and the embedding normalizer, made in float32 as Hugging Face makes them.

A second, independent implementation (numpy float64, loops over heads, queries and allowed keys; RoPE as complex
multiplication) must agree within 1e-9; the soft-capping, the window and the scale must each move the outputs;
any failure exits 1. make_grad_golden.py imports hf_forward for the gradients.

    /usr/bin/python3 tests/golden/make_hf_gemma_golden.py
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail, rel_diff, whole_f32, write_config, write_safetensors  # noqa: E402
from make_hf_llama_golden import hf_inv_freq, hf_rope_table  # noqa: E402

CROSS_CHECK_TOL = 1e-9
MIN_EFFECT = 1e-3  # soft-capping, the window and the scale must each move the logits by more than this


def gemma_config(**over):
    c = {"architectures": ["Gemma2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
         "attn_logit_softcapping": 5.0, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": 1,
         "final_logit_softcapping": 3.0, "head_dim": 16, "hidden_act": "gelu_pytorch_tanh",
         "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 32, "initializer_range": 0.02,
         "intermediate_size": 48, "max_position_embeddings": 8192, "model_type": "gemma2",
         "num_attention_heads": 4, "num_hidden_layers": 4, "num_key_value_heads": 2, "pad_token_id": 0,
         "query_pre_attn_scalar": 24, "rms_norm_eps": 1e-06, "rope_theta": 10000.0, "sliding_window": 3,
         "torch_dtype": "float32", "transformers_version": "4.45.0", "use_cache": True, "vocab_size": 64}
    c.update(over)
    return dict(sorted(c.items()))


CASES = [
    ("hf_gemma2", "gemma2, 4 layers (local window 3 on 0 and 2, global 1 and 3), attn softcap 5, final softcap 3, "
                  "query_pre_attn_scalar 24, head_dim 16 with hidden 32 and H 4 (H*D = 64 != C), H_kv 2, tied",
     dict(config=gemma_config(), ids=[2, 17, 33, 5, 41, 12, 12, 29, 8], seed=20261301)),
    ("hf_gemma3", "gemma3_text, 4 layers, sliding_window_pattern 3 (layer 2 global), window 3, q_norm/k_norm, "
                  "local RoPE base 10000, global rope_theta 1e6 with linear scaling 8, query_pre_attn_scalar 12, "
                  "head_dim 8, H 4, H_kv 2, no soft-capping, tied",
     dict(config=gemma_config(architectures=["Gemma3ForCausalLM"], model_type="gemma3_text",
                              attn_logit_softcapping=None, final_logit_softcapping=None, head_dim=8,
                              query_pre_attn_scalar=12, rope_theta=1000000.0, rope_local_base_freq=10000.0,
                              rope_scaling={"factor": 8.0, "rope_type": "linear"}, sliding_window_pattern=3,
                              transformers_version="4.50.0"),
          ids=[2, 44, 7, 19, 7, 36, 3, 25, 40], seed=20261302)),
]


class Arch:
    """What Gemma2Config / Gemma3TextConfig and the modeling code derive from a config.json."""

    def __init__(self, cfg):
        self.gemma3 = cfg["model_type"] == "gemma3_text"
        self.C, self.H = cfg["hidden_size"], cfg["num_attention_heads"]
        self.Hkv, self.D = cfg["num_key_value_heads"], cfg["head_dim"]
        self.F, self.L, self.V = cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["vocab_size"]
        self.eps = cfg["rms_norm_eps"]
        self.scaling = cfg["query_pre_attn_scalar"] ** -0.5
        self.attn_cap = cfg.get("attn_logit_softcapping")
        self.final_cap = cfg.get("final_logit_softcapping")
        assert cfg["hidden_activation"] == "gelu_pytorch_tanh" and cfg.get("tie_word_embeddings", True)
        if self.gemma3:  # Gemma3DecoderLayer: is_sliding = bool((layer_idx + 1) % config.sliding_window_pattern)
            self.sliding = [bool((i + 1) % cfg["sliding_window_pattern"]) for i in range(self.L)]
        else:  # Gemma2DecoderLayer: is_sliding = not bool(layer_idx % 2)
            self.sliding = [not bool(i % 2) for i in range(self.L)]
        self.window = cfg["sliding_window"]
        # Gemma3RotaryEmbedding: the global layers with rope_theta and rope_scaling, the local ones with
        # rope_local_base_freq and the default rope; Gemma 2: one rope for all.
        self.global_rope = (cfg["rope_theta"], cfg.get("rope_scaling"))
        self.local_rope = (cfg["rope_local_base_freq"], None) if self.gemma3 else self.global_rope


def make_weights(torch, a, seed):
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    C, H, Hkv, D, F, V = a.C, a.H, a.Hkv, a.D, a.F, a.V
    w = {"model.embed_tokens.weight": randn(V, C, scale=0.5)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        for norm in ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                     "post_feedforward_layernorm"):
            w[p + norm + ".weight"] = randn(C, scale=0.3)  # the norm multiplies by 1 + weight
        w[p + "self_attn.q_proj.weight"] = randn(H * D, C, scale=2.5 / math.sqrt(C))
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * D, C, scale=2.5 / math.sqrt(C))
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * D, C, scale=1 / math.sqrt(C))
        w[p + "self_attn.o_proj.weight"] = randn(C, H * D, scale=1 / math.sqrt(H * D))
        if a.gemma3:
            w[p + "self_attn.q_norm.weight"] = randn(D, scale=0.3)
            w[p + "self_attn.k_norm.weight"] = randn(D, scale=0.3)
        w[p + "mlp.gate_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
        w[p + "mlp.up_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
        w[p + "mlp.down_proj.weight"] = randn(C, F, scale=1 / math.sqrt(F))
    w["model.norm.weight"] = randn(C, scale=0.3)
    return {k: v.float().double() for k, v in w.items()}


def rope_tables(torch, a, T):
    """(cos, sin) float64 of each layer, from Hugging Face's float32 tables of its layer type."""
    tables = {}
    for kind, (theta, scaling) in (("local", a.local_rope), ("global", a.global_rope)):
        tables[kind] = hf_rope_table(torch, hf_inv_freq(torch, theta, a.D, scaling), T)
    return [tables["local" if a.sliding[i] else "global"] for i in range(a.L)]


def hf_forward(torch, cfg, w, ids, cap=True, window=True, scale=True):
    """Gemma2ForCausalLM / Gemma3ForCausalLM, eager attention, float64 on the autograd path of the logits.
    cap, window, scale: False drops the soft-capping, the local window, query_pre_attn_scalar (for 1/sqrt(D))."""
    a = Arch(cfg)
    T = len(ids)
    ropes = rope_tables(torch, a, T)
    scaling = a.scaling if scale else a.D ** -0.5
    out = {}

    def rms_norm(x, weight):  # Gemma2RMSNorm.forward: _norm(x.float()) * (1.0 + weight.float())
        return (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + a.eps)) * (1.0 + weight)

    def linear(x, name):
        return x @ w[name + ".weight"].T

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def repeat_kv(x, n_rep):
        Hkv, T_, D = x.shape
        return x[:, None, :, :].expand(Hkv, n_rep, T_, D).reshape(Hkv * n_rep, T_, D)

    dtype = w["model.embed_tokens.weight"].dtype  # float64, or float32 for make_grad_golden.py's check

    def mask(sliding):  # causal, and Gemma2DecoderLayer's tril(ones, diagonal=-sliding_window) on local layers
        i, j = torch.arange(T).reshape(-1, 1), torch.arange(T)
        blocked = j > i
        if sliding and window:
            blocked |= j <= i - a.window
        return torch.where(blocked, torch.tensor(torch.finfo(dtype).min, dtype=dtype), torch.tensor(0.0, dtype=dtype))

    x = w["model.embed_tokens.weight"][ids]
    normalizer = torch.tensor(a.C ** 0.5, dtype=torch.float32).to(dtype)  # the float32 model's normalizer
    x = x * normalizer
    out["tgt.embed"] = x
    for i in range(a.L):
        p, s = f"model.layers.{i}.", f"decoder.layers.{i}."
        cos, sin = ropes[i][0].to(dtype), ropes[i][1].to(dtype)
        n = rms_norm(x, w[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        q = linear(n, p + "self_attn.q_proj").view(T, -1, a.D).transpose(0, 1)
        k = linear(n, p + "self_attn.k_proj").view(T, -1, a.D).transpose(0, 1)
        v = linear(n, p + "self_attn.v_proj").view(T, -1, a.D).transpose(0, 1)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        if a.gemma3:  # Gemma3Attention: q_norm / k_norm over head_dim, before the rotation
            q, k = rms_norm(q, w[p + "self_attn.q_norm.weight"]), rms_norm(k, w[p + "self_attn.k_norm.weight"])
            out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"] = q, k
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin  # apply_rotary_pos_emb
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        n_rep = a.H // a.Hkv  # eager_attention_forward
        key_states, value_states = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
        scores = torch.matmul(q, key_states.transpose(1, 2)) * scaling
        out[s + "self_attn.scaled"] = scores
        if a.attn_cap is not None and cap:
            scores = torch.tanh(scores / a.attn_cap) * a.attn_cap
            out[s + "self_attn.capped"] = scores
        weights = torch.softmax(scores + mask(a.sliding[i]), dim=-1)
        out[s + "self_attn.weights"] = weights
        context = torch.matmul(weights, value_states).transpose(0, 1).reshape(T, -1)
        attn = linear(context, p + "self_attn.o_proj")
        out[s + "self_attn.out"] = attn
        attn = rms_norm(attn, w[p + "post_attention_layernorm.weight"])  # Gemma2DecoderLayer
        out[s + "post_norm1"] = attn
        h = x + attn
        out[s + "residual1"] = h
        n = rms_norm(h, w[p + "pre_feedforward_layernorm.weight"])
        out[s + "norm2"] = n
        gate = linear(n, p + "mlp.gate_proj")
        act = torch.nn.functional.gelu(gate, approximate="tanh")  # ACT2FN["gelu_pytorch_tanh"]
        up = linear(n, p + "mlp.up_proj")
        out[s + "ffn.gate"], out[s + "ffn.activation"], out[s + "ffn.up"] = gate, act, up
        gated = act * up
        out[s + "ffn.gated"] = gated
        down = linear(gated, p + "mlp.down_proj")
        out[s + "ffn.out"] = down
        down = rms_norm(down, w[p + "post_feedforward_layernorm.weight"])
        out[s + "post_norm2"] = down
        x = h + down
        out[s + "residual2"] = x
    x = rms_norm(x, w["model.norm.weight"])
    out["decoder.output"] = x
    logits = x @ w["model.embed_tokens.weight"].T  # lm_head tied to embed_tokens
    out["logits"] = logits
    if a.final_cap is not None and cap:  # Gemma2ForCausalLM.forward
        out["capped_logits"] = torch.tanh(logits / a.final_cap) * a.final_cap
    return out


def independent_forward(cfg, W, ids, phases):
    """numpy float64: loops over heads, queries and the allowed keys; RoPE as (x[i] + 1j x[i + D/2]) * phase."""
    a = Arch(cfg)
    T, D, half = len(ids), a.D, a.D // 2
    out = {}

    def norm(x, gain):
        return np.stack([r / math.sqrt(float(np.dot(r, r)) / r.size + a.eps) for r in x.reshape(-1, x.shape[-1])]
                        ).reshape(x.shape) * (1.0 + gain)

    def lin(x, name):
        return np.einsum("tc,oc->to", x, W[name + ".weight"])

    def heads(x, n):
        return np.stack([x[:, h * D:(h + 1) * D] for h in range(n)])

    def gelu_tanh(x):
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

    x = W["model.embed_tokens.weight"][np.array(ids)] * float(np.float32(a.C ** 0.5))
    out["tgt.embed"] = x
    for layer in range(a.L):
        p, s = f"model.layers.{layer}.", f"decoder.layers.{layer}."
        phase = phases[layer]
        n = norm(x, W[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        q, k = heads(lin(n, p + "self_attn.q_proj"), a.H), heads(lin(n, p + "self_attn.k_proj"), a.Hkv)
        v = heads(lin(n, p + "self_attn.v_proj"), a.Hkv)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        if a.gemma3:
            q, k = norm(q, W[p + "self_attn.q_norm.weight"]), norm(k, W[p + "self_attn.k_norm.weight"])
            out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"] = q, k

        def rotate(z):
            c = (z[..., :half] + 1j * z[..., half:]) * phase[None]
            return np.concatenate([c.real, c.imag], axis=-1)

        q, k = rotate(q), rotate(k)
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        scaled = np.zeros((a.H, T, T))
        weights = np.zeros((a.H, T, T))
        context = np.zeros((T, a.H * D))
        for h in range(a.H):
            g = h // (a.H // a.Hkv)
            for i in range(T):
                for j in range(T):
                    scaled[h, i, j] = float(np.dot(q[h, i], k[g, j])) * a.scaling
                row = a.attn_cap * np.tanh(scaled[h, i] / a.attn_cap) if a.attn_cap else scaled[h, i]
                keys = [j for j in range(T) if j <= i and (not a.sliding[layer] or i - j < a.window)]
                e = np.exp(row[keys] - row[keys].max())
                for j, wj in zip(keys, e / e.sum()):
                    weights[h, i, j] = wj
                    context[i, h * D:(h + 1) * D] += wj * v[g, j]
        out[s + "self_attn.scaled"] = scaled
        if a.attn_cap:
            out[s + "self_attn.capped"] = a.attn_cap * np.tanh(scaled / a.attn_cap)
        out[s + "self_attn.weights"] = weights
        out[s + "self_attn.out"] = lin(context, p + "self_attn.o_proj")
        out[s + "post_norm1"] = norm(out[s + "self_attn.out"], W[p + "post_attention_layernorm.weight"])
        hres = x + out[s + "post_norm1"]
        out[s + "residual1"] = hres
        n = norm(hres, W[p + "pre_feedforward_layernorm.weight"])
        out[s + "norm2"] = n
        gate, up = lin(n, p + "mlp.gate_proj"), lin(n, p + "mlp.up_proj")
        out[s + "ffn.gate"], out[s + "ffn.activation"], out[s + "ffn.up"] = gate, gelu_tanh(gate), up
        out[s + "ffn.gated"] = gelu_tanh(gate) * up
        out[s + "ffn.out"] = lin(out[s + "ffn.gated"], p + "mlp.down_proj")
        out[s + "post_norm2"] = norm(out[s + "ffn.out"], W[p + "post_feedforward_layernorm.weight"])
        x = hres + out[s + "post_norm2"]
        out[s + "residual2"] = x
    x = norm(x, W["model.norm.weight"])
    out["decoder.output"] = x
    out["logits"] = np.einsum("tc,vc->tv", x, W["model.embed_tokens.weight"])
    if a.final_cap:
        out["capped_logits"] = a.final_cap * np.tanh(out["logits"] / a.final_cap)
    return out


def build_case(torch, name, description, spec):
    cfg, ids = spec["config"], spec["ids"]
    a = Arch(cfg)
    assert ids[0] == cfg["bos_token_id"] and 0 not in ids and max(ids) < a.V
    w = make_weights(torch, a, spec["seed"])
    out = hf_forward(torch, cfg, w, ids)
    report = {}
    phases = [c[:, : a.D // 2].numpy() + 1j * s_[:, : a.D // 2].numpy() for c, s_ in rope_tables(torch, a, len(ids))]
    ind = independent_forward(cfg, {k: v.numpy() for k, v in w.items()}, ids, phases)
    if set(ind) != set(out):
        fail(f"{name}: the implementations give different step sets: {sorted(set(ind) ^ set(out))}")
    worst = max((rel_diff(out[k].detach().numpy(), ind[k]), k) for k in ind)
    if worst[0] > CROSS_CHECK_TOL:
        fail(f"{name}: {worst[1]} differs between the two implementations by {worst[0]:.3g} (relative)")
    report["independent forward, max relative diff"] = worst
    final = "capped_logits" if a.final_cap else "logits"
    for what, kwargs in (("soft-capping", dict(cap=False)), ("local window", dict(window=False)),
                         ("query_pre_attn_scalar", dict(scale=False))):
        if what == "soft-capping" and not a.attn_cap:
            continue
        other = hf_forward(torch, cfg, w, ids, **kwargs)
        d = float((other.get(final, other["logits"]) - out[final]).abs().max())
        if d <= MIN_EFFECT:
            fail(f"{name}: {what} moves the output by only {d:.3g}")
        report[f"without {what}: output moves by (abs)"] = d
    if a.attn_cap:
        biggest = max(float(out[f"decoder.layers.{i}.self_attn.scaled"].abs().max()) for i in range(a.L))
        report["largest |scaled score| before the cap"] = biggest
        report["largest |logit| before the cap"] = float(out["logits"].abs().max())
    if a.gemma3 and a.global_rope == a.local_rope:
        fail(f"{name}: the local and global layers turn alike")
    report["local layers"] = [i for i in range(a.L) if a.sliding[i]]
    metadata = {"tgt_ids": json.dumps(ids), "src_ids": "[]", "case": name,
                "description": description}
    return cfg, w, {k: v.detach() for k, v in out.items()}, metadata, report


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    for name, description, spec in CASES:
        cfg, tensors, out, metadata, report = build_case(torch, name, description, spec)
        folder = os.path.join(FIXTURES, name)
        os.makedirs(folder, exist_ok=True)
        write_config(folder, cfg)
        write_safetensors(os.path.join(folder, "model.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(tensors.items())], {"format": "pt"})
        write_safetensors(os.path.join(folder, "expected.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(out.items())], metadata)
        sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
        print(f"{name}: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))
        for key, value in report.items():
            if isinstance(value, float):
                value = f"{value:.3g}"
            elif isinstance(value, tuple):
                value = f"{value[0]:.3g} ({value[1]})"
            print(f"    {key}: {value}")


if __name__ == "__main__":
    main()
