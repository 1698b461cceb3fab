#!/usr/bin/python3
"""Hugging Face model folders for Attention Lab's GPT-2 and BERT loaders, with PyTorch outputs.

Default mode writes two tiny random models into tests/golden/fixtures/:

  hf_gpt2/  config.json (the fields GPT-2's config.json has), model.safetensors named as the
            hub's gpt2 file names its tensors (wte, wpe, h.{i}.attn.c_attn, ..., plus the
            h.{i}.attn.bias / masked_bias buffers), expected.safetensors, analysis.safetensors
  hf_bert/  config.json (BERT's fields), model.safetensors named as BertForMaskedLM saves it
            (bert.embeddings..., bert.encoder.layer.{i}..., cls.predictions..., and the I64
            bert.embeddings.position_ids buffer), expected.safetensors, analysis.safetensors

The expected outputs come from this script's own PyTorch implementation of each architecture,
written from the GPT-2 / BERT papers and the Hugging Face model documentation (GPT2Model,
BertModel, BertForMaskedLM): they are stored under the step paths of Attention Lab's trace
(README "Step paths"), F32, with the input ids in the metadata:

  gpt2: tgt.input (token + position embeddings), decoder.layers.{i}.self_attn.weights (H, T, T),
        decoder.layers.{i}.residual2 (each block's output), decoder.output (after ln_f), logits
  bert: src.input (word + position + token-type), src.embed_norm (the embeddings' output),
        encoder.layers.{i}.self_attn.weights (H, S, S), encoder.layers.{i}.norm2 (each layer's
        output), encoder.output, head.norm (the MLM transform's output), logits

analysis.safetensors holds, for the same input, the logit lens "lens.probs" (L + 1, T, V): the
embeddings and each layer's output read through the model's end (GPT-2: ln_f and the tied
unembedding; BERT: the MLM head), softmaxed; and "heads.stats" (L, H, 4): each head's mean over
query rows of its attention entropy (nats), weight on the previous token, on the first token and
on itself; for GPT-2 also "similar.cosine" (V, V), the cosine similarity of every two rows of wte,
and "pca.coords" (8, 2), wte's rows PCA_IDS centred and projected on their first two principal
components (each component's largest-magnitude coordinate positive). Both also hold the QK and
OV circuits of head CIRCUIT_HEAD of layer CIRCUIT_LAYER over the whole vocabulary: "qk.scores"
(V, V) = (e·W_Q^h)(e·W_K^h)ᵀ/√D and "ov.logits" (V, V) = e·W_V^h·W_O^h·W_Uᵀ, biases left out, with
e the token table through the embedding LayerNorm (BERT) or the layer's ln_1 (GPT-2). GPT-2's
also holds "ablated.logits" (T, V): the logits with that head's context zeroed before c_proj.

Each implementation is checked, in float64, against torch.nn.TransformerEncoderLayer holding
the same weights (pre-LN with tanh GELU and a causal mask for GPT-2's blocks, post-LN with erf
GELU and key padding for BERT's layers); the script exits 1 if they differ by more than 1e-9.

--gpt2-124m DIR writes a GPT-2 small-sized folder (n_layer 12, n_embd 768, n_head 12, vocab
50257, n_positions 1024: 124M parameters, random N(0, 0.02) weights as GPT-2 initialises them)
for `attnlab-cli bench DIR`, with a GPT-2-sized tokenizer: vocab.json of 50257 tokens (the 256
byte symbols, 50000 merged tokens made by random merges, <|endoftext|>) and its merges.txt. It
is about 550 MB: write it outside the repository.

    /usr/bin/python3 tests/golden/make_hf_golden.py
    /usr/bin/python3 tests/golden/make_hf_golden.py --gpt2-124m /tmp/gpt2-124m
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_fixture_io import FIXTURES, REPO, fail, whole, write_config, write_safetensors  # noqa: E402

CROSS_CHECK_TOL = 1e-9
PCA_IDS = [49, 7, 23, 0, 41, 12, 30, 5]  # the GPT-2 fixture's tokens for its 2-D picture
CIRCUIT_LAYER, CIRCUIT_HEAD = 1, 2  # the head whose QK and OV circuits both fixtures hold

# ----------------------------------------------------------------------------
# the forward passes (module level, so make_grad_golden.py runs the same code through autograd)
# ----------------------------------------------------------------------------

def layer_norm(x, gain, bias, eps):
    import torch
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)  # biased, as LayerNorm's
    return (x - mean) / torch.sqrt(var + eps) * gain + bias


def gelu_tanh(x):  # GPT-2's gelu_new
    import torch
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):  # BERT's gelu
    import torch
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def heads(x, H):  # (T, C) -> (H, T, D)
    T, C = x.shape
    return x.reshape(T, H, C // H).transpose(0, 1)


def attention(q, k, v, H, allowed):
    """q, k, v (T, C); allowed (T, T) bool. Returns (weights (H, T, T), context (T, C))."""
    import torch
    q, k, v = heads(q, H), heads(k, H), heads(v, H)
    scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    context = (weights @ v).transpose(0, 1).reshape(q.shape[1], -1)
    return weights, context


def gpt2_block(g, cfg, x, i, ablated_head=None):
    """One GPT-2 block: y = x·W + b with W (in, out) (Conv1D); Q;K;V packed in c_attn's columns."""
    import torch
    C, H, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    p = f"h.{i}."
    T = x.shape[0]
    a = layer_norm(x, g[p + "ln_1.weight"], g[p + "ln_1.bias"], eps)
    qkv = a @ g[p + "attn.c_attn.weight"] + g[p + "attn.c_attn.bias"]
    q, k, v = qkv.split(C, dim=-1)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    weights, context = attention(q, k, v, H, causal)
    if ablated_head is not None:  # the head's context zeroed before c_proj
        context = context.clone()
        context[:, ablated_head * (C // H):(ablated_head + 1) * (C // H)] = 0
    h = x + context @ g[p + "attn.c_proj.weight"] + g[p + "attn.c_proj.bias"]
    m = layer_norm(h, g[p + "ln_2.weight"], g[p + "ln_2.bias"], eps)
    m = gelu_tanh(m @ g[p + "mlp.c_fc.weight"] + g[p + "mlp.c_fc.bias"])
    return weights, h + m @ g[p + "mlp.c_proj.weight"] + g[p + "mlp.c_proj.bias"]


def gpt2_forward(g, cfg, ids, on_layer=None):
    """GPT-2 with its tied unembedding: the expected steps for ids. g: the hub names (no prefix);
    on_layer(i, x, y) is called with each block's input and output."""
    T = len(ids)
    x = g["wte.weight"][ids] + g["wpe.weight"][:T]
    out = {"tgt.input": x}
    for i in range(cfg["n_layer"]):
        weights, y = gpt2_block(g, cfg, x, i)
        if on_layer is not None:
            on_layer(i, x, y)
        out[f"decoder.layers.{i}.self_attn.weights"] = weights
        out[f"decoder.layers.{i}.residual2"] = x = y
    x = layer_norm(x, g["ln_f.weight"], g["ln_f.bias"], cfg["layer_norm_epsilon"])
    out["decoder.output"] = x
    out["logits"] = x @ g["wte.weight"].T  # tied unembedding, no bias
    return out


def bert_layer(b, cfg, x, i, keep):
    """One BERT layer: y = x·Wᵀ + b (nn.Linear); post-LN."""
    H, eps = cfg["num_attention_heads"], cfg["layer_norm_eps"]

    def linear(x, name):
        return x @ b[name + ".weight"].T + b[name + ".bias"]

    p = f"encoder.layer.{i}."
    allowed = keep.unsqueeze(0).expand(x.shape[0], -1)  # padding masks keys only
    weights, context = attention(linear(x, p + "attention.self.query"), linear(x, p + "attention.self.key"),
                                 linear(x, p + "attention.self.value"), H, allowed)
    h = layer_norm(x + linear(context, p + "attention.output.dense"),
                   b[p + "attention.output.LayerNorm.weight"], b[p + "attention.output.LayerNorm.bias"], eps)
    m = linear(gelu_erf(linear(h, p + "intermediate.dense")), p + "output.dense")
    return weights, layer_norm(h + m, b[p + "output.LayerNorm.weight"], b[p + "output.LayerNorm.bias"], eps)


def bert_forward(b, head, cfg, ids, types, on_layer=None):
    """BertForMaskedLM (word + position + token type, then LayerNorm; the MLM head with the tied decoder):
    the expected steps. b: BertModel's names (no "bert." prefix); head: the cls.predictions.* tensors;
    on_layer(i, x, y, keep) is called with each layer's input and output and the key mask."""
    import torch
    eps = cfg["layer_norm_eps"]
    S = len(ids)
    keep = torch.tensor([i != cfg["pad_token_id"] for i in ids])
    x = (b["embeddings.word_embeddings.weight"][ids] + b["embeddings.position_embeddings.weight"][:S]
         + b["embeddings.token_type_embeddings.weight"][types])
    out = {"src.input": x}
    x = layer_norm(x, b["embeddings.LayerNorm.weight"], b["embeddings.LayerNorm.bias"], eps)
    out["src.embed_norm"] = x
    for i in range(cfg["num_hidden_layers"]):
        weights, y = bert_layer(b, cfg, x, i, keep)
        if on_layer is not None:
            on_layer(i, x, y, keep)
        out[f"encoder.layers.{i}.self_attn.weights"] = weights
        out[f"encoder.layers.{i}.norm2"] = x = y
    out["encoder.output"] = x
    t = gelu_erf(x @ head["cls.predictions.transform.dense.weight"].T + head["cls.predictions.transform.dense.bias"])
    t = layer_norm(t, head["cls.predictions.transform.LayerNorm.weight"], head["cls.predictions.transform.LayerNorm.bias"], eps)
    out["head.norm"] = t
    out["logits"] = t @ b["embeddings.word_embeddings.weight"].T + head["cls.predictions.bias"]  # tied decoder
    return out


# ----------------------------------------------------------------------------
# the tiny GPT-2's config and tensors (module level, so make_train20_golden.py builds its GPT-2 with them)
# ----------------------------------------------------------------------------

def gpt2_config(**over):
    """The fields GPT-2's config.json has, for the tiny model (n_inner null: the MLP is 4 · n_embd wide)."""
    c = {
        "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
        "bos_token_id": 49, "embd_pdrop": 0.1, "eos_token_id": 49, "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 12, "n_embd": 32, "n_head": 4,
        "n_inner": None, "n_layer": 2, "n_positions": 12, "resid_pdrop": 0.1,
        "scale_attn_weights": True, "summary_activation": None, "summary_first_dropout": 0.1,
        "summary_proj_to_labels": True, "summary_type": "cls_index", "summary_use_proj": True,
        "vocab_size": 50,
    }
    c.update(over)
    return c


def gpt2_weights(cfg, randn):
    """GPT-2's parameters under the hub names, drawn in this order by randn(*shape, scale=1.0): wte N(0, 1),
    wpe N(0, 0.5²), norm gains 1 + N(0, 0.2²), biases N(0, 0.1²), Conv1D weights (in, out) N(0, 1/in)."""
    C, V, P, L = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"], cfg["n_layer"]
    F_ = 4 * C  # n_inner null
    g = {"wte.weight": randn(V, C), "wpe.weight": randn(P, C, scale=0.5)}
    for i in range(L):
        p = f"h.{i}."
        g[p + "ln_1.weight"], g[p + "ln_1.bias"] = 1 + randn(C, scale=0.2), randn(C, scale=0.1)
        g[p + "attn.c_attn.weight"], g[p + "attn.c_attn.bias"] = randn(C, 3 * C, scale=C ** -0.5), randn(3 * C, scale=0.1)
        g[p + "attn.c_proj.weight"], g[p + "attn.c_proj.bias"] = randn(C, C, scale=C ** -0.5), randn(C, scale=0.1)
        g[p + "ln_2.weight"], g[p + "ln_2.bias"] = 1 + randn(C, scale=0.2), randn(C, scale=0.1)
        g[p + "mlp.c_fc.weight"], g[p + "mlp.c_fc.bias"] = randn(C, F_, scale=C ** -0.5), randn(F_, scale=0.1)
        g[p + "mlp.c_proj.weight"], g[p + "mlp.c_proj.bias"] = randn(F_, C, scale=F_ ** -0.5), randn(C, scale=0.1)
    g["ln_f.weight"], g["ln_f.bias"] = 1 + randn(C, scale=0.2), randn(C, scale=0.1)
    return g


def gpt2_buffers(cfg):
    """What the hub file also holds: each block's causal-mask buffer and the masked-score constant."""
    import torch
    P = cfg["n_positions"]
    out = {}
    for i in range(cfg["n_layer"]):
        out[f"h.{i}.attn.bias"] = torch.tril(torch.ones(P, P)).reshape(1, 1, P, P)
        out[f"h.{i}.attn.masked_bias"] = torch.tensor(-1e4)
    return out


# ----------------------------------------------------------------------------
# the tiny models (torch imported here: the 124M mode needs only numpy)
# ----------------------------------------------------------------------------

def tiny_models():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.manual_seed(20261122)
    torch.set_default_dtype(torch.float64)  # float64 throughout; stored as F32

    def randn(*shape, scale=1.0):
        return torch.randn(*shape) * scale

    def round_to_f32(weights):  # the file stores F32: compute from exactly those values
        for name in weights:
            weights[name] = weights[name].float().double()

    def cosine_matrix(table):  # (V, C) -> (V, V)
        unit = table / table.norm(dim=1, keepdim=True)
        return unit @ unit.T

    def pca_2d(rows):  # (n, C) -> (n, 2), each component's largest-magnitude coordinate positive
        centred = rows - rows.mean(0, keepdim=True)
        u, s, _ = torch.linalg.svd(centred, full_matrices=False)
        coords = u[:, :2] * s[:2]
        at = coords.abs().argmax(0)
        return coords * torch.sign(coords[at, torch.arange(2)])

    def head_stats(weights):
        """(L, H, T, T) -> (L, H, 4): entropy (nats), previous token, first token, self; means over query rows."""
        w = torch.stack(weights)
        entropy = -(w * torch.log(torch.where(w > 0, w, torch.ones_like(w)))).sum(-1).mean(-1)
        previous = torch.diagonal(w, offset=-1, dim1=-2, dim2=-1).mean(-1)
        first = w[..., :, 0].mean(-1)
        self_ = torch.diagonal(w, dim1=-2, dim2=-1).mean(-1)
        return torch.stack([entropy, previous, first, self_], dim=-1)

    # ---- GPT-2: y = x·W + b with W (in, out) (Conv1D); Q;K;V packed in c_attn's columns ----
    g_cfg = gpt2_config()
    C, H, L = g_cfg["n_embd"], g_cfg["n_head"], g_cfg["n_layer"]
    eps = g_cfg["layer_norm_epsilon"]
    g = gpt2_weights(g_cfg, randn)
    round_to_f32(g)

    g_ids = [49, 7, 23, 0, 41, 12, 12, 30, 5]
    g_out = gpt2_forward(g, g_cfg, g_ids,
                         lambda i, x, y: cross_check_block(nn, F, x, y, g, i, "gpt2", C, H, eps))
    # The logit lens: the embeddings and each block's output through ln_f and the unembedding.
    lens_rows = [g_out["tgt.input"]] + [g_out[f"decoder.layers.{i}.residual2"] for i in range(L)]
    g_analysis = {
        "lens.probs": torch.stack([torch.softmax(layer_norm(r, g["ln_f.weight"], g["ln_f.bias"], eps) @ g["wte.weight"].T, -1)
                                   for r in lens_rows]),
        "heads.stats": head_stats([g_out[f"decoder.layers.{i}.self_attn.weights"] for i in range(L)]),
        "similar.cosine": cosine_matrix(g["wte.weight"]),
        "pca.coords": pca_2d(g["wte.weight"][PCA_IDS]),
    }
    # The same input with head CIRCUIT_HEAD of layer CIRCUIT_LAYER ablated: its logits.
    x = g_out["tgt.input"]
    for i in range(L):
        x = gpt2_block(g, g_cfg, x, i, CIRCUIT_HEAD if i == CIRCUIT_LAYER else None)[1]
    g_analysis["ablated.logits"] = layer_norm(x, g["ln_f.weight"], g["ln_f.bias"], eps) @ g["wte.weight"].T
    p, lo = f"h.{CIRCUIT_LAYER}.", CIRCUIT_HEAD * (C // H)
    head_cols = slice(lo, lo + C // H)
    e = layer_norm(g["wte.weight"], g[p + "ln_1.weight"], g[p + "ln_1.bias"], eps)
    q, k, v = (e @ g[p + "attn.c_attn.weight"][:, part * C:(part + 1) * C][:, head_cols] for part in range(3))
    g_analysis["qk.scores"] = q @ k.T / math.sqrt(C // H)
    g_analysis["ov.logits"] = v @ g[p + "attn.c_proj.weight"][head_cols, :] @ g["wte.weight"].T

    g_file = {**g, **gpt2_buffers(g_cfg)}
    gpt2 = (g_cfg, sorted(g_file.items()), g_out, {"tgt_ids": json.dumps(g_ids), "src_ids": "[]"}, g_analysis)

    # ---- BERT: y = x·Wᵀ + b (nn.Linear); post-LN; word + position + token type, then LayerNorm ----
    b_cfg = {
        "architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1, "classifier_dropout": None,
        "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 32, "initializer_range": 0.02,
        "intermediate_size": 64, "layer_norm_eps": 1e-12, "max_position_embeddings": 16, "model_type": "bert",
        "num_attention_heads": 4, "num_hidden_layers": 2, "pad_token_id": 0, "position_embedding_type": "absolute",
        "type_vocab_size": 2, "use_cache": True, "vocab_size": 50,
    }
    C, H, V, P, L = b_cfg["hidden_size"], b_cfg["num_attention_heads"], b_cfg["vocab_size"], \
        b_cfg["max_position_embeddings"], b_cfg["num_hidden_layers"]
    F_, eps = b_cfg["intermediate_size"], b_cfg["layer_norm_eps"]
    b = {"embeddings.word_embeddings.weight": randn(V, C),
         "embeddings.position_embeddings.weight": randn(P, C, scale=0.5),
         "embeddings.token_type_embeddings.weight": randn(2, C, scale=0.5),
         "embeddings.LayerNorm.weight": 1 + randn(C, scale=0.2), "embeddings.LayerNorm.bias": randn(C, scale=0.1)}
    for i in range(L):
        p = f"encoder.layer.{i}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
            b[p + name + ".weight"], b[p + name + ".bias"] = randn(C, C, scale=C ** -0.5), randn(C, scale=0.1)
        b[p + "intermediate.dense.weight"], b[p + "intermediate.dense.bias"] = randn(F_, C, scale=C ** -0.5), randn(F_, scale=0.1)
        b[p + "output.dense.weight"], b[p + "output.dense.bias"] = randn(C, F_, scale=F_ ** -0.5), randn(C, scale=0.1)
        for name in ("attention.output.LayerNorm", "output.LayerNorm"):
            b[p + name + ".weight"], b[p + name + ".bias"] = 1 + randn(C, scale=0.2), randn(C, scale=0.1)
    head = {"cls.predictions.transform.dense.weight": randn(C, C, scale=C ** -0.5),
            "cls.predictions.transform.dense.bias": randn(C, scale=0.1),
            "cls.predictions.transform.LayerNorm.weight": 1 + randn(C, scale=0.2),
            "cls.predictions.transform.LayerNorm.bias": randn(C, scale=0.1),
            "cls.predictions.bias": randn(V, scale=0.1)}
    round_to_f32(b)
    round_to_f32(head)

    # [CLS] a b c [SEP] d e [SEP] [PAD]: ids 2 and 3 play [CLS] and [SEP]; token types 0, then 1.
    b_ids = [2, 17, 31, 8, 3, 44, 9, 3, 0]
    b_types = [0, 0, 0, 0, 0, 1, 1, 1, 0]
    b_out = bert_forward(b, head, b_cfg, b_ids, b_types,
                         lambda i, x, y, keep: cross_check_block(nn, F, x, y, b, i, "bert", C, H, eps, keep))

    def mlm_head(r):  # (S, C) -> (S, V) probabilities
        r = gelu_erf(r @ head["cls.predictions.transform.dense.weight"].T + head["cls.predictions.transform.dense.bias"])
        r = layer_norm(r, head["cls.predictions.transform.LayerNorm.weight"],
                       head["cls.predictions.transform.LayerNorm.bias"], eps)
        return torch.softmax(r @ b["embeddings.word_embeddings.weight"].T + head["cls.predictions.bias"], -1)
    lens_rows = [b_out["src.embed_norm"]] + [b_out[f"encoder.layers.{i}.norm2"] for i in range(L)]
    b_analysis = {
        "lens.probs": torch.stack([mlm_head(r) for r in lens_rows]),
        "heads.stats": head_stats([b_out[f"encoder.layers.{i}.self_attn.weights"] for i in range(L)]),
    }
    p, lo = f"encoder.layer.{CIRCUIT_LAYER}.", CIRCUIT_HEAD * (C // H)
    head_rows = slice(lo, lo + C // H)
    e = layer_norm(b["embeddings.word_embeddings.weight"], b["embeddings.LayerNorm.weight"], b["embeddings.LayerNorm.bias"], eps)
    q, k, v = (e @ b[p + f"attention.self.{name}.weight"][head_rows, :].T for name in ("query", "key", "value"))
    b_analysis["qk.scores"] = q @ k.T / math.sqrt(C // H)
    b_analysis["ov.logits"] = v @ b[p + "attention.output.dense.weight"][:, head_rows].T @ b["embeddings.word_embeddings.weight"].T

    # As BertForMaskedLM saves it: the base model under "bert.", the head under "cls.", the
    # position_ids buffer (I64), and no decoder weight or bias (tied, so not saved).
    b_file = {"bert." + k: v for k, v in b.items()}
    b_file.update(head)
    b_file["bert.embeddings.position_ids"] = torch.arange(P).reshape(1, P)
    metadata = {"src_ids": json.dumps(b_ids), "src_token_types": json.dumps(b_types), "tgt_ids": "[]"}
    bert = (b_cfg, sorted(b_file.items()), b_out, metadata, b_analysis)
    return {"hf_gpt2": gpt2, "hf_bert": bert}


def cross_check_block(nn, F, x, y, w, i, family, C, H, eps, keep=None):
    """The same layer as torch.nn.TransformerEncoderLayer computes it (float64)."""
    import torch
    if family == "gpt2":
        p = f"h.{i}."
        layer = nn.TransformerEncoderLayer(C, H, 4 * C, dropout=0.0, activation=lambda t: F.gelu(t, approximate="tanh"),
                                           layer_norm_eps=eps, batch_first=True, norm_first=True)
        pairs = [("self_attn.in_proj_weight", w[p + "attn.c_attn.weight"].T), ("self_attn.in_proj_bias", w[p + "attn.c_attn.bias"]),
                 ("self_attn.out_proj.weight", w[p + "attn.c_proj.weight"].T), ("self_attn.out_proj.bias", w[p + "attn.c_proj.bias"]),
                 ("linear1.weight", w[p + "mlp.c_fc.weight"].T), ("linear1.bias", w[p + "mlp.c_fc.bias"]),
                 ("linear2.weight", w[p + "mlp.c_proj.weight"].T), ("linear2.bias", w[p + "mlp.c_proj.bias"]),
                 ("norm1.weight", w[p + "ln_1.weight"]), ("norm1.bias", w[p + "ln_1.bias"]),
                 ("norm2.weight", w[p + "ln_2.weight"]), ("norm2.bias", w[p + "ln_2.bias"])]
        T = x.shape[0]
        kwargs = {"src_mask": torch.triu(torch.full((T, T), float("-inf")), diagonal=1)}
    else:
        p = f"encoder.layer.{i}."
        F_ = w[p + "intermediate.dense.weight"].shape[0]
        layer = nn.TransformerEncoderLayer(C, H, F_, dropout=0.0, activation="gelu", layer_norm_eps=eps,
                                           batch_first=True, norm_first=False)
        qkv = [p + "attention.self." + n for n in ("query", "key", "value")]
        pairs = [("self_attn.in_proj_weight", torch.cat([w[n + ".weight"] for n in qkv])),
                 ("self_attn.in_proj_bias", torch.cat([w[n + ".bias"] for n in qkv])),
                 ("self_attn.out_proj.weight", w[p + "attention.output.dense.weight"]),
                 ("self_attn.out_proj.bias", w[p + "attention.output.dense.bias"]),
                 ("linear1.weight", w[p + "intermediate.dense.weight"]), ("linear1.bias", w[p + "intermediate.dense.bias"]),
                 ("linear2.weight", w[p + "output.dense.weight"]), ("linear2.bias", w[p + "output.dense.bias"]),
                 ("norm1.weight", w[p + "attention.output.LayerNorm.weight"]),
                 ("norm1.bias", w[p + "attention.output.LayerNorm.bias"]),
                 ("norm2.weight", w[p + "output.LayerNorm.weight"]), ("norm2.bias", w[p + "output.LayerNorm.bias"])]
        kwargs = {"src_key_padding_mask": ~keep.unsqueeze(0)}
    layer = layer.double().eval()
    with torch.no_grad():
        state = layer.state_dict()
        for name, value in pairs:
            state[name].copy_(value)
        want = layer(x.unsqueeze(0), **kwargs)[0]
    diff = (want - y).abs().max().item()
    if diff > CROSS_CHECK_TOL:
        fail(f"{family} layer {i}: differs from nn.TransformerEncoderLayer by {diff:.3g}")
    print(f"  {family} layer {i}: matches nn.TransformerEncoderLayer (max diff {diff:.2g})")


def write_tiny_fixtures():
    import torch
    for case, (config, tensors, expected, metadata, analysis) in tiny_models().items():
        folder = os.path.join(FIXTURES, case)
        os.makedirs(folder, exist_ok=True)
        write_config(folder, config)
        file_tensors = []
        for name, value in tensors:
            tag = "I64" if value.dtype == torch.int64 else "F32"
            file_tensors.append((name, *whole(value.numpy(), tag)))
        write_safetensors(os.path.join(folder, "model.safetensors"), file_tensors)
        write_safetensors(os.path.join(folder, "expected.safetensors"),
                          [(name, *whole(value.numpy())) for name, value in sorted(expected.items())], metadata)
        write_safetensors(os.path.join(folder, "analysis.safetensors"),
                          [(name, *whole(value.numpy())) for name, value in sorted(analysis.items())], metadata)
        sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
        print(f"{case}: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))


# ----------------------------------------------------------------------------
# the GPT-2 small-sized benchmark folder
# ----------------------------------------------------------------------------

def write_gpt2_124m(folder, seed=124):
    C, H, L, V, P = 768, 12, 12, 50257, 1024
    config = {
        "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
        "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
        "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": P, "n_embd": C, "n_head": H,
        "n_inner": None, "n_layer": L, "n_positions": P, "resid_pdrop": 0.1, "scale_attn_weights": True,
        "summary_activation": None, "summary_first_dropout": 0.1, "summary_proj_to_labels": True,
        "summary_type": "cls_index", "summary_use_proj": True, "vocab_size": V,
    }
    rng = np.random.default_rng(seed)

    # Generators: each tensor's values are made only when the writer reaches it, in file order.
    def normal(*shape):  # N(0, 0.02), a block of rows at a time
        step = max(1, (1 << 22) // int(np.prod(shape[1:], dtype=np.int64)))
        for r in range(0, shape[0], step):
            yield rng.standard_normal((min(step, shape[0] - r),) + shape[1:], dtype=np.float32) * 0.02

    def constant(value, *shape):
        yield np.full(shape, value, dtype=np.float32)

    def causal_mask(*shape):
        yield np.tril(np.ones((P, P), np.float32)).reshape(shape)

    def f32(name, values, *shape):
        return (name, shape, "F32", values(*shape))

    tensors = [f32("wte.weight", normal, V, C), f32("wpe.weight", normal, P, C)]
    for i in range(L):
        p = f"h.{i}."
        tensors += [("ln_1.weight", (C,), "F32", constant(1.0, C)), ("ln_1.bias", (C,), "F32", constant(0.0, C)),
                    f32("attn.bias", causal_mask, 1, 1, P, P), ("attn.masked_bias", (), "F32", constant(-1e4)),
                    f32("attn.c_attn.weight", normal, C, 3 * C), ("attn.c_attn.bias", (3 * C,), "F32", constant(0.0, 3 * C)),
                    f32("attn.c_proj.weight", normal, C, C), ("attn.c_proj.bias", (C,), "F32", constant(0.0, C)),
                    ("ln_2.weight", (C,), "F32", constant(1.0, C)), ("ln_2.bias", (C,), "F32", constant(0.0, C)),
                    f32("mlp.c_fc.weight", normal, C, 4 * C), ("mlp.c_fc.bias", (4 * C,), "F32", constant(0.0, 4 * C)),
                    f32("mlp.c_proj.weight", normal, 4 * C, C), ("mlp.c_proj.bias", (C,), "F32", constant(0.0, C))]
        tensors[-14:] = [(p + name, *rest) for name, *rest in tensors[-14:]]
    tensors += [("ln_f.weight", (C,), "F32", constant(1.0, C)), ("ln_f.bias", (C,), "F32", constant(0.0, C))]
    os.makedirs(folder, exist_ok=True)
    write_config(folder, config)
    n_bytes = write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
    n_params = sum(int(np.prod(s, dtype=np.int64)) for name, s, _, _ in tensors
                   if not name.endswith(("attn.bias", "attn.masked_bias")))
    print(f"{folder}: {n_params / 1e6:.1f}M parameters, model.safetensors {n_bytes / 2**20:.0f} MiB of data")


def byte_symbols():
    """GPT-2's byte-level alphabet: printable bytes stand for themselves, the others for U+0100 on."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    others = [b for b in range(256) if b not in printable]
    return [chr(b) for b in printable] + [chr(0x100 + n) for n in range(len(others))]


def write_gpt2_tokenizer(folder, n_merges=50000, seed=124):
    """vocab.json and merges.txt of GPT-2's size; merge k joins two earlier tokens, short ones likelier."""
    rng = np.random.default_rng(seed)
    tokens = byte_symbols()
    known = set(tokens)
    merges = []
    while len(merges) < n_merges:
        left, right = (tokens[int(rng.random() ** 3 * len(tokens))] for _ in range(2))
        if left + right in known:
            continue
        merges.append(f"{left} {right}")
        tokens.append(left + right)
        known.add(left + right)
    tokens.append("<|endoftext|>")
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump({t: i for i, t in enumerate(tokens)}, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "\n".join(merges) + "\n")
    return len(tokens)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpt2-124m", metavar="DIR", help="write the GPT-2 small-sized benchmark folder to DIR")
    args = parser.parse_args()
    if args.gpt2_124m:
        if os.path.abspath(args.gpt2_124m).startswith(REPO + os.sep):
            sys.exit("the 124M folder is about 550 MB: write it outside the repository")
        write_gpt2_124m(args.gpt2_124m)
        print(f"{args.gpt2_124m}: vocab.json of {write_gpt2_tokenizer(args.gpt2_124m)} tokens, merges.txt")
    else:
        write_tiny_fixtures()


if __name__ == "__main__":
    main()
