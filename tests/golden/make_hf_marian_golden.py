#!/usr/bin/python3
"""Hugging Face marian folders (Helsinki-NLP's opus-mt layout) for Attention Lab's loader, with PyTorch outputs.

Writes two tiny random models into tests/golden/fixtures/<case>/:

  config.json           the fields an opus-mt config.json has (d_model, encoder_/decoder_layers, ..._heads,
                        ..._ffn_dim, activation_function, scale_embedding, pad/eos/decoder_start_token_id,
                        share_encoder_decoder_embeddings, static_position_embeddings, ...)
  model.safetensors     F32, named as MarianMTModel's save_pretrained names them: model.shared,
                        model.{encoder,decoder}.layers.{i}.self_attn.{q,k,v,out}_proj, .self_attn_layer_norm,
                        decoder's .encoder_attn.* and .encoder_attn_layer_norm, .fc1, .fc2, .final_layer_norm,
                        final_logits_bias (1, V); hf_marian_untied also has lm_head and the older files'
                        model.{encoder,decoder}.embed_positions.weight tables, which nothing reads
  expected.safetensors  F32 outputs of this script's implementation of modeling_marian.py, under Attention
                        Lab's step paths, with the source and target ids in the metadata

hf_marian is opus-mt's shape in small: swish, embeddings scaled by √C, tied, the decoder starting from <pad>
(the last id), and when tests/fixtures/tokenizers/sentencepiece/marian/ exists (make_sentencepiece_fixtures.py)
its source.spm, target.spm, vocab.json and tokenizer_config.json are copied in and V is vocab.json's size.
hf_marian_untied: relu, no embedding scale, an lm_head of its own, and a decoder start that is not <pad>.

The reference follows transformers' modeling_marian.py: MarianSinusoidalPositionalEmbedding._init_weight
(position / 10000^(2(j//2)/C) in float64; sines of the even columns into the first ⌈C/2⌉ columns, cosines
of the odd ones into the rest; stored float32), MarianEncoder / MarianDecoder (embed_tokens · embed_scale +
positions from 0; no embedding norm; no final norm), MarianAttention + eager_attention_forward (QKᵀ ·
head_dim^-0.5, + the additive mask, softmax, ·V, out_proj), MarianEncoderLayer / MarianDecoderLayer (post-LN:
LayerNorm(x + sublayer(x)), eps 1e-5), and MarianMTModel (lm_head(x) + final_logits_bias, lm_head tied to
model.shared unless tie_word_embeddings is false). The decoder gets no padding mask (its attention_mask
defaults to ones), only the causal one; the encoder's ids hold no padding.

Each case is computed a second way, with torch.nn.TransformerEncoderLayer / TransformerDecoderLayer (post-LN,
the same weights packed into in_proj) and the sinusoids written as cat(sin(pos·ω), cos(pos·ω)); the two
must agree within 1e-9 relative (float64). Three features must matter by more than 1e-3 in the logits: the
halves layout (against the paper's interleaved one), final_logits_bias, and the embedding scale. Any failure
exits 1.

    /usr/bin/python3 tests/golden/make_hf_marian_golden.py
"""
import json
import math
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_fixture_io import FIXTURES, REPO, fail, rel_diff, whole_f32, write_config, write_safetensors  # noqa: E402

CROSS_CHECK_TOL = 1e-9
MIN_EFFECT = 1e-3
TOKENIZER = os.path.join(REPO, "tests", "fixtures", "tokenizers", "sentencepiece", "marian")
TOKENIZER_FILES = ["source.spm", "target.spm", "vocab.json", "tokenizer_config.json"]


