#!/usr/bin/python3
"""Hugging Face t5 folders (T5 v1.0 and Flan-T5's v1.1 layout) for Attention Lab's loader, with PyTorch outputs.

Writes two tiny random models into tests/golden/fixtures/<case>/:

  config.json           the fields a t5 config.json has (d_model, d_kv, d_ff, num_layers, num_decoder_layers,
                        num_heads, relative_attention_num_buckets, relative_attention_max_distance,
                        layer_norm_epsilon, feed_forward_proj, tie_word_embeddings, pad/eos/decoder_start_token_id)
  model.safetensors     F32, named as T5ForConditionalGeneration's save_pretrained names them: shared,
                        {encoder,decoder}.block.{i}.layer.0.SelfAttention.{q,k,v,o} (block 0's also
                        relative_attention_bias), .layer.0.layer_norm, decoder's .layer.1.EncDecAttention.{q,k,v,o}
                        and .layer.1.layer_norm, the FFN's .layer.{1,2}.DenseReluDense.{wi,wo} (gated: wi_0, wi_1,
                        wo) and .layer_norm, {encoder,decoder}.final_layer_norm, lm_head when untied
  spiece.model          (hf_t5) a tiny SentencePiece unigram model with T5's special ids; the ids are its
                        encoding of two sentences (src_text, tgt_text in the metadata), </s> after the source
  expected.safetensors  F32 outputs of this script's implementation of modeling_t5.py, under Attention Lab's step
                        paths, with the source and target ids in the metadata

hf_t5 is T5 v1.0 in small: relu FFN (wi, wo), tied (the decoder output times d_model^-0.5 before the shared
table), H·D = C; its file also carries the tied copies encoder.embed_tokens and decoder.embed_tokens, as older
checkpoints do. hf_flan_t5 is the v1.1 layout (Flan-T5): gated-gelu (gelu_new of wi_0 times wi_1), an lm_head of
its own, d_kv with H·D != d_model, and a decoder deeper than the encoder.

The reference follows transformers' modeling_t5.py: T5Attention._relative_position_bucket (bidirectional for
the encoder: half the buckets for keys after the query; unidirectional for the decoder; offsets below
max_exact = buckets/2 exact, the rest log-spaced up to max_distance, computed in float32 as the module does),
T5Attention.compute_bias (relative_attention_bias(bucket) permuted to (H, q, k)), T5Attention.forward (scores =
QKᵀ with no 1/√D, + position_bias, softmax in float, ·V, o), the position bias computed by block 0 of each stack
and reused by every later block (T5Stack passes position_bias on), no bias in EncDecAttention; T5LayerNorm
(x·rsqrt(mean(x²) + eps)·weight, no mean, no bias), T5DenseActDense / T5DenseGatedActDense, T5Layer* (pre-norm
residuals), T5Stack (embed_tokens, blocks, final_layer_norm), T5ForConditionalGeneration (shared embedding,
sequence_output · d_model^-0.5 when tie_word_embeddings, lm_head). decoder_start_token_id is the pad id 0;
the decoder gets no padding mask, the encoder's ids hold no padding.

Each case is checked against a second computation of the buckets (a table written from the definition:
exact offsets, then log-spaced ones, in float64 away from the boundaries), and three features must matter by
more than 1e-3 in the logits: the position bias, the tied rescaling (or, untied, the gate), and the decoder's
unidirectional buckets (against bidirectional ones). Any failure exits 1. The gradients (grads.safetensors)
are written by make_grad_golden.py's make_file for these two cases, run at the end.

    /usr/bin/python3 tests/golden/make_hf_t5_golden.py
"""
import json
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_fixture_io import FIXTURES, fail, whole_f32, write_config, write_safetensors  # noqa: E402

MIN_EFFECT = 1e-3


