#!/usr/bin/python3
"""Golden-fixture generator for Attention Lab (PyTorch oracle).

For each case: builds a tiny random model with torch.nn, writes it as
`<case>.model.safetensors` (project model format: torch state_dict names,
config JSON in __metadata__["config"]), runs it, and writes the expected
outputs (logits, per-head attention weights, stack outputs) to
`<case>.expected.safetensors`.

Every case is also checked against an independent float64 plain-tensor
reference forward (matmul / softmax / layer norm written out by hand);
the script exits non-zero if anything disagrees by more than 1e-5.

Needs Debian's python3-torch:  /usr/bin/python3 tests/golden/make_golden.py
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
from hf_fixture_io import read_safetensors, whole_f32, write_safetensors  # noqa: E402

OUT_DIR = os.path.join(HERE, "fixtures")
TOL = 1e-5

PAD, SOS, EOS, UNK = 0, 1, 2, 3
FIRST_WORD = 4  # ids 0..3 are special

CONFIG_KEYS = [
    "arch", "d_model", "n_heads", "n_encoder_layers", "n_decoder_layers", "d_ff",
    "activation", "norm_first", "final_norm", "positional", "max_len",
    "scale_embedding", "tie_embeddings", "layer_norm_eps", "src_vocab_size",
    "tgt_vocab_size", "pad_id", "sos_id", "eos_id", "unk_id",
]


# ----------------------------------------------------------------------------
# model construction
# ----------------------------------------------------------------------------

def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def torch_activation(name):
    return {"relu": "relu", "gelu": "gelu", "gelu_tanh": gelu_tanh}[name]


def make_config(arch, d_model=16, n_heads=2, n_enc=2, n_dec=2, d_ff=32,
                activation="relu", norm_first=False, final_norm=True,
                positional="sinusoidal", max_len=16, scale_embedding=True,
                tie_embeddings=False, src_vocab=13, tgt_vocab=11):
    if arch == "encoder_only":
        n_dec, tgt_vocab = 0, src_vocab
    elif arch == "decoder_only":
        n_enc, src_vocab = 0, tgt_vocab
    cfg = {
        "arch": arch, "d_model": d_model, "n_heads": n_heads,
        "n_encoder_layers": n_enc, "n_decoder_layers": n_dec, "d_ff": d_ff,
        "activation": activation, "norm_first": norm_first,
        "final_norm": final_norm, "positional": positional, "max_len": max_len,
        "scale_embedding": scale_embedding, "tie_embeddings": tie_embeddings,
        "layer_norm_eps": 1e-5, "src_vocab_size": src_vocab,
        "tgt_vocab_size": tgt_vocab, "pad_id": PAD, "sos_id": SOS,
        "eos_id": EOS, "unk_id": UNK,
    }
    assert list(cfg) == CONFIG_KEYS
    return cfg


def enc_layer(cfg):
    return nn.TransformerEncoderLayer(
        cfg["d_model"], cfg["n_heads"], cfg["d_ff"], dropout=0.0,
        activation=torch_activation(cfg["activation"]),
        layer_norm_eps=cfg["layer_norm_eps"], batch_first=True,
        norm_first=cfg["norm_first"])


def final_ln(cfg):
    return nn.LayerNorm(cfg["d_model"], eps=cfg["layer_norm_eps"]) if cfg["final_norm"] else None


class LabModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        C = cfg["d_model"]
        arch = cfg["arch"]
        if arch in ("encoder_decoder", "encoder_only"):
            self.src_embed = nn.Embedding(cfg["src_vocab_size"], C)
        if arch in ("encoder_decoder", "decoder_only"):
            self.tgt_embed = nn.Embedding(cfg["tgt_vocab_size"], C)
        if cfg["positional"] == "learned":
            self.pos_embed = nn.Embedding(cfg["max_len"], C)
        if arch == "encoder_decoder":
            t = nn.Transformer(
                C, cfg["n_heads"], cfg["n_encoder_layers"], cfg["n_decoder_layers"],
                cfg["d_ff"], dropout=0.0, activation=torch_activation(cfg["activation"]),
                layer_norm_eps=cfg["layer_norm_eps"], batch_first=True,
                norm_first=cfg["norm_first"])
            self.encoder = t.encoder
            self.decoder = t.decoder
            if not cfg["final_norm"]:
                self.encoder.norm = None
                self.decoder.norm = None
        elif arch == "encoder_only":
            self.encoder = nn.TransformerEncoder(enc_layer(cfg), cfg["n_encoder_layers"],
                                                 norm=final_ln(cfg), enable_nested_tensor=False)
        elif arch == "decoder_only":
            self.decoder = nn.TransformerEncoder(enc_layer(cfg), cfg["n_decoder_layers"],
                                                 norm=final_ln(cfg), enable_nested_tensor=False)
        else:
            raise ValueError(arch)
        self.generator = nn.Linear(C, cfg["tgt_vocab_size"], bias=True)
        if cfg["tie_embeddings"]:
            self.generator.weight = (self.src_embed if arch == "encoder_only"
                                     else self.tgt_embed).weight


def randomize_(model):
    """Make every LayerNorm gain/bias and every attention bias non-trivial."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.LayerNorm):
                m.weight.copy_(1.0 + 0.2 * torch.randn_like(m.weight))
                m.bias.copy_(0.1 * torch.randn_like(m.bias))
            elif isinstance(m, nn.MultiheadAttention):
                m.in_proj_bias.copy_(0.1 * torch.randn_like(m.in_proj_bias))
                m.out_proj.bias.copy_(0.1 * torch.randn_like(m.out_proj.bias))
        for m in model.modules():
            if isinstance(m, nn.Embedding):
                m.weight.copy_(torch.randn_like(m.weight))