def marian_config(V, **over):
    cfg = {
        "architectures": ["MarianMTModel"],
        "model_type": "marian",
        "d_model": 16,
        "encoder_layers": 2,
        "decoder_layers": 2,
        "encoder_attention_heads": 4,
        "decoder_attention_heads": 4,
        "encoder_ffn_dim": 32,
        "decoder_ffn_dim": 32,
        "activation_function": "swish",
        "max_position_embeddings": 64,
        "scale_embedding": True,
        "normalize_before": False,
        "normalize_embedding": False,
        "static_position_embeddings": True,
        "share_encoder_decoder_embeddings": True,
        "vocab_size": V,
        "decoder_vocab_size": V,
        "pad_token_id": V - 1,
        "eos_token_id": 0,
        "decoder_start_token_id": V - 1,
        "forced_eos_token_id": 0,
        "bad_words_ids": [[V - 1]],
        "dropout": 0.1,
        "attention_dropout": 0.0,
        "num_beams": 4,
        "max_length": 64,
        "torch_dtype": "float32",
    }
    cfg.update(over)
    return cfg


def tokenizer_vocab_size():
    path = os.path.join(TOKENIZER, "vocab.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        vocab = json.load(f)
    return max(vocab.values()) + 1


def cases():
    v_tok = tokenizer_vocab_size()
    V = v_tok or 64
    return [
        ("hf_marian", "opus-mt in small: swish, scaled embeddings, tied, decoder starts from <pad>",
         {"config": marian_config(V), "src": [5, 17, 9, 30, 12, 0], "tgt": [V - 1, 8, 21, 3, 14],
          "seed": 51, "tokenizer": v_tok is not None, "old_buffers": False}),
        ("hf_marian_untied", "relu, unscaled embeddings, an lm_head of its own, start token 2",
         {"config": marian_config(48, activation_function="relu", scale_embedding=False, tie_word_embeddings=False,
                                  decoder_start_token_id=2, pad_token_id=47, bad_words_ids=[[47]]),
          "src": [4, 11, 40, 7, 0], "tgt": [2, 19, 33, 6, 25, 10], "seed": 52, "tokenizer": False,
          "old_buffers": True}),
    ]


# ----------------------------------------------------------------------------
# weights
# ----------------------------------------------------------------------------

def make_weights(torch, cfg, seed):
    """MarianMTModel's state dict as save_pretrained writes it (tied copies dropped), float32-rounded."""
    g = torch.Generator().manual_seed(seed)
    C, F, V = cfg["d_model"], cfg["encoder_ffn_dim"], cfg["vocab_size"]

    def rand(*shape, scale=0.3):
        return (torch.randn(*shape, generator=g) * scale).float().double()

    w = {"model.shared.weight": rand(V, C, scale=0.5), "final_logits_bias": rand(1, V, scale=0.5)}

    def attention(p):
        for m in ("q_proj", "k_proj", "v_proj", "out_proj"):
            w[f"{p}.{m}.weight"] = rand(C, C)
            w[f"{p}.{m}.bias"] = rand(C, scale=0.1)

    def norm(p):
        w[p + ".weight"] = 1.0 + rand(C, scale=0.1)
        w[p + ".bias"] = rand(C, scale=0.1)

    for stack, n in (("encoder", cfg["encoder_layers"]), ("decoder", cfg["decoder_layers"])):
        for i in range(n):
            p = f"model.{stack}.layers.{i}"
            attention(p + ".self_attn")
            norm(p + ".self_attn_layer_norm")
            if stack == "decoder":
                attention(p + ".encoder_attn")
                norm(p + ".encoder_attn_layer_norm")
            w[p + ".fc1.weight"], w[p + ".fc1.bias"] = rand(F, C), rand(F, scale=0.1)
            w[p + ".fc2.weight"], w[p + ".fc2.bias"] = rand(C, F), rand(C, scale=0.1)
            norm(p + ".final_layer_norm")
    if not cfg.get("tie_word_embeddings", True):
        w["lm_head.weight"] = rand(V, C, scale=0.5)
    return w


# ----------------------------------------------------------------------------
# the reference: modeling_marian.py
# ----------------------------------------------------------------------------

def hf_sinusoids(torch, n_pos, dim):
    """MarianSinusoidalPositionalEmbedding._init_weight: float64 angles, float32 table."""
    position_enc = np.array([[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)])
    out = torch.empty(n_pos, dim, dtype=torch.float32)
    sentinel = dim // 2 if dim % 2 == 0 else (dim // 2) + 1
    out[:, 0:sentinel] = torch.FloatTensor(np.sin(position_enc[:, 0::2]))
    out[:, sentinel:] = torch.FloatTensor(np.cos(position_enc[:, 1::2]))
    return out.double()


def paper_sinusoids(torch, n_pos, dim):
    """The paper's interleaved layout, same frequencies: what a wrong convention would use."""
    table = hf_sinusoids(torch, n_pos, dim)
    out = torch.empty_like(table)
    half = (dim + 1) // 2
    out[:, 0::2] = table[:, :half]
    out[:, 1::2] = table[:, half:]
    return out


def hf_forward(torch, cfg, w, src, tgt, positions=None, use_bias=True, embed_scale=None):
    F_ = torch.nn.functional
    C, H = cfg["d_model"], cfg["encoder_attention_heads"]
    D = C // H
    act = {"swish": F_.silu, "silu": F_.silu, "relu": F_.relu, "gelu": F_.gelu}[cfg["activation_function"]]
    if embed_scale is None:
        embed_scale = math.sqrt(C) if cfg["scale_embedding"] else 1.0
    table = positions if positions is not None else hf_sinusoids(torch, cfg["max_position_embeddings"], C)
    table = table.to(w["model.shared.weight"].dtype)  # the embed_positions weight, in the model's dtype
    out = {}

    def linear(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def layer_norm(x, p):
        return F_.layer_norm(x, (C,), w[p + ".weight"], w[p + ".bias"], 1e-5)

    def attention(x, kv, p, mask, path):
        q = linear(x, p + ".q_proj").view(len(x), H, D).transpose(0, 1)  # (H, N, D)
        k = linear(kv, p + ".k_proj").view(len(kv), H, D).transpose(0, 1)
        v = linear(kv, p + ".v_proj").view(len(kv), H, D).transpose(0, 1)
        scores = torch.matmul(q, k.transpose(1, 2)) * D ** -0.5
        if mask is not None:
            scores = scores + mask
        weights = F_.softmax(scores, dim=-1)
        out[path + ".weights"] = weights
        context = torch.matmul(weights, v).transpose(0, 1).reshape(len(x), C)
        return linear(context, p + ".out_proj")

    E = w["model.shared.weight"]
    S, T = len(src), len(tgt)
    x = E[torch.tensor(src)] * embed_scale
    out["src.embed"] = x
    out["src.pos"] = table[:S]
    x = x + table[:S]
    out["src.input"] = x
    for i in range(cfg["encoder_layers"]):
        p, s = f"model.encoder.layers.{i}", f"encoder.layers.{i}."
        x = layer_norm(x + attention(x, x, p + ".self_attn", None, s + "self_attn"), p + ".self_attn_layer_norm")
        out[s + "norm1"] = x
        x = layer_norm(x + linear(act(linear(x, p + ".fc1")), p + ".fc2"), p + ".final_layer_norm")
        out[s + "norm2"] = x
    memory = x
    out["encoder.output"] = memory

    causal = torch.triu(torch.full((T, T), torch.finfo(E.dtype).min, dtype=E.dtype), diagonal=1)
    y = E[torch.tensor(tgt)] * embed_scale
    out["tgt.embed"] = y
    out["tgt.pos"] = table[:T]
    y = y + table[:T]
    out["tgt.input"] = y
    for i in range(cfg["decoder_layers"]):
        p, s = f"model.decoder.layers.{i}", f"decoder.layers.{i}."
        y = layer_norm(y + attention(y, y, p + ".self_attn", causal, s + "self_attn"), p + ".self_attn_layer_norm")
        out[s + "norm1"] = y
        y = layer_norm(y + attention(y, memory, p + ".encoder_attn", None, s + "cross_attn"),
                       p + ".encoder_attn_layer_norm")
        out[s + "norm2"] = y
        y = layer_norm(y + linear(act(linear(y, p + ".fc1")), p + ".fc2"), p + ".final_layer_norm")
        out[s + "norm3"] = y
    out["decoder.output"] = y
    unembed = E if cfg.get("tie_word_embeddings", True) else w["lm_head.weight"]
    logits = y @ unembed.T
    if use_bias:
        logits = logits + w["final_logits_bias"][0]
    out["logits"] = logits
    return out


# ----------------------------------------------------------------------------
# the second way: torch.nn's post-LN layers
# ----------------------------------------------------------------------------

def independent_forward(torch, cfg, w, src, tgt):
    nn, F_ = torch.nn, torch.nn.functional
    C, H, Fd = cfg["d_model"], cfg["encoder_attention_heads"], cfg["encoder_ffn_dim"]
    act = {"swish": F_.silu, "relu": F_.relu}[cfg["activation_function"]]
    scale = math.sqrt(C) if cfg["scale_embedding"] else 1.0
    n_pos = cfg["max_position_embeddings"]
    omega = 1.0 / 10000.0 ** (2.0 * np.arange((C + 1) // 2) / C)
    angles = np.arange(n_pos)[:, None] * omega[None, :]
    table = torch.tensor(np.concatenate([np.sin(angles), np.cos(angles[:, :C // 2])], axis=1)).float().double()

    def load_attention(mha, p):
        mha.in_proj_weight.data = torch.cat([w[f"{p}.{m}_proj.weight"] for m in "qkv"])
        mha.in_proj_bias.data = torch.cat([w[f"{p}.{m}_proj.bias"] for m in "qkv"])
        mha.out_proj.weight.data, mha.out_proj.bias.data = w[p + ".out_proj.weight"], w[p + ".out_proj.bias"]

    def load_norm(ln, p):
        ln.weight.data, ln.bias.data = w[p + ".weight"], w[p + ".bias"]

    def load_ffn(layer, p):
        layer.linear1.weight.data, layer.linear1.bias.data = w[p + ".fc1.weight"], w[p + ".fc1.bias"]
        layer.linear2.weight.data, layer.linear2.bias.data = w[p + ".fc2.weight"], w[p + ".fc2.bias"]

    out = {}
    E = w["model.shared.weight"]
    x = (E[torch.tensor(src)] * scale + table[:len(src)])[None]
    for i in range(cfg["encoder_layers"]):
        p = f"model.encoder.layers.{i}"
        layer = nn.TransformerEncoderLayer(C, H, Fd, 0.0, act, 1e-5, batch_first=True, dtype=torch.float64).eval()
        load_attention(layer.self_attn, p + ".self_attn")
        load_norm(layer.norm1, p + ".self_attn_layer_norm")
        load_norm(layer.norm2, p + ".final_layer_norm")
        load_ffn(layer, p)
        x = layer(x)
        out[f"encoder.layers.{i}.norm2"] = x[0]
    out["encoder.output"] = x[0]
    T = len(tgt)
    causal = torch.triu(torch.full((T, T), float("-inf"), dtype=torch.float64), diagonal=1)
    y = (E[torch.tensor(tgt)] * scale + table[:T])[None]
    for i in range(cfg["decoder_layers"]):
        p = f"model.decoder.layers.{i}"
        layer = nn.TransformerDecoderLayer(C, H, Fd, 0.0, act, 1e-5, batch_first=True, dtype=torch.float64).eval()
        load_attention(layer.self_attn, p + ".self_attn")
        load_attention(layer.multihead_attn, p + ".encoder_attn")
        load_norm(layer.norm1, p + ".self_attn_layer_norm")
        load_norm(layer.norm2, p + ".encoder_attn_layer_norm")
        load_norm(layer.norm3, p + ".final_layer_norm")
        load_ffn(layer, p)
        y = layer(y, x, tgt_mask=causal)
        out[f"decoder.layers.{i}.norm3"] = y[0]
    out["decoder.output"] = y[0]
    unembed = E if cfg.get("tie_word_embeddings", True) else w["lm_head.weight"]
    out["logits"] = y[0] @ unembed.T + w["final_logits_bias"][0]
    return out


# ----------------------------------------------------------------------------
# building and checking one case
# ----------------------------------------------------------------------------

def build_case(torch, name, description, spec):
    cfg, src, tgt = spec["config"], spec["src"], spec["tgt"]
    V = cfg["vocab_size"]
    assert max(src + tgt) < V and src[-1] == cfg["eos_token_id"] and tgt[0] == cfg["decoder_start_token_id"]
    w = make_weights(torch, cfg, spec["seed"])
    with torch.no_grad():
        out = hf_forward(torch, cfg, w, src, tgt)
        report = {}

        ind = independent_forward(torch, cfg, w, src, tgt)
        worst, worst_name = 0.0, "every one equal"
        for key, want in ind.items():
            d = rel_diff(out[key].numpy(), want.numpy())
            if d > worst:
                worst, worst_name = d, key
            if d > CROSS_CHECK_TOL:
                fail(f"{name}: {key} differs between the two implementations by {d:.3g} (relative)")
        report["torch.nn layers, max relative diff"] = (worst, worst_name)

        table = hf_sinusoids(torch, cfg["max_position_embeddings"], cfg["d_model"])
        effects = {
            "interleaved positions instead of halves":
                hf_forward(torch, cfg, w, src, tgt, positions=paper_sinusoids(torch, len(table), cfg["d_model"])),
            "no final_logits_bias": hf_forward(torch, cfg, w, src, tgt, use_bias=False),
            "embedding scale flipped":
                hf_forward(torch, cfg, w, src, tgt, embed_scale=1.0 if cfg["scale_embedding"] else math.sqrt(16)),
        }
        for what, other in effects.items():
            d = float((other["logits"] - out["logits"]).abs().max())
            if d <= MIN_EFFECT:
                fail(f"{name}: {what} changes the logits by only {d:.3g}")
            report[f"{what}: logits move by (abs)"] = d
        causal = out["decoder.layers.0.self_attn.weights"]
        if float(torch.triu(causal, diagonal=1).abs().max()) != 0.0:
            fail(f"{name}: the decoder sees a later key")
        report["decoder key 0 (the start token) weight, row 0"] = float(causal[:, 0, 0].min())

    tensors = dict(w)
    if spec["old_buffers"]:  # older opus-mt files keep the sinusoid tables; nothing reads them
        for stack in ("encoder", "decoder"):
            tensors[f"model.{stack}.embed_positions.weight"] = table
    metadata = {"src_ids": json.dumps(src), "tgt_ids": json.dumps(tgt), "case": name, "description": description}
    return tensors, out, metadata, report


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    for name, description, spec in cases():
        tensors, out, metadata, report = build_case(torch, name, description, spec)
        folder = os.path.join(FIXTURES, name)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        write_config(folder, spec["config"])
        write_safetensors(os.path.join(folder, "model.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(tensors.items())], {"format": "pt"})
        write_safetensors(os.path.join(folder, "expected.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(out.items())], metadata)
        if spec["tokenizer"]:
            for f in TOKENIZER_FILES:
                if os.path.exists(os.path.join(TOKENIZER, f)):
                    shutil.copyfile(os.path.join(TOKENIZER, f), os.path.join(folder, f))
        sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
        print(f"{name}: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))
        for key, value in report.items():
            if isinstance(value, float):
                value = f"{value:.3g}"
            elif isinstance(value, tuple) and isinstance(value[0], float):
                value = f"{value[0]:.3g} ({value[1]})"
            print(f"    {key}: {value}")


if __name__ == "__main__":
    main()