def t5_config(**over):
    cfg = {
        "architectures": ["T5ForConditionalGeneration"],
        "model_type": "t5",
        "d_model": 16,
        "d_kv": 4,
        "d_ff": 32,
        "num_layers": 2,
        "num_decoder_layers": 2,
        "num_heads": 4,
        "relative_attention_num_buckets": 8,
        "relative_attention_max_distance": 16,
        "dropout_rate": 0.1,
        "layer_norm_epsilon": 1e-6,
        "initializer_factor": 1.0,
        "feed_forward_proj": "relu",
        "is_encoder_decoder": True,
        "use_cache": True,
        "pad_token_id": 0,
        "eos_token_id": 1,
        "decoder_start_token_id": 0,
        "n_positions": 64,
        "vocab_size": 48,
        "torch_dtype": "float32",
    }
    cfg.update(over)
    return cfg


# hf_t5's spiece.model: T5's special pieces (<pad> 0, </s> 1, <unk> 2, no <s>), a unigram model of make_sentencepiece
# _fixtures.py's English text with its few normalization rules (T5's nmt_nfkc table alone is 237 KB).
SPIECE_PIECES = 72
SRC_TEXT = "The model reads the sentence."
TGT_TEXT = "Each head attends."


def train_spiece():
    """(spiece.model bytes, the processor): trained in one thread, unshuffled, the same bytes every run."""
    import tempfile
    import sentencepiece as spm
    import make_sentencepiece_fixtures as msf
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            rules = msf.write_marian_rules()
            model = msf.train(msf.lines(msf.ENGLISH), model_type="unigram", vocab_size=SPIECE_PIECES,
                              character_coverage=0.98, normalization_rule_tsv=rules, pad_id=0, eos_id=1, unk_id=2,
                              bos_id=-1)
        finally:
            os.chdir(here)
    return model, spm.SentencePieceProcessor(model_proto=model)


def cases(sp):
    # T5Tokenizer: the pieces' own ids, </s> appended; the decoder starts from <pad>. config.json's vocab_size is
    # larger than the tokenizer's, as T5's 32128 against 32100.
    src = sp.encode(SRC_TEXT) + [1]
    tgt = [0] + sp.encode(TGT_TEXT)
    V = SPIECE_PIECES + 8
    return [
        ("hf_t5", "T5 v1.0 in small: relu, tied (d_model^-0.5 before the shared table), buckets 8 up to 16",
         {"config": t5_config(vocab_size=V), "src": src, "tgt": tgt, "seed": 71, "tied_copies": True,
          "texts": {"src_text": SRC_TEXT, "tgt_text": TGT_TEXT}}),
        ("hf_flan_t5", "Flan-T5's v1.1 layout in small: gated-gelu, untied lm_head, H·D != d_model, 3 decoder blocks",
         {"config": t5_config(d_kv=6, num_heads=3, num_decoder_layers=3, feed_forward_proj="gated-gelu",
                              tie_word_embeddings=False, relative_attention_num_buckets=10,
                              relative_attention_max_distance=20, vocab_size=40),
          "src": [4, 11, 33, 7, 19, 25, 1], "tgt": [0, 19, 31, 6, 25, 10, 2, 9], "seed": 72, "tied_copies": False}),
    ]


def gated(cfg):
    return cfg["feed_forward_proj"].startswith("gated-")


def tied(cfg):
    return cfg.get("tie_word_embeddings", True)


# ----------------------------------------------------------------------------
# weights
# ----------------------------------------------------------------------------