def model_tensors(model, cfg):
    sd = model.state_dict()
    items = []
    for k, v in sd.items():
        if cfg["tie_embeddings"] and k == "generator.weight":
            continue
        items.append((k, v))
    return items


# ----------------------------------------------------------------------------
# torch forward (the oracle) with attention-weight capture
# ----------------------------------------------------------------------------

def sinusoidal_pe(length, C):
    pos = np.arange(length, dtype=np.float64)[:, None]
    i2 = np.arange(0, C, 2, dtype=np.float64)[None, :]
    ang = pos / np.power(10000.0, i2 / C)
    pe = np.zeros((length, C), dtype=np.float64)
    pe[:, 0::2] = np.sin(ang)
    pe[:, 1::2] = np.cos(ang)
    return pe


def causal_mask(T):
    # True = not allowed to attend (strictly above the diagonal)
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)


def install_capture(model, cfg):
    """Wrap every MultiheadAttention.forward so it records per-head weights."""
    records = {}
    wrapped = []
    for name, m in model.named_modules():
        if not isinstance(m, nn.MultiheadAttention):
            continue
        out_name = name.replace("multihead_attn", "cross_attn") + ".weights"
        orig = m.forward

        def fwd(*args, _orig=orig, _name=out_name, **kwargs):
            kwargs["need_weights"] = True
            kwargs["average_attn_weights"] = False
            out = _orig(*args, **kwargs)
            records[_name] = out[1].detach()[0].clone()  # (H, Tq, Tk)
            return out

        m.forward = fwd
        wrapped.append(m)

    def uninstall():
        for m in wrapped:
            del m.forward  # back to the class method
    return records, uninstall


def torch_embed(model, cfg, table, ids):
    C = cfg["d_model"]
    x = table(ids)
    if cfg["scale_embedding"]:
        x = x * math.sqrt(C)
    L = ids.shape[1]
    if cfg["positional"] == "sinusoidal":
        x = x + torch.from_numpy(sinusoidal_pe(L, C)).float()
    elif cfg["positional"] == "learned":
        x = x + model.pos_embed(torch.arange(L))[None]
    return x


def torch_forward(model, cfg, src_ids, tgt_ids):
    """Returns dict with logits, encoder.output / decoder.output (batch dim removed).

    Run with grad enabled and parameters requiring grad so that torch's
    inference fast path (which zeroes padded rows) is never taken.
    """
    assert torch.is_grad_enabled()
    arch = cfg["arch"]
    out = {}
    if arch == "encoder_decoder":
        src = torch.tensor([src_ids]); tgt = torch.tensor([tgt_ids])
        src_pad = src == PAD; tgt_pad = tgt == PAD
        memory = model.encoder(torch_embed(model, cfg, model.src_embed, src),
                               src_key_padding_mask=src_pad)
        dec = model.decoder(torch_embed(model, cfg, model.tgt_embed, tgt), memory,
                            tgt_mask=causal_mask(tgt.shape[1]),
                            tgt_key_padding_mask=tgt_pad,
                            memory_key_padding_mask=src_pad)
        out["encoder.output"] = memory[0]
        out["decoder.output"] = dec[0]
        out["logits"] = model.generator(dec)[0]
    elif arch == "encoder_only":
        src = torch.tensor([src_ids])
        enc = model.encoder(torch_embed(model, cfg, model.src_embed, src),
                            src_key_padding_mask=src == PAD)
        out["encoder.output"] = enc[0]
        out["logits"] = model.generator(enc)[0]
    else:
        tgt = torch.tensor([tgt_ids])
        dec = model.decoder(torch_embed(model, cfg, model.tgt_embed, tgt),
                            mask=causal_mask(tgt.shape[1]),
                            src_key_padding_mask=tgt == PAD)
        out["decoder.output"] = dec[0]
        out["logits"] = model.generator(dec)[0]
    return {k: v.detach().clone() for k, v in out.items()}


