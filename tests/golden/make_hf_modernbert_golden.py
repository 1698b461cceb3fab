#!/usr/bin/python3
"""A Hugging Face modernbert folder for Attention Lab's loaders, with PyTorch outputs.

Writes one tiny random ModernBertForMaskedLM into tests/golden/fixtures/hf_modernbert/ (config.json,
model.safetensors named as save_pretrained writes them: "model." before the base model's names, head.* and
decoder.bias without it, no decoder.weight as it is tied to model.embeddings.tok_embeddings; tokenizer.json, the
json_bpe fixture's modernbert layout; expected.safetensors: this script's reference outputs under Attention Lab's
step paths, the input ids in the metadata):

  hf_modernbert  4 layers, global_attn_every_n_layers 3 (layers 0 and 3 global, 1 and 2 local), local_attention 4
                 (a local query sees the keys at most 2 away on either side), global_rope_theta 160000 and
                 local_rope_theta 10000, hidden 32, 4 heads (D 8), intermediate 24, norm_bias false (LayerNorms
                 without beta), mlp_bias true (Wi's bias packs its two halves too), attention_bias false,
                 classifier_bias false, decoder_bias true, vocab 480 (the tokenizer's 459 tokens, padded); the text
                 "Attention is all you need." as its tokenizer gives it ([CLS] ... [SEP]) and a [PAD], masked as a key

The reference follows transformers' modeling_modernbert.py: ModernBertEmbeddings (tok_embeddings, then norm, a
LayerNorm with bias=norm_bias; no positions), ModernBertEncoderLayer (attn_norm is nn.Identity in layer 0, a
LayerNorm after; x + attn(attn_norm(x)), then x + mlp(mlp_norm(x))), ModernBertAttention (Wqkv viewed (T, 3, H, D):
Q;K;V in that order; a local layer when layer_id % global_attn_every_n_layers != 0), eager_attention_forward
(apply_rotary_pos_emb with rotate_half, times head_dim ** -0.5, the sliding-window mask in local layers, softmax,
times V, Wo), ModernBertRotaryEmbedding (default rope of each layer type, float32 tables: full_attention with
global_rope_theta, sliding_attention with local_rope_theta), ModernBertModel._update_attention_mask (the padding
mask, and for local layers also |i - j| <= local_attention // 2), ModernBertMLP (input, gate = Wi(x).chunk(2);
Wo(act(input) * gate), ACT2FN["gelu"] the erf form), final_norm, ModernBertPredictionHead (norm(act(dense(x))),
classifier_activation) and ModernBertForMaskedLM (decoder, tied to tok_embeddings, with its bias). Everything in
float64 from the F32 weights, but the RoPE tables, made in float32 as Hugging Face makes them.

A second, independent implementation (numpy float64, loops over heads, queries and the allowed keys; RoPE as complex
multiplication) must agree within 1e-9; the window and the local RoPE base must each move the outputs; any failure
exits 1. make_grad_golden.py imports hf_forward for the gradients.

    /usr/bin/python3 tests/golden/make_hf_modernbert_golden.py
"""
import json
import math
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, REPO, fail, rel_diff, whole_f32, write_config, write_safetensors  # noqa: E402
from make_hf_llama_golden import hf_inv_freq, hf_rope_table  # noqa: E402

CROSS_CHECK_TOL = 1e-9
MIN_EFFECT = 1e-3  # the window and the local RoPE base must each move the logits by more than this
TOKENIZER = os.path.join(REPO, "tests", "fixtures", "tokenizers", "json_bpe", "modernbert.json")