def make_weights(torch, cfg, seed):
    """T5ForConditionalGeneration's state dict as save_pretrained writes it, float32-rounded."""
    g = torch.Generator().manual_seed(seed)
    C, F, V, H, D = cfg["d_model"], cfg["d_ff"], cfg["vocab_size"], cfg["num_heads"], cfg["d_kv"]
    B = cfg["relative_attention_num_buckets"]

    def rand(*shape, scale=0.3):
        return (torch.randn(*shape, generator=g) * scale).float().double()

    w = {"shared.weight": rand(V, C, scale=1.0)}

    def attention(p, table):
        w[p + ".q.weight"] = rand(H * D, C, scale=0.4)
        w[p + ".k.weight"] = rand(H * D, C, scale=0.4)
        w[p + ".v.weight"] = rand(H * D, C)
        w[p + ".o.weight"] = rand(C, H * D)
        if table:
            w[p + ".relative_attention_bias.weight"] = rand(B, H, scale=1.0)

    def norm(p):
        w[p + ".weight"] = 1.0 + rand(C, scale=0.1)

    for stack, n in (("encoder", cfg["num_layers"]), ("decoder", cfg["num_decoder_layers"])):
        for i in range(n):
            p = f"{stack}.block.{i}.layer"
            attention(p + ".0.SelfAttention", i == 0)
            norm(p + ".0.layer_norm")
            k = 1
            if stack == "decoder":
                attention(p + ".1.EncDecAttention", False)
                norm(p + ".1.layer_norm")
                k = 2
            ff = f"{p}.{k}.DenseReluDense"
            if gated(cfg):
                w[ff + ".wi_0.weight"], w[ff + ".wi_1.weight"] = rand(F, C), rand(F, C)
            else:
                w[ff + ".wi.weight"] = rand(F, C)
            w[ff + ".wo.weight"] = rand(C, F)
            norm(f"{p}.{k}.layer_norm")
        norm(f"{stack}.final_layer_norm")
    if not tied(cfg):
        w["lm_head.weight"] = rand(V, C, scale=0.5)
    return w


# ----------------------------------------------------------------------------
# the reference: modeling_t5.py
# ----------------------------------------------------------------------------

def relative_position_bucket(torch, relative_position, bidirectional, num_buckets, max_distance):
    """T5Attention._relative_position_bucket, as the module computes it (the large offsets' log in float32)."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    if_large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)).to(torch.long)
    if_large = torch.min(if_large, torch.full_like(if_large, num_buckets - 1))
    return relative_buckets + torch.where(is_small, relative_position, if_large)


def buckets_of(torch, n_q, n_k, bidirectional, cfg):
    """T5Attention.compute_bias's bucket of each (query, key): (q, k)."""
    context = torch.arange(n_q, dtype=torch.long)[:, None]
    memory = torch.arange(n_k, dtype=torch.long)[None, :]
    return relative_position_bucket(torch, memory - context, bidirectional, cfg["relative_attention_num_buckets"],
                                    cfg["relative_attention_max_distance"])


def independent_bucket(offset, bidirectional, num_buckets, max_distance):
    """The bucket of key − query = offset from the definition, in float64."""
    base = 0
    if bidirectional:
        num_buckets //= 2
        base = num_buckets if offset > 0 else 0
        n = abs(offset)
    else:
        n = max(-offset, 0)
    exact = num_buckets // 2
    if n < exact:
        return base + n
    return base + min(num_buckets - 1, exact + int(math.log(n / exact) / math.log(max_distance / exact)
                                                   * (num_buckets - exact)))