# ----------------------------------------------------------------------------
# independent float64 reference (plain tensors, state_dict only)
# ----------------------------------------------------------------------------

def ref_layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def ref_act(x, name):
    if name == "relu":
        return torch.clamp(x, min=0.0)
    if name == "gelu":
        return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))
    if name == "gelu_tanh":
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    raise ValueError(name)


def ref_mha(p, pre, xq, xkv, H, blocked):
    """xq (Tq,C), xkv (Tk,C), blocked (Tq,Tk) bool, True = masked out."""
    C = xq.shape[1]; hd = C // H
    W = p[pre + ".in_proj_weight"]; b = p[pre + ".in_proj_bias"]
    q = xq @ W[:C].T + b[:C]
    k = xkv @ W[C:2 * C].T + b[C:2 * C]
    v = xkv @ W[2 * C:].T + b[2 * C:]
    q = q.reshape(-1, H, hd).transpose(0, 1)   # H,Tq,hd
    k = k.reshape(-1, H, hd).transpose(0, 1)
    v = v.reshape(-1, H, hd).transpose(0, 1)
    s = (q @ k.transpose(1, 2)) / math.sqrt(hd)
    s = s.masked_fill(blocked[None], float("-inf"))
    s = s - s.max(-1, keepdim=True).values
    e = torch.exp(s)
    a = e / e.sum(-1, keepdim=True)
    o = (a @ v).transpose(0, 1).reshape(-1, C)
    o = o @ p[pre + ".out_proj.weight"].T + p[pre + ".out_proj.bias"]
    return o, a


def ref_ff(p, pre, x, act):
    h = ref_act(x @ p[pre + ".linear1.weight"].T + p[pre + ".linear1.bias"], act)
    return h @ p[pre + ".linear2.weight"].T + p[pre + ".linear2.bias"]


def ref_forward(p, cfg, src_ids, tgt_ids):
    C, H, eps = cfg["d_model"], cfg["n_heads"], cfg["layer_norm_eps"]
    act, pre_ln = cfg["activation"], cfg["norm_first"]
    ln = lambda x, name: ref_layer_norm(x, p[name + ".weight"], p[name + ".bias"], eps)
    out, attn = {}, {}

    def embed(table, ids):
        x = p[table][torch.tensor(ids)]
        if cfg["scale_embedding"]:
            x = x * math.sqrt(C)
        if cfg["positional"] == "sinusoidal":
            x = x + torch.from_numpy(sinusoidal_pe(len(ids), C)).to(x.dtype)
        elif cfg["positional"] == "learned":
            x = x + p["pos_embed.weight"][: len(ids)]
        return x

    def self_block(stack, i, x, blocked):
        L = "%s.layers.%d" % (stack, i)
        if pre_ln:
            o, a = ref_mha(p, L + ".self_attn", ln(x, L + ".norm1"), ln(x, L + ".norm1"), H, blocked)
            x = x + o
            x = x + ref_ff(p, L, ln(x, L + ".norm2"), act)
        else:
            o, a = ref_mha(p, L + ".self_attn", x, x, H, blocked)
            x = ln(x + o, L + ".norm1")
            x = ln(x + ref_ff(p, L, x, act), L + ".norm2")
        attn[L + ".self_attn.weights"] = a
        return x

    def dec_block(i, x, mem, self_blocked, cross_blocked):
        L = "decoder.layers.%d" % i
        if pre_ln:
            h = ln(x, L + ".norm1")
            o, a1 = ref_mha(p, L + ".self_attn", h, h, H, self_blocked)
            x = x + o
            o, a2 = ref_mha(p, L + ".multihead_attn", ln(x, L + ".norm2"), mem, H, cross_blocked)
            x = x + o
            x = x + ref_ff(p, L, ln(x, L + ".norm3"), act)
        else:
            o, a1 = ref_mha(p, L + ".self_attn", x, x, H, self_blocked)
            x = ln(x + o, L + ".norm1")
            o, a2 = ref_mha(p, L + ".multihead_attn", x, mem, H, cross_blocked)
            x = ln(x + o, L + ".norm2")
            x = ln(x + ref_ff(p, L, x, act), L + ".norm3")
        attn[L + ".self_attn.weights"] = a1
        attn[L + ".cross_attn.weights"] = a2
        return x

    gen_w = p["generator.weight"]
    arch = cfg["arch"]
    if arch in ("encoder_decoder", "encoder_only"):
        S = len(src_ids)
        src_keys = torch.tensor(src_ids) == PAD
        x = embed("src_embed.weight", src_ids)
        for i in range(cfg["n_encoder_layers"]):
            x = self_block("encoder", i, x, src_keys[None].expand(S, S))
        if cfg["final_norm"]:
            x = ln(x, "encoder.norm")
        out["encoder.output"] = mem = x
    if arch in ("encoder_decoder", "decoder_only"):
        T = len(tgt_ids)
        tgt_keys = torch.tensor(tgt_ids) == PAD
        self_blocked = causal_mask(T) | tgt_keys[None]
        y = embed("tgt_embed.weight", tgt_ids)
        if arch == "encoder_decoder":
            cross_blocked = src_keys[None].expand(T, S)
            for i in range(cfg["n_decoder_layers"]):
                y = dec_block(i, y, mem, self_blocked, cross_blocked)
        else:
            for i in range(cfg["n_decoder_layers"]):
                y = self_block("decoder", i, y, self_blocked)
        if cfg["final_norm"]:
            y = ln(y, "decoder.norm")
        out["decoder.output"] = y
        out["logits"] = y @ gen_w.T + p["generator.bias"]
    else:
        out["logits"] = mem @ gen_w.T + p["generator.bias"]
    out.update(attn)
    return out