CONFIG = dict(sorted({
    "architectures": ["ModernBertForMaskedLM"], "attention_bias": False, "attention_dropout": 0.0,
    "bos_token_id": 455, "classifier_activation": "gelu", "classifier_bias": False, "classifier_dropout": 0.0,
    "classifier_pooling": "mean", "cls_token_id": 455, "decoder_bias": True, "deterministic_flash_attn": False,
    "embedding_dropout": 0.0, "eos_token_id": 456, "global_attn_every_n_layers": 3, "global_rope_theta": 160000.0,
    "hidden_activation": "gelu", "hidden_size": 32, "initializer_cutoff_factor": 2.0, "initializer_range": 0.02,
    "intermediate_size": 24, "local_attention": 4, "local_rope_theta": 10000.0, "max_position_embeddings": 64,
    "mlp_bias": True, "mlp_dropout": 0.0, "model_type": "modernbert", "norm_bias": False, "norm_eps": 1e-05,
    "num_attention_heads": 4, "num_hidden_layers": 4, "pad_token_id": 457, "sep_token_id": 456,
    "sparse_pred_ignore_index": -100, "sparse_prediction": False, "torch_dtype": "float32",
    "transformers_version": "4.48.0", "vocab_size": 480}.items()))
# "Attention is all you need." as the tokenizer gives it ([CLS] … [SEP]), then a [PAD].
IDS = [455, 65, 389, 355, 258, 276, 431, 315, 101, 101, 100, 46, 456, 457]
SEED = 20261401


class Arch:
    """What ModernBertConfig and the modeling code derive from a config.json."""

    def __init__(self, cfg):
        self.C, self.H = cfg["hidden_size"], cfg["num_attention_heads"]
        self.D = self.C // self.H  # ModernBertAttention.head_dim
        self.F, self.L, self.V = cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["vocab_size"]
        self.eps = cfg["norm_eps"]
        self.norm_bias, self.mlp_bias = cfg["norm_bias"], cfg["mlp_bias"]
        self.attention_bias, self.classifier_bias = cfg["attention_bias"], cfg["classifier_bias"]
        self.decoder_bias = cfg["decoder_bias"]
        assert cfg["hidden_activation"] == cfg["classifier_activation"] == "gelu"
        # ModernBertAttention: local_attention = (w // 2, w // 2) when layer_id % global_attn_every_n_layers
        self.local = [bool(i % cfg["global_attn_every_n_layers"]) for i in range(self.L)]
        self.half_window = cfg["local_attention"] // 2
        self.global_theta, self.local_theta = cfg["global_rope_theta"], cfg["local_rope_theta"]
        self.pad = cfg["pad_token_id"]