def hf_forward(torch, cfg, w, src, tgt, use_bias=True, rescale=True, decoder_bidirectional=False):
    F_ = torch.nn.functional
    C, H, D = cfg["d_model"], cfg["num_heads"], cfg["d_kv"]
    eps = cfg["layer_norm_epsilon"]
    out = {}
    if gated(cfg):
        act = {"gelu": lambda x: F_.gelu(x, approximate="tanh"), "relu": F_.relu, "silu": F_.silu}[
            cfg["feed_forward_proj"].split("-")[1]]  # "gated-gelu" is gelu_new (the tanh form)
    else:
        act = {"relu": F_.relu, "gelu": F_.gelu}[cfg["feed_forward_proj"]]

    def rms(x, p):  # T5LayerNorm
        variance = x.pow(2).mean(-1, keepdim=True)
        return w[p + ".weight"] * (x * torch.rsqrt(variance + eps))

    def attention(x, kv, p, bias, path):
        q = (x @ w[p + ".q.weight"].T).view(len(x), H, D).transpose(0, 1)  # (H, N, D)
        k = (kv @ w[p + ".k.weight"].T).view(len(kv), H, D).transpose(0, 1)
        v = (kv @ w[p + ".v.weight"].T).view(len(kv), H, D).transpose(0, 1)
        out[path + ".q"], out[path + ".k"], out[path + ".v"] = q, k, v
        scores = torch.matmul(q, k.transpose(1, 2))  # no 1/√D
        out[path + ".scores"] = scores
        if bias is not None:
            scores = scores + bias
        weights = F_.softmax(scores.float() if scores.dtype == torch.float32 else scores, dim=-1).type_as(scores)
        out[path + ".weights"] = weights
        context = torch.matmul(weights, v).transpose(0, 1).reshape(len(x), H * D)
        o = context @ w[p + ".o.weight"].T
        out[path + ".out"] = o
        return o

    def ffn(x, p, path):
        if gated(cfg):
            gate = x @ w[p + ".wi_0.weight"].T
            a = act(gate)
            up = x @ w[p + ".wi_1.weight"].T
            out[path + ".gate"], out[path + ".activation"], out[path + ".up"] = gate, a, up
            h = a * up
            out[path + ".gated"] = h
        else:
            hidden = x @ w[p + ".wi.weight"].T
            h = act(hidden)
            out[path + ".hidden"], out[path + ".activation"] = hidden, h
        y = h @ w[p + ".wo.weight"].T
        out[path + ".out"] = y
        return y

    def position_bias(stack, n, bidirectional, path):  # compute_bias of block 0, reused by every block
        table = w[f"{stack}.block.0.layer.0.SelfAttention.relative_attention_bias.weight"]  # (buckets, H)
        values = table[buckets_of(torch, n, n, bidirectional, cfg)]  # (q, k, H)
        bias = values.permute([2, 0, 1])  # (H, q, k)
        out[path] = bias
        return bias

    E = w["shared.weight"]
    S, T = len(src), len(tgt)
    x = E[torch.tensor(src)]
    out["src.embed"] = x
    bias = position_bias("encoder", S, True, "encoder.position_bias") if use_bias else None
    for i in range(cfg["num_layers"]):
        p, s = f"encoder.block.{i}.layer", f"encoder.layers.{i}."
        n = rms(x, p + ".0.layer_norm")
        out[s + "norm1"] = n
        x = x + attention(n, n, p + ".0.SelfAttention", bias, s + "self_attn")
        out[s + "residual1"] = x
        n = rms(x, p + ".1.layer_norm")
        out[s + "norm2"] = n
        x = x + ffn(n, p + ".1.DenseReluDense", s + "ffn")
        out[s + "residual2"] = x
    memory = rms(x, "encoder.final_layer_norm")
    out["encoder.output"] = memory

    causal = torch.triu(torch.full((T, T), torch.finfo(E.dtype).min, dtype=E.dtype), diagonal=1)
    y = E[torch.tensor(tgt)]
    out["tgt.embed"] = y
    dbias = position_bias("decoder", T, decoder_bidirectional, "decoder.position_bias") if use_bias else None
    self_bias = causal if dbias is None else dbias + causal
    for i in range(cfg["num_decoder_layers"]):
        p, s = f"decoder.block.{i}.layer", f"decoder.layers.{i}."
        n = rms(y, p + ".0.layer_norm")
        out[s + "norm1"] = n
        y = y + attention(n, n, p + ".0.SelfAttention", self_bias, s + "self_attn")
        out[s + "residual1"] = y
        n = rms(y, p + ".1.layer_norm")
        out[s + "norm2"] = n
        y = y + attention(n, memory, p + ".1.EncDecAttention", None, s + "cross_attn")
        out[s + "residual2"] = y
        n = rms(y, p + ".2.layer_norm")
        out[s + "norm3"] = n
        y = y + ffn(n, p + ".2.DenseReluDense", s + "ffn")
        out[s + "residual3"] = y
    y = rms(y, "decoder.final_layer_norm")
    out["decoder.output"] = y
    if tied(cfg):
        logits = (y * C ** -0.5 if rescale else y) @ E.T
    else:
        logits = y @ w["lm_head.weight"].T
    out["logits"] = logits
    return out