# ----------------------------------------------------------------------------
# cases
# ----------------------------------------------------------------------------

def rand_seq(gen, n_words, vocab):
    return torch.randint(FIRST_WORD, vocab, (n_words,), generator=gen).tolist()


def src_seq(gen, length, n_pad, vocab):
    """words..., EOS, PAD*n_pad  (total = length)"""
    return rand_seq(gen, length - n_pad - 1, vocab) + [EOS] + [PAD] * n_pad


def tgt_seq(gen, length, n_pad, vocab):
    """SOS, words..., PAD*n_pad  (total = length; teacher-forced decoder input)"""
    return [SOS] + rand_seq(gen, length - n_pad - 1, vocab) + [PAD] * n_pad


CASES = [
    dict(name="post_ln_relu", seed=1001,
         cfg=dict(arch="encoder_decoder", n_heads=2, activation="relu", norm_first=False,
                  positional="sinusoidal", scale_embedding=True, final_norm=True),
         src=(6, 0), tgt=(5, 0),
         desc="enc-dec, post-LN, relu, sinusoidal PE, scaled embeddings, final norms, no padding"),
    dict(name="pre_ln_gelu", seed=1002,
         cfg=dict(arch="encoder_decoder", n_heads=2, activation="gelu", norm_first=True,
                  positional="sinusoidal", scale_embedding=True, final_norm=True),
         src=(7, 2), tgt=(6, 1),
         desc="enc-dec, pre-LN, erf gelu, sinusoidal PE, right padding: src 2 pads, tgt 1 pad"),
    dict(name="learned_pe", seed=1003,
         cfg=dict(arch="encoder_decoder", n_heads=4, activation="gelu_tanh", norm_first=False,
                  positional="learned", scale_embedding=False, tie_embeddings=True,
                  final_norm=True),
         src=(7, 1), tgt=(6, 2),
         desc="enc-dec, post-LN, tanh gelu, learned PE, unscaled, tied generator, 4 heads, "
              "right padding: src 1 pad, tgt 2 pads"),
    dict(name="decoder_only", seed=1004,
         cfg=dict(arch="decoder_only", n_heads=2, activation="gelu", norm_first=True,
                  positional="learned", scale_embedding=False, tie_embeddings=True,
                  final_norm=True),
         src=None, tgt=(7, 0),
         desc="decoder-only (causal self-attn only), pre-LN, erf gelu, learned PE, tied generator"),
    dict(name="encoder_only", seed=1005,
         cfg=dict(arch="encoder_only", n_heads=4, activation="relu", norm_first=False,
                  positional="sinusoidal", scale_embedding=True, final_norm=False),
         src=(7, 2), tgt=None,
         desc="encoder-only, post-LN, relu, sinusoidal PE, no final norm, src 2 pads"),
    dict(name="no_pe_h1", seed=1006,
         cfg=dict(arch="encoder_decoder", n_heads=1, n_enc=1, n_dec=1, activation="relu",
                  norm_first=False, positional="none", scale_embedding=True, final_norm=True),
         src=(5, 0), tgt=(4, 0),
         desc="enc-dec 1+1 layers, 1 head, post-LN, relu, no positional encoding"),
]