def make_weights(torch, a, seed):
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    C, F, V = a.C, a.F, a.V
    w = {"model.embeddings.tok_embeddings.weight": randn(V, C, scale=0.5),
         "model.embeddings.norm.weight": 1.0 + randn(C, scale=0.3)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        if i > 0:  # layer 0's attn_norm is nn.Identity: no weight
            w[p + "attn_norm.weight"] = 1.0 + randn(C, scale=0.3)
        w[p + "attn.Wqkv.weight"] = randn(3 * C, C, scale=2.0 / math.sqrt(C))
        w[p + "attn.Wo.weight"] = randn(C, C, scale=1 / math.sqrt(C))
        w[p + "mlp_norm.weight"] = 1.0 + randn(C, scale=0.3)
        w[p + "mlp.Wi.weight"] = randn(2 * F, C, scale=1.5 / math.sqrt(C))
        w[p + "mlp.Wi.bias"] = randn(2 * F, scale=0.3)
        w[p + "mlp.Wo.weight"] = randn(C, F, scale=1 / math.sqrt(F))
        w[p + "mlp.Wo.bias"] = randn(C, scale=0.3)
    w["model.final_norm.weight"] = 1.0 + randn(C, scale=0.3)
    w["head.dense.weight"] = randn(C, C, scale=1.5 / math.sqrt(C))
    w["head.norm.weight"] = 1.0 + randn(C, scale=0.3)
    w["decoder.bias"] = randn(V, scale=0.3)
    return {k: v.float().double() for k, v in w.items()}


def rope_tables(torch, a, T, local_theta=None):
    """(cos, sin) float64 of each layer, from Hugging Face's float32 table of its layer type."""
    local = hf_rope_table(torch, hf_inv_freq(torch, local_theta or a.local_theta, a.D, None), T)
    full = hf_rope_table(torch, hf_inv_freq(torch, a.global_theta, a.D, None), T)
    return [local if a.local[i] else full for i in range(a.L)]


def hf_forward(torch, cfg, w, ids, window=True, local_theta=None):
    """ModernBertForMaskedLM, eager attention, float64 on the autograd path of the logits.
    window False: the local layers see every key; local_theta: another base for the local layers' RoPE."""
    a = Arch(cfg)
    T = len(ids)
    ropes = rope_tables(torch, a, T, local_theta)
    dtype = w["model.embeddings.tok_embeddings.weight"].dtype  # float64, or float32 for make_grad_golden.py
    out = {}

    def layer_norm(x, name):  # nn.LayerNorm(C, eps=norm_eps, bias=norm_bias)
        bias = w.get(name + ".bias") if a.norm_bias else None
        return torch.nn.functional.layer_norm(x, (a.C,), w[name + ".weight"], bias, a.eps)

    def linear(x, name, bias):
        y = x @ w[name + ".weight"].T
        return y + w[name + ".bias"] if bias else y

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    # _update_attention_mask: _prepare_4d_attention_mask of ids != pad (keys only), and the window on top
    keep = torch.tensor([i != a.pad for i in ids])
    minimum = torch.tensor(torch.finfo(dtype).min, dtype=dtype)
    zero = torch.tensor(0.0, dtype=dtype)
    global_mask = torch.where(keep[None, :].expand(T, T), zero, minimum)
    rows = torch.arange(T).unsqueeze(0)
    distance = torch.abs(rows - rows.T)
    sliding_mask = global_mask.masked_fill((distance <= a.half_window).logical_not(), torch.finfo(dtype).min)

    x = w["model.embeddings.tok_embeddings.weight"][ids]
    out["src.embed"] = x
    x = layer_norm(x, "model.embeddings.norm")
    out["src.embed_norm"] = x
    for i in range(a.L):
        p, s = f"model.layers.{i}.", f"encoder.layers.{i}."
        cos, sin = ropes[i][0].to(dtype), ropes[i][1].to(dtype)
        # nn.Identity in layer 0 (a view: its own node, so that autograd gives this step the attention's gradient alone)
        n = x.view_as(x) if i == 0 else layer_norm(x, p + "attn_norm")
        out[s + "norm1"] = n
        qkv = linear(n, p + "attn.Wqkv", a.attention_bias).view(T, 3, a.H, a.D)
        q, k, v = qkv.permute(1, 2, 0, 3).unbind(0)  # qkv.transpose(3, 1).unbind(dim=2): (H, T, D) each
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin  # apply_rotary_pos_emb
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        scores = torch.matmul(q, k.transpose(1, 2)) * a.D ** -0.5
        out[s + "self_attn.scaled"] = scores
        mask = sliding_mask if a.local[i] and window else global_mask
        weights = torch.softmax(scores + mask, dim=-1)
        out[s + "self_attn.weights"] = weights
        context = torch.matmul(weights, v).transpose(0, 1).reshape(T, a.C)
        attn = linear(context, p + "attn.Wo", a.attention_bias)
        out[s + "self_attn.out"] = attn
        x = x + attn
        out[s + "residual1"] = x
        n = layer_norm(x, p + "mlp_norm")
        out[s + "norm2"] = n
        wi = linear(n, p + "mlp.Wi", a.mlp_bias)
        inp, gate = wi.chunk(2, dim=-1)  # ModernBertMLP: act(input) * gate; our gate is its input
        act = torch.nn.functional.gelu(inp)  # ACT2FN["gelu"]: the erf form
        out[s + "ffn.gate"], out[s + "ffn.activation"], out[s + "ffn.up"] = inp, act, gate
        gated = act * gate
        out[s + "ffn.gated"] = gated
        mlp = linear(gated, p + "mlp.Wo", a.mlp_bias)
        out[s + "ffn.out"] = mlp
        x = x + mlp
        out[s + "residual2"] = x
    x = layer_norm(x, "model.final_norm")
    out["encoder.output"] = x
    t = linear(x, "head.dense", a.classifier_bias)
    out["head.transform"] = t
    t = torch.nn.functional.gelu(t)
    out["head.activation"] = t
    t = layer_norm(t, "head.norm")
    out["head.norm"] = t
    logits = t @ w["model.embeddings.tok_embeddings.weight"].T  # decoder, tied
    if a.decoder_bias:
        logits = logits + w["decoder.bias"]
    out["logits"] = logits
    return out


def independent_forward(cfg, W, ids, phases):
    """numpy float64: loops over heads, queries and the allowed keys; RoPE as (x[i] + 1j x[i + D/2]) * phase."""
    a = Arch(cfg)
    T, C, D, F, half = len(ids), a.C, a.D, a.F, a.D // 2
    out = {}

    def norm(x, name):
        rows = [(r - r.mean()) / math.sqrt(float(((r - r.mean()) ** 2).mean()) + a.eps) for r in x]
        return np.stack(rows) * W[name + ".weight"]

    def lin(x, name, bias):
        y = np.einsum("tc,oc->to", x, W[name + ".weight"])
        return y + W[name + ".bias"] if bias else y

    def gelu(x):
        return np.vectorize(lambda z: 0.5 * z * (1 + math.erf(z / math.sqrt(2))))(x)

    x = W["model.embeddings.tok_embeddings.weight"][np.array(ids)]
    out["src.embed"] = x
    x = norm(x, "model.embeddings.norm")
    out["src.embed_norm"] = x
    for layer in range(a.L):
        p, s = f"model.layers.{layer}.", f"encoder.layers.{layer}."
        n = x if layer == 0 else norm(x, p + "attn_norm")
        out[s + "norm1"] = n
        qkv = lin(n, p + "attn.Wqkv", a.attention_bias)  # (T, 3C): Q, K, V blocks of C, each H heads of D
        q, k, v = (np.stack([qkv[:, b * C + h * D: b * C + (h + 1) * D] for h in range(a.H)]) for b in range(3))
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v

        def rotate(z):
            c = (z[..., :half] + 1j * z[..., half:]) * phases[layer][None]
            return np.concatenate([c.real, c.imag], axis=-1)

        q, k = rotate(q), rotate(k)
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        scaled = np.zeros((a.H, T, T))
        weights = np.zeros((a.H, T, T))
        context = np.zeros((T, C))
        for h in range(a.H):
            for i in range(T):
                for j in range(T):
                    scaled[h, i, j] = float(np.dot(q[h, i], k[h, j])) / math.sqrt(D)
                keys = [j for j in range(T) if ids[j] != a.pad and (not a.local[layer] or abs(i - j) <= a.half_window)]
                e = np.exp(scaled[h, i, keys] - scaled[h, i, keys].max())
                for j, wj in zip(keys, e / e.sum()):
                    weights[h, i, j] = wj
                    context[i, h * D:(h + 1) * D] += wj * v[h, j]
        out[s + "self_attn.scaled"] = scaled
        out[s + "self_attn.weights"] = weights
        out[s + "self_attn.out"] = lin(context, p + "attn.Wo", a.attention_bias)
        x = x + out[s + "self_attn.out"]
        out[s + "residual1"] = x
        n = norm(x, p + "mlp_norm")
        out[s + "norm2"] = n
        wi = lin(n, p + "mlp.Wi", a.mlp_bias)
        out[s + "ffn.gate"], out[s + "ffn.up"] = wi[:, :F], wi[:, F:]
        out[s + "ffn.activation"] = gelu(wi[:, :F])
        out[s + "ffn.gated"] = out[s + "ffn.activation"] * wi[:, F:]
        out[s + "ffn.out"] = lin(out[s + "ffn.gated"], p + "mlp.Wo", a.mlp_bias)
        x = x + out[s + "ffn.out"]
        out[s + "residual2"] = x
    x = norm(x, "model.final_norm")
    out["encoder.output"] = x
    out["head.transform"] = lin(x, "head.dense", a.classifier_bias)
    out["head.activation"] = gelu(out["head.transform"])
    out["head.norm"] = norm(out["head.activation"], "head.norm")
    out["logits"] = np.einsum("tc,vc->tv", out["head.norm"], W["model.embeddings.tok_embeddings.weight"])
    if a.decoder_bias:
        out["logits"] = out["logits"] + W["decoder.bias"]
    return out


def build(torch):
    cfg, ids = CONFIG, IDS
    a = Arch(cfg)
    assert ids[0] == cfg["cls_token_id"] and max(ids) < a.V and len(ids) > 2 * a.half_window + 1
    w = make_weights(torch, a, SEED)
    out = hf_forward(torch, cfg, w, ids)
    report = {}
    phases = [c[:, : a.D // 2].numpy() + 1j * s_[:, : a.D // 2].numpy() for c, s_ in rope_tables(torch, a, len(ids))]
    ind = independent_forward(cfg, {k: v.numpy() for k, v in w.items()}, ids, phases)
    if set(ind) != set(out):
        fail(f"hf_modernbert: the implementations give different step sets: {sorted(set(ind) ^ set(out))}")
    worst = max((rel_diff(out[k].detach().numpy(), ind[k]), k) for k in ind)
    if worst[0] > CROSS_CHECK_TOL:
        fail(f"hf_modernbert: {worst[1]} differs between the two implementations by {worst[0]:.3g} (relative)")
    report["independent forward, max relative diff"] = worst
    for what, kwargs in (("local window", dict(window=False)), ("local RoPE base", dict(local_theta=a.global_theta))):
        d = float((hf_forward(torch, cfg, w, ids, **kwargs)["logits"] - out["logits"]).abs().max())
        if d <= MIN_EFFECT:
            fail(f"hf_modernbert: {what} moves the logits by only {d:.3g}")
        report[f"without the {what}: logits move by (abs)"] = d
    report["local layers"] = [i for i in range(a.L) if a.local[i]]
    metadata = {"src_ids": json.dumps(ids), "tgt_ids": "[]", "case": "hf_modernbert",
                "description": "modernbert, 4 layers (0 and 3 global, 1 and 2 local, local_attention 4), "
                               "RoPE bases 160000 / 10000, LayerNorms without beta, packed Wi with biases, "
                               "tied decoder with its bias"}
    return w, {k: v.detach() for k, v in out.items()}, metadata, report


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    tensors, out, metadata, report = build(torch)
    folder = os.path.join(FIXTURES, "hf_modernbert")
    os.makedirs(folder, exist_ok=True)
    write_config(folder, CONFIG)
    shutil.copyfile(TOKENIZER, os.path.join(folder, "tokenizer.json"))
    write_safetensors(os.path.join(folder, "model.safetensors"),
                      [(k, *whole_f32(v.numpy())) for k, v in sorted(tensors.items())], {"format": "pt"})
    write_safetensors(os.path.join(folder, "expected.safetensors"),
                      [(k, *whole_f32(v.numpy())) for k, v in sorted(out.items())], metadata)
    sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
    print("hf_modernbert: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))
    for key, value in report.items():
        if isinstance(value, float):
            value = f"{value:.3g}"
        elif isinstance(value, tuple):
            value = f"{value[0]:.3g} ({value[1]})"
        print(f"    {key}: {value}")


if __name__ == "__main__":
    main()
