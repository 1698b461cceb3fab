#!/usr/bin/python3
"""Activation patching and attribution patching oracle for `attnlab-cli patch` / core/analysis/activation_patching.

For GPT-2, Llama (hf_gpt2, hf_llama: this script's own float64 forwards, the same definitions as
make_attribution_golden.py's, checked against the fixtures' expected logits), Marian and BERT (hf_marian, hf_bert:
make_attribution_golden.marian_run and bert_run, given this script's probe) and our post-LN and pre-LN families
(make_golden.LabModel, torch.nn.Transformer, run with hooks on the encoder's and decoder's modules), on a clean
and a corrupted input of the same length (decoder-only: the prompt; encoder-decoder and BERT: the source, one
target):

  exact      the corrupted forward with ONE piece replaced by the clean forward's value, and the metric read off
             its logits, for every cell of the grid:
               residual      the stream entering layer l at position p (l = 0: the embeddings)        L × T
               attn-out      the self-attention's output after W_O, before the residual add          L × T
               ffn-out       the FFN's output, before the residual add                                L × T
               heads         head h's weights·V, before W_O, at every position (not ours)             L × H
               enc-residual, enc-attn-out, enc-ffn-out: the same of the encoder, at each source position
               enc-heads     the encoder's heads (Marian)                                             L × H
               cross-out     the cross-attention's output after W_O, before the residual add         L × T
               cross-heads   the cross-attention's heads' weights·V (Marian)                          L × H
  gradient   metric(corrupt) + Σ (clean − corrupt) · ∂metric/∂piece over the cell's entries, by autograd at the
             corrupted run (a zero tensor added at each piece, whose gradient is the piece's).
The metrics: logit:A@POS, logit-diff:A,B@POS and prob:A@POS = softmax(logits[POS])[A]; BERT's is the masked-token
metric, a logit at the masked position (position 1, the one fixtures/hf_bert/grads.safetensors's loss predicts).

Writes fixtures/patching.json: per case the fixture, clean and corrupted ids (BERT: its token types), metric,
piece, the clean and corrupted metric, values[layer][cell] and gradient[layer][cell].

    /usr/bin/python3 tests/golden/make_patching_golden.py
"""
import json
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail  # noqa: E402
from make_attribution_golden import (bert_run, causal_softmax, expected_of, layer_norm, marian_run,  # noqa: E402
                                     read_tensors, split_heads)
from make_golden import PAD, LabModel, causal_mask, torch_embed  # noqa: E402

TOL = 1e-4
PIECES = ("residual", "attn-out", "ffn-out", "heads", "enc-residual", "enc-attn-out", "enc-ffn-out", "enc-heads",
          "cross-out", "cross-heads")


class Probe:
    """What one forward does at each piece: records its value, replaces one cell, or adds a zero leaf."""

    def __init__(self, patch=None, leaves=False):
        self.record = {p: {} for p in PIECES}
        self.patch = patch  # (piece, layer, cell, value of the cell)
        self.leaves = {p: {} for p in PIECES} if leaves else None

    def at(self, piece, layer, x):  # x (T, C) or heads (H, T, D)
        if self.patch and self.patch[0] == piece and self.patch[1] == layer:
            x = x.clone()
            x[self.patch[2]] = self.patch[3]
        if self.leaves is not None:
            zero = torch.zeros_like(x, requires_grad=True)
            self.leaves[piece][layer] = zero
            x = x + zero
        self.record[piece][layer] = x.detach().clone()
        return x


# GPT-2 and Llama: make_attribution_golden.py's forwards with the probe at each piece