def max_abs(a, b):
    a = a.double() if isinstance(a, torch.Tensor) else torch.from_numpy(np.asarray(a, np.float64))
    b = b.double() if isinstance(b, torch.Tensor) else torch.from_numpy(np.asarray(b, np.float64))
    assert a.shape == b.shape, (a.shape, b.shape)
    return (a - b).abs().max().item()


def run_case(case):
    name = case["name"]
    torch.manual_seed(case["seed"])
    cfg = make_config(**case["cfg"])
    model = LabModel(cfg)
    randomize_(model)
    model.eval()
    for prm in model.parameters():
        prm.requires_grad_(True)

    gen = torch.Generator().manual_seed(case["seed"] + 7)
    src_ids = src_seq(gen, *case["src"], cfg["src_vocab_size"]) if case["src"] else []
    tgt_ids = tgt_seq(gen, *case["tgt"], cfg["tgt_vocab_size"]) if case["tgt"] else []
    for ids in (src_ids, tgt_ids):
        assert len(ids) <= cfg["max_len"]

    # 1) plain run (layers call MHA with need_weights=False)
    plain = torch_forward(model, cfg, src_ids, tgt_ids)
    # 2) run with per-head weight capture
    records, uninstall = install_capture(model, cfg)
    captured = torch_forward(model, cfg, src_ids, tgt_ids)
    uninstall()

    expected = dict(captured)
    expected.update(records)

    # 3) independent float64 reference
    p = {k: v.detach().double() for k, v in model.state_dict().items()}
    ref = ref_forward(p, cfg, src_ids, tgt_ids)

    errors = []
    if set(ref) != set(expected):
        errors.append("name mismatch: ref %s vs torch %s" % (sorted(ref), sorted(expected)))
    worst = 0.0
    for k in sorted(set(ref) & set(expected)):
        d = max_abs(ref[k], expected[k])
        worst = max(worst, d)
        if not (d <= TOL):
            errors.append("%s: max|torch-ref| = %.3g" % (k, d))
        if not torch.isfinite(expected[k]).all():
            errors.append("%s: non-finite values" % k)
    d_plain = max(max_abs(plain[k], captured[k]) for k in plain)
    if not (d_plain <= TOL):
        errors.append("need_weights=True changed outputs by %.3g" % d_plain)
    if errors:
        for e in errors:
            print("FAIL %s: %s" % (name, e), file=sys.stderr)
        return False

    # 4) write files
    def order(k):
        if k == "logits":
            return (0, k)
        if k.endswith(".weights"):
            return (1 if k.startswith("encoder") else 2, k)
        return (3, k)

    model_path = os.path.join(OUT_DIR, name + ".model.safetensors")
    exp_path = os.path.join(OUT_DIR, name + ".expected.safetensors")
    mtensors = model_tensors(model, cfg)
    write_safetensors(model_path, [(k, *whole_f32(v)) for k, v in mtensors], {"config": json.dumps(cfg)})
    etensors = [(k, expected[k]) for k in sorted(expected, key=order)]
    write_safetensors(exp_path, [(k, *whole_f32(v)) for k, v in etensors], {
        "src_ids": json.dumps(src_ids), "tgt_ids": json.dumps(tgt_ids),
        "case": name, "description": case["desc"]})

    # 5) read back and verify the writer
    meta, back = read_safetensors(model_path)
    assert json.loads(meta["config"]) == cfg
    for k, v in mtensors:
        assert np.array_equal(back[k], v.detach().numpy()), k
    meta, back = read_safetensors(exp_path)
    assert json.loads(meta["src_ids"]) == src_ids and json.loads(meta["tgt_ids"]) == tgt_ids
    for k, v in etensors:
        assert np.array_equal(back[k], v.numpy()), k

    print("wrote %-13s model %6d B (%2d tensors)  expected %5d B (%2d tensors)  "
          "max|torch-ref|=%.1e  src=%s tgt=%s"
          % (name, os.path.getsize(model_path), len(mtensors), os.path.getsize(exp_path), len(etensors), worst,
             src_ids, tgt_ids))
    return True


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.set_num_threads(1)
    ok = True
    for case in CASES:
        ok = run_case(case) and ok
    if not ok:
        print("golden generation FAILED", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
