#!/usr/bin/python3
"""Direct logit attribution oracle for `attnlab-cli attribute` / core/analysis/logit_attribution.

Reads the fixture models the other golden scripts wrote (hf_gpt2, hf_llama, hf_marian, and our post_ln_relu and
pre_ln_gelu), runs each in PyTorch (float64) on the ids of its expected.safetensors while recording what flows
into the decoder's residual stream (the embeddings, each attention's per-head weights and V and its W_O, each FFN's
output, each norm's input), checks those forwards' logits against the fixture's expected logits (≤ 1e-4, else exit
1), and splits the metric by hand from the recorded activations:

  head h at source j:  w[h, pos, j] · V[g(h), j] · W_O[:, h·D:(h+1)·D]ᵀ      (g(h) = h // (H / H_kv))
  an attention's out bias, an FFN's output row (its last bias included), the embeddings' row;
  every norm on the stream (post-LN sublayer norms, the final norm) frozen at this run's scale:
  LayerNorm c -> (c − mean(c)) / σ · γ (σ = √(var(x) + ε), x the norm's input row) and β a component;
  RMSNorm c -> c / rms(x) · γ; then the dot with the unembedding row of A (minus B's), plus the output bias.

Ours (torch.nn.Transformer, LabModel from make_golden.py) is run as a module with hooks: per-head weights and the
q/k/v inputs of each nn.MultiheadAttention, each LayerNorm's input, each linear2's output. GPT-2, Llama and Marian
are this script's own short forwards (no transformers package here), written from the models' definitions and
checked against the expected logits of their fixtures (which the other scripts check against HF's own code paths).

Writes fixtures/attribution.json: per case the model fixture, ids, metric, total (Σ shares), the metric from the
forward's logits, and every component's share by name (the C++ names: "embeddings",
"decoder.layers.L.self_attn.headH@J", "decoder.layers.L.cross_attn.out_bias", "decoder.layers.L.ffn",
"decoder.layers.L.normK.bias", "decoder.output.bias", and the unembedding's bias parameter).

    /usr/bin/python3 tests/golden/make_attribution_golden.py
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail, read_safetensors  # noqa: E402
from make_golden import LabModel, torch_forward  # noqa: E402

TOL = 1e-4


def read_tensors(path):
    """F32 tensors of a safetensors file as float64 torch tensors, and its metadata."""
    meta, arrays = read_safetensors(path)
    return meta, {k: torch.from_numpy(a.astype(np.float64)) for k, a in arrays.items() if a.dtype == np.float32}


# ---------------------------------------------------------------------------------------------------------------
# the attribution, from recorded events (in the order they write into the stream)
#   ("embed", x (T, C))
#   ("attn", name, w (H, Tq, Tk), v (H_kv, Tk, D), W_O (C, H·D), b_O (C,) or None)
#   ("ffn", name, out (T, C))
#   ("norm", bias_name, x (T, C), gamma (C,), beta (C,) or None (RMSNorm), eps)
#   ("transform", bias_name, W_t (C, C), b_t (C,), t (T, C), act(t) (T, C), act'(0)): BERT's head transform and its
#       activation, frozen as the diagonal scale act(t)/t (act'(0) where t = 0)
# ---------------------------------------------------------------------------------------------------------------

def attribute(events, pos, u, out_bias):
    names, vecs = [], []
    for ev in events:
        kind = ev[0]
        if kind == "embed":
            names.append("embeddings")
            vecs.append(ev[1][pos])
        elif kind == "attn":
            _, name, w, v, w_o, b_o = ev
            H, H_kv, D = w.shape[0], v.shape[0], v.shape[2]
            for h in range(H):
                g = h // (H // H_kv)
                block = w_o[:, h * D:(h + 1) * D]  # (C, D)
                for j in range(w.shape[2]):
                    names.append("%s.head%d@%d" % (name, h, j))
                    vecs.append(w[h, pos, j] * (block @ v[g, j]))
            if b_o is not None:
                names.append(name + ".out_bias")
                vecs.append(b_o)
        elif kind == "ffn":
            names.append(ev[1])
            vecs.append(ev[2][pos])
        elif kind == "transform":
            _, bias_name, w_t, b_t, t, a, slope_at_0 = ev
            s = torch.where(t[pos] == 0, torch.full_like(t[pos], slope_at_0), a[pos] / t[pos])
            vecs = [(w_t @ c) * s for c in vecs]
            names.append(bias_name)
            vecs.append(b_t * s)
        elif kind == "norm":
            _, bias_name, x, gamma, beta, eps = ev
            row = x[pos]
            if beta is None:
                inv = 1.0 / torch.sqrt((row * row).mean() + eps)
                vecs = [c * inv * gamma for c in vecs]
            else:
                inv = 1.0 / torch.sqrt(((row - row.mean()) ** 2).mean() + eps)
                vecs = [(c - c.mean()) * inv * gamma for c in vecs]
                names.append(bias_name)
                vecs.append(beta.clone())
        else:
            raise ValueError(kind)
    shares = {n: float(c @ u) for n, c in zip(names, vecs)}
    if out_bias is not None:
        shares[out_bias[0]] = float(out_bias[1])
    return shares


def metric_parts(spec):
    """"logit:A@POS" / "logit-diff:A,B@POS" -> (A, B or None, POS)."""
    kind, rest = spec.split(":")
    tokens, pos = rest.split("@")
    if kind == "logit":
        return int(tokens), None, int(pos)
    a, b = tokens.split(",")
    return int(a), int(b), int(pos)


def unembedding(w_u, bias, bias_name, spec):
    a, b, pos = metric_parts(spec)
    u = w_u[a] - (w_u[b] if b is not None else 0.0)
    ob = None
    if bias is not None:
        ob = (bias_name, bias[a] - (bias[b] if b is not None else 0.0))
    return u, ob, pos


def metric_of(logits, spec):
    a, b, pos = metric_parts(spec)
    return float(logits[pos, a] - (logits[pos, b] if b is not None else 0.0))


def causal_softmax(scores):  # (H, T, T)
    T = scores.shape[-1]
    blocked = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    return torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1)


def layer_norm(x, g, b, eps):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * g + b


def split_heads(x, H):  # (T, H·D) -> (H, T, D)
    T = x.shape[0]
    return x.reshape(T, H, -1).transpose(0, 1)


# ---------------------------------------------------------------------------------------------------------------
# GPT-2: pre-LN, learned positions, Conv1D weights (in, out), gelu_new, ln_f, tied to wte
# ---------------------------------------------------------------------------------------------------------------

def gpt2_run(folder, ids):
    cfg = json.load(open(os.path.join(folder, "config.json")))
    _, w = read_tensors(os.path.join(folder, "model.safetensors"))
    C, H, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    D = C // H
    T = len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    events = [("embed", x.clone())]
    for i in range(cfg["n_layer"]):
        p = "h.%d." % i
        h = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = (split_heads(t, H) for t in qkv.split(C, dim=1))
        att = causal_softmax(q @ k.transpose(1, 2) / math.sqrt(D))
        ctx = (att @ v).transpose(0, 1).reshape(T, C)
        w_o = w[p + "attn.c_proj.weight"].T  # (C out, H·D in)
        a = ctx @ w_o.T + w[p + "attn.c_proj.bias"]
        events.append(("attn", "decoder.layers.%d.self_attn" % i, att, v, w_o, w[p + "attn.c_proj.bias"]))
        x = x + a
        h = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = F.gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"], approximate="tanh")
        f = m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
        events.append(("ffn", "decoder.layers.%d.ffn" % i, f))
        x = x + f
    events.append(("norm", "decoder.output.bias", x, w["ln_f.weight"], w["ln_f.bias"], eps))
    logits = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"], eps) @ w["wte.weight"].T
    return events, logits, (w["wte.weight"], None, None)


# ---------------------------------------------------------------------------------------------------------------
# Llama: pre-norm RMSNorm, RoPE (rotate_half), grouped-query attention, SwiGLU, final norm, untied lm_head
# ---------------------------------------------------------------------------------------------------------------

def llama_run(folder, ids):
    cfg = json.load(open(os.path.join(folder, "config.json")))
    _, w = read_tensors(os.path.join(folder, "model.safetensors"))
    C, H, H_kv, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["rms_norm_eps"]
    D = C // H
    T = len(ids)
    theta = cfg.get("rope_theta", 10000.0)
    inv_freq = 1.0 / theta ** (torch.arange(0, D, 2, dtype=torch.float64) / D)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * inv_freq[None]
    cos, sin = torch.cat([ang.cos(), ang.cos()], -1), torch.cat([ang.sin(), ang.sin()], -1)  # (T, D)

    def rope(t):  # (H, T, D)
        half = torch.cat([-t[..., D // 2:], t[..., :D // 2]], -1)
        return t * cos + half * sin

    def rms(x, g):
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * g

    x = w["model.embed_tokens.weight"][ids]
    events = [("embed", x.clone())]
    for i in range(cfg["num_hidden_layers"]):
        p = "model.layers.%d." % i
        h = rms(x, w[p + "input_layernorm.weight"])
        q = rope(split_heads(h @ w[p + "self_attn.q_proj.weight"].T, H))
        k = rope(split_heads(h @ w[p + "self_attn.k_proj.weight"].T, H_kv))
        v = split_heads(h @ w[p + "self_attn.v_proj.weight"].T, H_kv)
        rep = H // H_kv
        att = causal_softmax(q @ k.repeat_interleave(rep, 0).transpose(1, 2) / math.sqrt(D))
        ctx = (att @ v.repeat_interleave(rep, 0)).transpose(0, 1).reshape(T, H * D)
        w_o = w[p + "self_attn.o_proj.weight"]
        events.append(("attn", "decoder.layers.%d.self_attn" % i, att, v, w_o, None))
        x = x + ctx @ w_o.T
        h = rms(x, w[p + "post_attention_layernorm.weight"])
        f = (F.silu(h @ w[p + "mlp.gate_proj.weight"].T) * (h @ w[p + "mlp.up_proj.weight"].T)) @ \
            w[p + "mlp.down_proj.weight"].T
        events.append(("ffn", "decoder.layers.%d.ffn" % i, f))
        x = x + f
    events.append(("norm", "decoder.output.bias", x, w["model.norm.weight"], None, eps))
    logits = rms(x, w["model.norm.weight"]) @ w["lm_head.weight"].T
    return events, logits, (w["lm_head.weight"], None, None)


# ---------------------------------------------------------------------------------------------------------------
# Marian: post-LN encoder-decoder, sinusoids in halves, √C-scaled tied embeddings, no final norm, final_logits_bias
# ---------------------------------------------------------------------------------------------------------------

def marian_positions(T, C):
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    j = torch.arange(C, dtype=torch.float64)[None]
    enc = pos / torch.pow(10000.0, 2 * torch.div(j, 2, rounding_mode="floor") / C)
    half = (C + 1) // 2
    out = torch.zeros(T, C, dtype=torch.float64)
    out[:, :half] = torch.sin(enc[:, 0::2])
    out[:, half:] = torch.cos(enc[:, 1::2])
    return out.float().double()  # stored float32 by the model


def no_probe(piece, layer, x):
    """The identity at every piece: make_patching_golden.py passes a probe that records, replaces or differentiates."""
    return x


def marian_attention(w, p, xq, xkv, H, causal, on_heads=lambda ctx: ctx):
    C = xq.shape[1]
    D = C // H
    q = split_heads((xq @ w[p + "q_proj.weight"].T + w[p + "q_proj.bias"]) * D ** -0.5, H)
    k = split_heads(xkv @ w[p + "k_proj.weight"].T + w[p + "k_proj.bias"], H)
    v = split_heads(xkv @ w[p + "v_proj.weight"].T + w[p + "v_proj.bias"], H)
    scores = q @ k.transpose(1, 2)
    att = causal_softmax(scores) if causal else torch.softmax(scores, -1)
    ctx = on_heads(att @ v)  # (H, Tq, D)
    out = ctx.transpose(0, 1).reshape(xq.shape[0], C) @ w[p + "out_proj.weight"].T + w[p + "out_proj.bias"]
    return out, att, v


def marian_run(folder, src, tgt, at=no_probe):
    cfg = json.load(open(os.path.join(folder, "config.json")))
    _, w = read_tensors(os.path.join(folder, "model.safetensors"))
    C, eps = cfg["d_model"], 1e-5
    scale = math.sqrt(C) if cfg["scale_embedding"] else 1.0
    act = F.silu if cfg["activation_function"] == "swish" else F.relu
    shared = w["model.shared.weight"]

    def ln(x, p):
        return layer_norm(x, w[p + ".weight"], w[p + ".bias"], eps)

    def ffn(x, p):
        return act(x @ w[p + "fc1.weight"].T + w[p + "fc1.bias"]) @ w[p + "fc2.weight"].T + w[p + "fc2.bias"]

    x = shared[src] * scale + marian_positions(len(src), C)
    for i in range(cfg["encoder_layers"]):
        p = "model.encoder.layers.%d." % i
        x = at("enc-residual", i, x)
        a, _, _ = marian_attention(w, p + "self_attn.", x, x, cfg["encoder_attention_heads"], False,
                                   lambda ctx, _i=i: at("enc-heads", _i, ctx))
        x = ln(x + at("enc-attn-out", i, a), p + "self_attn_layer_norm")
        x = ln(x + at("enc-ffn-out", i, ffn(x, p)), p + "final_layer_norm")
    memory = x
    H = cfg["decoder_attention_heads"]
    x = shared[tgt] * scale + marian_positions(len(tgt), C)
    events = [("embed", x.clone())]
    for i in range(cfg["decoder_layers"]):
        p = "model.decoder.layers.%d." % i
        name = "decoder.layers.%d." % i
        sublayers = [("self_attn", "self_attn", "self_attn_layer_norm", "heads", "attn-out"),
                     ("cross_attn", "encoder_attn", "encoder_attn_layer_norm", "cross-heads", "cross-out")]
        x = at("residual", i, x)
        for k, (ours, theirs, norm, heads, out) in enumerate(sublayers):
            kv = x if ours == "self_attn" else memory
            a, att, v = marian_attention(w, p + theirs + ".", x, kv, H, ours == "self_attn",
                                         lambda ctx, _i=i, _h=heads: at(_h, _i, ctx))
            a = at(out, i, a)
            events.append(("attn", name + ours, att, v, w[p + theirs + ".out_proj.weight"],
                           w[p + theirs + ".out_proj.bias"]))
            x = x + a
            events.append(("norm", name + "norm%d.bias" % (k + 1), x, w[p + norm + ".weight"], w[p + norm + ".bias"],
                           eps))
            x = ln(x, p + norm)
        f = at("ffn-out", i, ffn(x, p))
        events.append(("ffn", name + "ffn", f))
        x = x + f
        events.append(("norm", name + "norm3.bias", x, w[p + "final_layer_norm.weight"],
                       w[p + "final_layer_norm.bias"], eps))
        x = ln(x, p + "final_layer_norm")
    bias = w["final_logits_bias"][0]
    logits = x @ shared.T + bias
    return events, logits, (shared, bias, "final_logits_bias")


# ---------------------------------------------------------------------------------------------------------------
# BERT: the embeddings' LayerNorm, post-LN encoder layers over key padding, erf GELU, the MLM head (dense, GELU,
# LayerNorm, the tied decoder and cls.predictions.bias)
# ---------------------------------------------------------------------------------------------------------------

def bert_run(folder, ids, types, at=no_probe):
    cfg = json.load(open(os.path.join(folder, "config.json")))
    _, w = read_tensors(os.path.join(folder, "model.safetensors"))
    C, H, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    D = C // H
    T = len(ids)

    def ln(x, p):
        return layer_norm(x, w[p + ".weight"], w[p + ".bias"], eps)

    def dense(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    e = "bert.embeddings."
    x = ln(w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][:T] +
           w[e + "token_type_embeddings.weight"][types], e + "LayerNorm")
    events = [("embed", x.clone())]
    padded = torch.tensor([i == cfg["pad_token_id"] for i in ids])
    for i in range(cfg["num_hidden_layers"]):
        p = "bert.encoder.layer.%d." % i
        name = "encoder.layers.%d." % i
        x = at("residual", i, x)
        q, k, v = (split_heads(dense(x, p + "attention.self." + n), H) for n in ("query", "key", "value"))
        att = torch.softmax((q @ k.transpose(1, 2) / math.sqrt(D)).masked_fill(padded, float("-inf")), -1)
        ctx = at("heads", i, att @ v).transpose(0, 1).reshape(T, C)
        a = at("attn-out", i, dense(ctx, p + "attention.output.dense"))
        events.append(("attn", name + "self_attn", att, v, w[p + "attention.output.dense.weight"],
                       w[p + "attention.output.dense.bias"]))
        x = x + a
        events.append(("norm", name + "norm1.bias", x, w[p + "attention.output.LayerNorm.weight"],
                       w[p + "attention.output.LayerNorm.bias"], eps))
        x = ln(x, p + "attention.output.LayerNorm")
        f = at("ffn-out", i, dense(F.gelu(dense(x, p + "intermediate.dense")), p + "output.dense"))
        events.append(("ffn", name + "ffn", f))
        x = x + f
        events.append(("norm", name + "norm2.bias", x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"],
                       eps))
        x = ln(x, p + "output.LayerNorm")
    h = "cls.predictions.transform."
    t = dense(x, h + "dense")
    a = F.gelu(t)
    events.append(("transform", "head.transform.bias", w[h + "dense.weight"], w[h + "dense.bias"], t, a, 0.5))
    events.append(("norm", "head.norm.bias", a, w[h + "LayerNorm.weight"], w[h + "LayerNorm.bias"], eps))
    bias = w["cls.predictions.bias"]
    logits = ln(a, h + "LayerNorm") @ w[e + "word_embeddings.weight"].T + bias
    return events, logits, (w[e + "word_embeddings.weight"], bias, "cls.predictions.bias")


# ---------------------------------------------------------------------------------------------------------------
# ours: torch.nn.Transformer (make_golden.LabModel) run with hooks on the decoder's modules
# ---------------------------------------------------------------------------------------------------------------

def ours_run(path, src, tgt):
    meta, w = read_tensors(path)
    cfg = json.loads(meta["config"])
    model = LabModel(cfg)
    model.load_state_dict({k: v.float() for k, v in w.items()}, strict=True)
    model.double()
    events = []
    handles = []
    wrapped = []
    H = cfg["n_heads"]
    C = cfg["d_model"]

    def on_decoder_input(module, args):
        events.append(("embed", args[0][0].detach().clone()))
    handles.append(model.decoder.register_forward_pre_hook(on_decoder_input))
    for name, m in model.decoder.named_modules():
        full = "decoder." + name
        if isinstance(m, nn.MultiheadAttention):
            ours = full.replace("multihead_attn", "cross_attn")
            orig = m.forward

            def fwd(query, key, value, _m=m, _orig=orig, _name=ours, **kwargs):
                kwargs["need_weights"] = True
                kwargs["average_attn_weights"] = False
                out = _orig(query, key, value, **kwargs)
                w_v = _m.in_proj_weight[2 * C:]
                b_v = _m.in_proj_bias[2 * C:]
                v = split_heads(value[0] @ w_v.T + b_v, H).detach()  # (H, Tk, D)
                events.append(("attn", _name, out[1][0].detach().clone(), v, _m.out_proj.weight.detach(),
                               _m.out_proj.bias.detach()))
                return out
            m.forward = fwd
            wrapped.append(m)
        elif isinstance(m, nn.LayerNorm) and (not cfg["norm_first"] or name == "norm"):
            bias_name = "decoder.output.bias" if name == "norm" else full + ".bias"

            def on_norm(module, args, _b=bias_name):
                events.append(("norm", _b, args[0][0].detach().clone(), module.weight.detach(), module.bias.detach(),
                               module.eps))
            handles.append(m.register_forward_pre_hook(on_norm))
        elif isinstance(m, nn.Linear) and name.endswith("linear2"):
            ffn_name = full.replace("linear2", "ffn")

            def on_ffn(module, args, out, _n=ffn_name):
                events.append(("ffn", _n, out[0].detach().clone()))
            handles.append(m.register_forward_hook(on_ffn))
    out = torch_forward(model, cfg, src, tgt)
    for h in handles:
        h.remove()
    for m in wrapped:
        del m.forward
    g = model.generator
    return events, out["logits"].double(), (g.weight.detach(), g.bias.detach(), "generator.bias")


# ---------------------------------------------------------------------------------------------------------------

CASES = [
    # (case, fixture, family, metric)
    ("gpt2", "hf_gpt2", "gpt2", "logit:4@3"),
    ("gpt2_diff", "hf_gpt2", "gpt2", "logit-diff:7,23@8"),
    ("llama", "hf_llama", "llama", "logit:17@5"),
    ("post_ln", "post_ln_relu", "ours", "logit:7@2"),
    ("pre_ln", "pre_ln_gelu", "ours", "logit-diff:9,6@3"),
    ("marian", "hf_marian", "marian", "logit:21@3"),
    ("bert", "hf_bert", "bert", "logit-diff:17,31@1"),
]


def expected_of(fixture):
    folder = os.path.join(FIXTURES, fixture)
    path = os.path.join(folder, "expected.safetensors") if os.path.isdir(folder) else folder + ".expected.safetensors"
    meta, t = read_tensors(path)
    return json.loads(meta["src_ids"]), json.loads(meta["tgt_ids"]), json.loads(meta.get("src_token_types", "[]")), \
        t["logits"]


def run_case(case, fixture, family, spec):
    src, tgt, types, want_logits = expected_of(fixture)
    folder = os.path.join(FIXTURES, fixture)
    with torch.enable_grad():
        if family == "gpt2":
            events, logits, head = gpt2_run(folder, tgt)
        elif family == "llama":
            events, logits, head = llama_run(folder, tgt)
        elif family == "bert":
            events, logits, head = bert_run(folder, src, types)
        elif family == "marian":
            events, logits, head = marian_run(folder, src, tgt)
        else:
            events, logits, head = ours_run(folder + ".model.safetensors", src, tgt)
    logits = logits.detach()
    diff = float((logits - want_logits).abs().max())
    if diff > TOL:
        fail("%s: this forward's logits differ from %s's expected ones by %.3g" % (case, fixture, diff))
    u, out_bias, pos = unembedding(head[0].detach(), None if head[1] is None else head[1].detach(), head[2], spec)
    shares = attribute(events, pos, u, out_bias)
    total = sum(shares.values())
    metric = metric_of(logits, spec)
    if abs(total - metric) > 1e-9 * max(1.0, abs(metric)):
        fail("%s: the shares sum to %.12g, the metric is %.12g" % (case, total, metric))
    print("%-10s %-18s %-14s %4d components, total %.6f (logits max diff %.2g)" %
          (case, fixture, spec, len(shares), total, diff))
    return {"case": case, "fixture": fixture, "src_ids": src, "src_token_types": types, "tgt_ids": tgt, "metric": spec, "total": total, "metric_from_logits": metric, "components": shares}


def main():
    torch.set_default_dtype(torch.float64)
    cases = [run_case(*c) for c in CASES]
    path = os.path.join(FIXTURES, "attribution.json")
    with open(path, "w") as f:
        json.dump({"description": "direct logit attribution by make_attribution_golden.py (float64 PyTorch)",
                   "cases": cases}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