def gpt2_forward(w, cfg, ids, probe):
    C, H, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    D = C // H
    T = len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    for i in range(cfg["n_layer"]):
        p = "h.%d." % i
        x = probe.at("residual", i, x)
        h = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = (split_heads(t, H) for t in qkv.split(C, dim=1))
        att = causal_softmax(q @ k.transpose(1, 2) / math.sqrt(D))
        ctx = probe.at("heads", i, att @ v).transpose(0, 1).reshape(T, C)
        a = probe.at("attn-out", i, ctx @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"])
        x = x + a
        h = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = F.gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"], approximate="tanh")
        x = x + probe.at("ffn-out", i, m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"])
    return layer_norm(x, w["ln_f.weight"], w["ln_f.bias"], eps) @ w["wte.weight"].T


def llama_forward(w, cfg, ids, probe):
    C, H, H_kv, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["rms_norm_eps"]
    D = C // H
    T = len(ids)
    theta = cfg.get("rope_theta", 10000.0)
    inv_freq = 1.0 / theta ** (torch.arange(0, D, 2, dtype=torch.float64) / D)
    ang = torch.arange(T, dtype=torch.float64)[:, None] * inv_freq[None]
    cos, sin = torch.cat([ang.cos(), ang.cos()], -1), torch.cat([ang.sin(), ang.sin()], -1)

    def rope(t):
        half = torch.cat([-t[..., D // 2:], t[..., :D // 2]], -1)
        return t * cos + half * sin

    def rms(x, g):
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * g

    x = w["model.embed_tokens.weight"][ids]
    for i in range(cfg["num_hidden_layers"]):
        p = "model.layers.%d." % i
        x = probe.at("residual", i, x)
        h = rms(x, w[p + "input_layernorm.weight"])
        q = rope(split_heads(h @ w[p + "self_attn.q_proj.weight"].T, H))
        k = rope(split_heads(h @ w[p + "self_attn.k_proj.weight"].T, H_kv))
        v = split_heads(h @ w[p + "self_attn.v_proj.weight"].T, H_kv)
        rep = H // H_kv
        att = causal_softmax(q @ k.repeat_interleave(rep, 0).transpose(1, 2) / math.sqrt(D))
        ctx = probe.at("heads", i, att @ v.repeat_interleave(rep, 0)).transpose(0, 1).reshape(T, H * D)
        x = x + probe.at("attn-out", i, ctx @ w[p + "self_attn.o_proj.weight"].T)
        h = rms(x, w[p + "post_attention_layernorm.weight"])
        f = (F.silu(h @ w[p + "mlp.gate_proj.weight"].T) * (h @ w[p + "mlp.up_proj.weight"].T)) @ \
            w[p + "mlp.down_proj.weight"].T
        x = x + probe.at("ffn-out", i, f)
    return rms(x, w["model.norm.weight"]) @ w["lm_head.weight"].T


def hf_runner(fixture, family, types):
    """run(src, tgt, probe) -> logits (T, V), and the layers of each stack: {"decoder": L, "encoder": L_enc}."""
    folder = os.path.join(FIXTURES, fixture)
    cfg = json.load(open(os.path.join(folder, "config.json")))
    if family == "marian":
        return (lambda src, tgt, probe: marian_run(folder, src, tgt, probe.at)[1]), \
            {"decoder": cfg["decoder_layers"], "encoder": cfg["encoder_layers"]}
    if family == "bert":  # encoder-only: its pieces are the unprefixed ones
        return (lambda src, tgt, probe: bert_run(folder, src, types, probe.at)[1]), \
            {"decoder": cfg["num_hidden_layers"]}
    _, w = read_tensors(os.path.join(folder, "model.safetensors"))
    forward = gpt2_forward if family == "gpt2" else llama_forward
    n_layers = cfg["n_layer"] if family == "gpt2" else cfg["num_hidden_layers"]

    def run(src, tgt, probe):
        return forward(w, cfg, tgt, probe)
    return run, {"decoder": n_layers}


# ours: the decoder of torch.nn.Transformer with hooks (batch first: the batch's one sequence is [0])

def ours_runner(fixture):
    meta, w = read_tensors(os.path.join(FIXTURES, fixture + ".model.safetensors"))
    cfg = json.loads(meta["config"])
    model = LabModel(cfg)
    model.load_state_dict({k: v.float() for k, v in w.items()}, strict=True)
    model.double()
    if cfg["arch"] != "encoder_decoder":
        fail(fixture + ": the ours runner takes an encoder-decoder")

    def run(src, tgt, probe):
        handles = []
        for prefix, layers in (("", model.decoder.layers), ("enc-", model.encoder.layers)):
            for i, layer in enumerate(layers):
                def pre(module, args, _i=i, _p=prefix):
                    return (probe.at(_p + "residual", _i, args[0][0])[None],) + tuple(args[1:])

                def attn(module, args, out, _i=i, _piece=prefix + "attn-out"):
                    return (probe.at(_piece, _i, out[0][0])[None],) + tuple(out[1:])

                def ffn(module, args, out, _i=i, _p=prefix):
                    return probe.at(_p + "ffn-out", _i, out[0])[None]
                handles += [layer.register_forward_pre_hook(pre), layer.self_attn.register_forward_hook(attn),
                            layer.linear2.register_forward_hook(ffn)]
                if not prefix:
                    handles.append(layer.multihead_attn.register_forward_hook(
                        lambda module, args, out, _i=i: (probe.at("cross-out", _i, out[0][0])[None],) + tuple(out[1:])))
        try:  # make_golden.torch_forward's encoder-decoder path, without its detach
            s_ids, t_ids = torch.tensor([src]), torch.tensor([tgt])
            memory = model.encoder(torch_embed(model, cfg, model.src_embed, s_ids), src_key_padding_mask=s_ids == PAD)
            dec = model.decoder(torch_embed(model, cfg, model.tgt_embed, t_ids), memory,
                                tgt_mask=causal_mask(t_ids.shape[1]), tgt_key_padding_mask=t_ids == PAD,
                                memory_key_padding_mask=s_ids == PAD)
            return model.generator(dec)[0].double()
        finally:
            for h in handles:
                h.remove()
    return run, {"decoder": len(model.decoder.layers), "encoder": len(model.encoder.layers)}


def grid(run, n_layers, src, tgt, c_src, c_tgt, spec, piece):
    clean_probe = Probe()
    clean_logits = run(src, tgt, clean_probe).detach()
    base = Probe(leaves=True)
    m = logits_metric(run(c_src, c_tgt, base), spec)
    m.backward()
    corrupt = float(m)
    values, gradient = [], []
    for layer in range(n_layers):
        clean_x, corrupt_x = clean_probe.record[piece][layer], base.record[piece][layer]
        g = base.leaves[piece][layer].grad
        if g is None:  # the piece does not reach the metric
            g = torch.zeros_like(corrupt_x)
        cells = clean_x.shape[0]
        row, grow = [], []
        for c in range(cells):
            patched = run(c_src, c_tgt, Probe(patch=(piece, layer, c, clean_x[c]))).detach()
            row.append(float(logits_metric(patched, spec)))
            grow.append(corrupt + float(((clean_x[c] - corrupt_x[c]) * g[c]).sum()))
        values.append(row)
        gradient.append(grow)
    return float(logits_metric(clean_logits, spec)), corrupt, values, gradient


def logits_metric(logits, spec):
    kind, rest = spec.split(":")
    tokens, pos = rest.split("@")
    pos = int(pos)
    if kind == "logit":
        return logits[pos, int(tokens)]
    if kind == "prob":
        return torch.softmax(logits[pos], -1)[int(tokens)]
    a, b = (int(t) for t in tokens.split(","))
    return logits[pos, a] - logits[pos, b]


DECODER = PIECES[:4]
MARIAN = PIECES
OURS = ("residual", "attn-out", "ffn-out", "enc-residual", "enc-attn-out", "enc-ffn-out", "cross-out")
CASES = [
    # (case, fixture, family, metric, the corrupted sequence: (position, id) replaced, pieces)
    ("gpt2", "hf_gpt2", "gpt2", "logit-diff:7,23@8", (2, 11), DECODER),
    ("gpt2_logit", "hf_gpt2", "gpt2", "logit:7@8", (2, 11), ("residual", "heads")),
    ("gpt2_prob", "hf_gpt2", "gpt2", "prob:37@8", (2, 11), ("residual", "heads")),
    ("llama", "hf_llama", "llama", "logit-diff:17,3@5", (1, 40), DECODER),
    ("post_ln", "post_ln_relu", "ours", "logit-diff:7,3@2", (1, 9), OURS),
    ("pre_ln", "pre_ln_gelu", "ours", "logit:9@3", (2, 10), OURS),
    ("marian", "hf_marian", "marian", "logit-diff:21,8@3", (2, 40), MARIAN),
    ("marian_logit", "hf_marian", "marian", "logit:21@3", (2, 40), ("enc-residual", "cross-heads")),
    ("marian_prob", "hf_marian", "marian", "prob:141@3", (2, 40), ("enc-heads", "cross-out", "residual")),
    ("bert", "hf_bert", "bert", "logit:25@1", (2, 40), DECODER),
    ("bert_prob", "hf_bert", "bert", "prob:25@1", (2, 40), ("residual",)),
]


def main():
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(True)
    out = []
    for case, fixture, family, spec, (pos, new_id), pieces in CASES:
        src, tgt, types, want_logits = expected_of(fixture)
        run, n_layers = hf_runner(fixture, family, types) if family != "ours" else ours_runner(fixture)
        diff = float((run(src, tgt, Probe()).detach() - want_logits).abs().max())
        if diff > TOL:
            fail("%s: this forward's logits differ from %s's expected ones by %.3g" % (case, fixture, diff))
        c_src, c_tgt = list(src), list(tgt)
        seq = c_tgt if family in ("gpt2", "llama") else c_src
        seq[pos] = new_id
        for piece in pieces:
            layers = n_layers["encoder" if piece.startswith("enc-") else "decoder"]
            clean, corrupt, values, gradient = grid(run, layers, src, tgt, c_src, c_tgt, spec, piece)
            if all(v == corrupt for row in values for v in row):
                fail("%s %s: no cell moves the metric (is the piece hooked?)" % (case, piece))
            print("%-12s %-12s %-18s clean %.6f corrupt %.6f (logits max diff %.2g)" %
                  (case, piece, spec, clean, corrupt, diff))
            out.append({"case": case, "fixture": fixture, "metric": spec, "piece": piece,
                        "src_ids": src, "src_token_types": types, "tgt_ids": tgt, "corrupt_src_ids": c_src,
                        "corrupt_tgt_ids": c_tgt, "clean": clean, "corrupt": corrupt, "values": values,
                        "gradient": gradient})
    path = os.path.join(FIXTURES, "patching.json")
    with open(path, "w") as f:
        json.dump({"description": "activation and attribution patching by make_patching_golden.py (float64 PyTorch)",
                   "cases": out}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