# ----------------------------------------------------------------------------
# building and checking one case
# ----------------------------------------------------------------------------


def stored(out):
    """The steps the expected file keeps: all but the raw scores (the C++ side recomputes them on demand)."""
    return {k: v for k, v in out.items() if not k.endswith(".scores")}


def build_case(torch, name, description, spec):
    cfg, src, tgt = spec["config"], spec["src"], spec["tgt"]
    V = cfg["vocab_size"]
    assert max(src + tgt) < V and src[-1] == cfg["eos_token_id"] and tgt[0] == cfg["decoder_start_token_id"]
    assert cfg["pad_token_id"] not in tgt[1:] and cfg["pad_token_id"] not in src
    w = make_weights(torch, cfg, spec["seed"])
    report = {}
    with torch.no_grad():
        out = hf_forward(torch, cfg, w, src, tgt)
        B, M = cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"]
        n = max(len(src), len(tgt), 40)
        for bidirectional in (True, False):
            got = buckets_of(torch, n, n, bidirectional, cfg)
            for i in range(n):
                for j in range(n):
                    want = independent_bucket(j - i, bidirectional, B, M)
                    if int(got[i, j]) != want:
                        fail(f"{name}: bucket of offset {j - i} (bidirectional {bidirectional}) is {int(got[i, j])},"
                             f" the definition gives {want}")
        report["buckets of offsets -6..6, encoder"] = [int(buckets_of(torch, 7, 7, True, cfg)[6, j]) for j in range(7)] \
            + [int(buckets_of(torch, 7, 7, True, cfg)[0, j]) for j in range(1, 7)]
        report["buckets of offsets 0..-7, decoder"] = [int(buckets_of(torch, 8, 8, False, cfg)[7, 7 - j])
                                                       for j in range(8)]
        effects = {"no position bias": hf_forward(torch, cfg, w, src, tgt, use_bias=False),
                   "decoder buckets bidirectional": hf_forward(torch, cfg, w, src, tgt, decoder_bidirectional=True)}
        if tied(cfg):
            effects["no d_model^-0.5 before the tied head"] = hf_forward(torch, cfg, w, src, tgt, rescale=False)
        for what, other in effects.items():
            d = float((other["logits"] - out["logits"]).abs().max())
            if d <= MIN_EFFECT:
                fail(f"{name}: {what} changes the logits by only {d:.3g}")
            report[f"{what}: logits move by (abs)"] = d
        causal = out["decoder.layers.0.self_attn.weights"]
        if float(torch.triu(causal, diagonal=1).abs().max()) != 0.0:
            fail(f"{name}: the decoder sees a later key")

    tensors = dict(w)
    if spec["tied_copies"]:  # older checkpoints keep the tied copies of shared; nothing reads them
        for stack in ("encoder", "decoder"):
            tensors[f"{stack}.embed_tokens.weight"] = w["shared.weight"]
    metadata = {"src_ids": json.dumps(src), "tgt_ids": json.dumps(tgt), "case": name, "description": description,
                **spec.get("texts", {})}
    return tensors, stored(out), metadata, report


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    names = []
    spiece, sp = train_spiece()
    for name, description, spec in cases(sp):
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
        if "texts" in spec:
            with open(os.path.join(folder, "spiece.model"), "wb") as f:
                f.write(spiece)
        names.append(name)
        sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
        print(f"{name}: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))
        for key, value in report.items():
            print(f"    {key}: {value:.3g}" if isinstance(value, float) else f"    {key}: {value}")
    import make_grad_golden  # noqa: E402  (its Case reads the folders just written)
    torch.set_num_threads(1)
    ok = True
    for name in names:
        ok = make_grad_golden.make_file(name, os.path.join(name, "grads.safetensors"), None) and ok
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
