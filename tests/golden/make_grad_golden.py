#!/usr/bin/python3
"""Gradient golden fixtures for Attention Lab (PyTorch autograd oracle).

For every forward golden case (the paper models of make_golden.py and the Hugging Face folders of
make_hf_golden.py, make_hf_llama_golden.py and make_hf_marian_golden.py) this script reads the
committed model and expected files (it never writes them), runs the same forward code those scripts
use -- imported from them, with autograd on -- in float64 from the F32 weights, takes one scalar
loss of the logits, and writes

  fixtures/<case>.grads.safetensors         (paper cases)
  fixtures/<hf case>/grads.safetensors      (Hugging Face folders)

plus two files for the other loss kinds: fixtures/hf_gpt2/grads_logit_diff.safetensors and
fixtures/post_ln_relu.grads_token.safetensors. All tensors F32:

  loss            (1,)
  grad.<path>     d loss / d (the step's output) for every tensor of the expected file that depends on
                  the parameters (constants such as rope.inv_freq, src.pos, tgt.pos are left out),
                  same shape as the expected tensor
  param.<name>    d loss / d (the model file's tensor) for every tensor the forward reads, under the
                  file's name and in its stored shape (a tied table: the sum of its uses)

Metadata (strings): loss (the spec, as `attnlab-cli grad --loss` takes it), loss_value (repr of the
float64 loss), src_ids, tgt_ids (copied from the expected file; hf_bert also src_token_types), case,
description.

Losses (logits (N, V) of the sequence the model computes them on; ids = tgt_ids for decoder-only and
encoder-decoder models):
  next-token          mean over t = 0..N-2 with ids[t+1] != pad of -log softmax(logits[t])[ids[t+1]]
  token:ID@POS        -log softmax(logits[POS])[ID]
  logit-diff:A,B@POS  logits[POS][A] - logits[POS][B]

Checks (exit 1 on any failure): the forward reproduces every stored step (1e-5 relative to the step's
largest |value|) and the loss of the stored logits (1e-5); float32 autograd agrees with float64
(1e-4 relative to each tensor's largest |gradient|); central finite differences in float64 agree
with autograd at fixed entries of several parameters per case (1e-6 relative).

Run it after the forward scripts (it reads their files; make_hf_marian_golden.py deletes and rewrites its
folders, grads.safetensors included). The committed files were made with the reference BLAS, as
make_golden.py's: under OpenBLAS only float64 rounding noise moves (the key-bias gradients that are zero
in exact arithmetic, and the last digits of one loss_value).

    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas /usr/bin/python3 tests/golden/make_grad_golden.py
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_golden  # noqa: E402
import make_hf_golden  # noqa: E402
import make_hf_llama_golden  # noqa: E402
import make_hf_marian_golden  # noqa: E402
import make_hf_t5_golden  # noqa: E402
import make_hf_bloom_golden  # noqa: E402
import make_hf_gemma_golden  # noqa: E402
import make_hf_modernbert_golden  # noqa: E402
from hf_fixture_io import FIXTURES, read_safetensors, whole_f32, write_safetensors  # noqa: E402

STEP_TOL = 1e-5      # recomputed step vs expected file, relative to the step's max |value|
LOSS_TOL = 1e-5      # loss of our float64 logits vs loss of the stored logits, absolute
F32_TOL = 1e-4       # float32 vs float64 gradient, relative to the tensor's max |float64 gradient|
FD_TOL = 1e-6        # finite difference vs autograd, relative to |autograd|
FD_H = 1e-6          # central difference step (absolute)
# A tensor whose float64 gradient is below this times the case's largest gradient is zero in exact
# arithmetic (attention key biases: q·b_k is the same for every key of a row, and softmax drops it);
# its float64 and float32 values are rounding noise, checked against this bound instead.
ZERO_REL = 1e-9
ZERO_F32 = 1e-6

# Constant steps of the expected files: they depend on no parameter, so they get no grad entry.
CONSTANT_STEPS = {"rope.inv_freq", "src.pos", "tgt.pos"}
# and those of one family: ALiBi's bias (BLOOM's) is fixed; T5's position_bias is learned, so not there.
FAMILY_CONSTANT_STEPS = {"bloom": {"decoder.position_bias"}}

# Tensors of the model files that no forward reads (buffers of the hub files); no param entry.
UNREAD = {
    "gpt2": lambda n: n.endswith(".attn.bias") or n.endswith(".attn.masked_bias"),
    "bert": lambda n: n == "bert.embeddings.position_ids",
    "llama": lambda n: n.endswith(".rotary_emb.inv_freq"),
    "marian": lambda n: n.endswith(".embed_positions.weight"),
    "t5": lambda n: n.endswith(".embed_tokens.weight"),  # the tied copies of shared
    "bloom": lambda n: False,
    "gemma": lambda n: False,
    "modernbert": lambda n: False,
    "paper": lambda n: False,
}

PAPER_CASES = ["post_ln_relu", "pre_ln_gelu", "learned_pe", "decoder_only", "encoder_only", "no_pe_h1"]
HF_CASES = ["hf_gpt2", "hf_bert", "hf_llama", "hf_llama3_scaled", "hf_llama_linear", "hf_mistral", "hf_qwen2",
            "hf_qwen3", "hf_marian", "hf_marian_untied", "hf_bloom",
            "hf_gemma2", "hf_gemma3", "hf_smollm3", "hf_modernbert"]

# (case, output file name, loss spec or None for the case's default)
OUTPUTS = [(c, c + ".grads.safetensors", None) for c in PAPER_CASES] + \
          [(c, os.path.join(c, "grads.safetensors"), None) for c in HF_CASES] + [
    ("post_ln_relu", "post_ln_relu.grads_token.safetensors", "token:5@2"),
    ("hf_gpt2", os.path.join("hf_gpt2", "grads_logit_diff.safetensors"), "logit-diff:12,30@4"),
]
# Encoder-only defaults: a token loss at position 1, for an id other than src_ids[1].
TOKEN_DEFAULT = {"encoder_only": "token:9@1", "hf_bert": "token:25@1", "hf_modernbert": "token:300@4"}


# ----------------------------------------------------------------------------
# the cases: model, ids and the forward each one's golden script runs
# ----------------------------------------------------------------------------

class Case:
    def __init__(self, name):
        self.name = name
        if name in PAPER_CASES:
            self.family = "paper"
            mmeta, self.tensors = read_safetensors(os.path.join(FIXTURES, name + ".model.safetensors"))
            self.cfg = json.loads(mmeta["config"])
            self.emeta, expected = read_safetensors(os.path.join(FIXTURES, name + ".expected.safetensors"))
            self.pad = self.cfg["pad_id"]
            self.encoder_only = self.cfg["arch"] == "encoder_only"
        else:
            folder = os.path.join(FIXTURES, name)
            with open(os.path.join(folder, "config.json")) as f:
                self.cfg = json.load(f)
            _, self.tensors = read_safetensors(os.path.join(folder, "model.safetensors"))
            self.emeta, expected = read_safetensors(os.path.join(folder, "expected.safetensors"))
            t = self.cfg["model_type"]
            self.family = {"gpt2": "gpt2", "bert": "bert", "marian": "marian", "t5": "t5", "bloom": "bloom",
                           "gemma2": "gemma", "gemma3_text": "gemma", "modernbert": "modernbert"}.get(t, "llama")
            self.pad = self.cfg.get("pad_token_id")  # None: the config names no padding token
            self.encoder_only = t in ("bert", "modernbert")
        self.expected = expected
        self.expected_order = list(expected)
        self.src_ids = json.loads(self.emeta["src_ids"])
        self.tgt_ids = json.loads(self.emeta["tgt_ids"])

    def leaves(self, dtype):
        """The model file's float tensors as leaves requiring grad, in `dtype`; integer buffers as is."""
        out = {}
        for name, a in self.tensors.items():
            t = torch.from_numpy(a.copy())
            if t.is_floating_point():
                t = t.to(dtype).requires_grad_(True)
            out[name] = t
        return out

    def forward(self, p):
        """The expected steps (and logits) as tensors on the autograd path of the logits."""
        f = self.family
        if f == "paper":
            q = dict(p)
            if self.cfg["tie_embeddings"]:  # LabModel: generator.weight is the embedding table itself
                q["generator.weight"] = q["src_embed.weight" if self.encoder_only else "tgt_embed.weight"]
            return make_golden.ref_forward(q, self.cfg, self.src_ids, self.tgt_ids)
        if f == "gpt2":
            return make_hf_golden.gpt2_forward(p, self.cfg, self.tgt_ids)
        if f == "bert":
            b = {k[len("bert."):]: v for k, v in p.items() if k.startswith("bert.")}
            head = {k: v for k, v in p.items() if k.startswith("cls.")}
            return make_hf_golden.bert_forward(b, head, self.cfg, self.src_ids,
                                               json.loads(self.emeta["src_token_types"]))
        if f == "llama":
            a = make_hf_llama_golden.Arch(self.cfg)
            inv_freq = make_hf_llama_golden.hf_inv_freq(torch, a.theta, a.D, a.rope_scaling)
            cos, sin = make_hf_llama_golden.hf_rope_table(torch, inv_freq, len(self.tgt_ids))
            out = make_hf_llama_golden.hf_forward(torch, a, p, self.tgt_ids, cos, sin)
            out["rope.inv_freq"] = inv_freq.double()
            return out
        if f == "marian":
            return make_hf_marian_golden.hf_forward(torch, self.cfg, p, self.src_ids, self.tgt_ids)
        if f == "t5":
            return make_hf_t5_golden.hf_forward(torch, self.cfg, p, self.src_ids, self.tgt_ids)
        if f == "bloom":
            return make_hf_bloom_golden.hf_forward(torch, self.cfg, p, self.tgt_ids)
        if f == "gemma":
            return make_hf_gemma_golden.hf_forward(torch, self.cfg, p, self.tgt_ids)
        if f == "modernbert":
            return make_hf_modernbert_golden.hf_forward(torch, self.cfg, p, self.src_ids)
        raise ValueError(f)

    def default_loss(self):
        return TOKEN_DEFAULT[self.name] if self.encoder_only else "next-token"

    def fd_entries(self, g):
        """Fixed (parameter, flat index) pairs for the finite differences: an entry of the embedding row of
        the input's second token, of the first layer's attention (query) weight, of the last layer's FFN
        output weight, of the first norm gain, and of the unembedding; each the largest-|gradient| entry of
        that row / tensor, plus for the matrices the entry of rank n/8 by |gradient|."""
        f = self.family
        ids = self.src_ids if self.encoder_only else self.tgt_ids
        if f == "paper":
            Ld = self.cfg["n_decoder_layers"]
            emb = "src_embed.weight" if self.encoder_only else "tgt_embed.weight"
            stack, last = ("encoder", self.cfg["n_encoder_layers"] - 1) if Ld == 0 else ("decoder", Ld - 1)
            first = "encoder" if self.cfg["n_encoder_layers"] else "decoder"
            names = [f"{first}.layers.0.self_attn.in_proj_weight", f"{stack}.layers.{last}.linear2.weight",
                     f"{first}.layers.0.norm1.weight"]
            if "generator.weight" in self.tensors:
                names.append("generator.weight")
        elif f == "gpt2":
            emb = "wte.weight"
            L = self.cfg["n_layer"]
            names = ["h.0.attn.c_attn.weight", f"h.{L - 1}.mlp.c_proj.weight", "h.0.ln_1.weight", "ln_f.weight"]
        elif f == "bert":
            emb = "bert.embeddings.word_embeddings.weight"
            L = self.cfg["num_hidden_layers"]
            names = ["bert.encoder.layer.0.attention.self.query.weight", f"bert.encoder.layer.{L - 1}.output.dense.weight",
                     "bert.embeddings.LayerNorm.weight", "cls.predictions.transform.dense.weight"]
        elif f == "llama":
            emb = "model.embed_tokens.weight"
            L = self.cfg["num_hidden_layers"]
            names = ["model.layers.0.self_attn.q_proj.weight", f"model.layers.{L - 1}.mlp.down_proj.weight",
                     "model.layers.0.input_layernorm.weight", "model.norm.weight"]
            if self.cfg["model_type"] == "qwen3":
                names.append("model.layers.0.self_attn.k_norm.weight")
            if not self.cfg.get("tie_word_embeddings", False):
                names.append("lm_head.weight")
        elif f == "bloom":
            emb = "transformer.word_embeddings.weight"
            L = self.cfg["n_layer"]
            names = ["transformer.h.0.self_attention.query_key_value.weight", f"transformer.h.{L - 1}.mlp.dense_4h_to_h.weight",
                     "transformer.h.0.input_layernorm.weight", "transformer.word_embeddings_layernorm.weight",
                     "transformer.ln_f.bias"]
        elif f == "gemma":
            emb = "model.embed_tokens.weight"  # tied: also the unembedding
            L = self.cfg["num_hidden_layers"]
            names = ["model.layers.0.self_attn.q_proj.weight", f"model.layers.{L - 1}.mlp.down_proj.weight",
                     "model.layers.0.input_layernorm.weight", "model.layers.0.post_attention_layernorm.weight",
                     "model.layers.1.post_feedforward_layernorm.weight", "model.norm.weight"]
            if self.cfg["model_type"] == "gemma3_text":
                names.append("model.layers.0.self_attn.k_norm.weight")
        elif f == "modernbert":
            emb = "model.embeddings.tok_embeddings.weight"  # tied: also the unembedding
            L = self.cfg["num_hidden_layers"]
            names = ["model.layers.0.attn.Wqkv.weight", f"model.layers.{L - 1}.mlp.Wo.weight",
                     "model.layers.1.attn_norm.weight", "model.embeddings.norm.weight", "model.layers.0.mlp.Wi.bias",
                     "head.dense.weight", "head.norm.weight", "decoder.bias"]
        elif f == "t5":
            emb = "shared.weight"
            L = self.cfg["num_decoder_layers"]
            ff = "wi_1" if make_hf_t5_golden.gated(self.cfg) else "wi"
            names = ["encoder.block.0.layer.0.SelfAttention.q.weight", f"decoder.block.{L - 1}.layer.2.DenseReluDense.wo.weight",
                     "encoder.block.0.layer.0.layer_norm.weight", "decoder.block.0.layer.1.EncDecAttention.k.weight",
                     "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                     "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                     f"encoder.block.0.layer.1.DenseReluDense.{ff}.weight"]
            if not make_hf_t5_golden.tied(self.cfg):
                names.append("lm_head.weight")
        else:
            emb = "model.shared.weight"
            L = self.cfg["decoder_layers"]
            names = ["model.encoder.layers.0.self_attn.q_proj.weight", f"model.decoder.layers.{L - 1}.fc2.weight",
                     "model.encoder.layers.0.self_attn_layer_norm.weight", "model.decoder.layers.0.encoder_attn.k_proj.weight",
                     "final_logits_bias"]
        entries = []
        row = g[emb][ids[1]]
        entries.append((emb, ids[1] * row.numel() + int(row.abs().argmax())))
        for n in names:
            flat = g[n].reshape(-1).abs()
            order = sorted(range(flat.numel()), key=lambda i: (-float(flat[i]), i))
            entries.append((n, order[0]))
            if g[n].dim() == 2 and g[n].shape[0] > 1:
                entries.append((n, order[flat.numel() // 8]))
        return entries


# ----------------------------------------------------------------------------
# losses
# ----------------------------------------------------------------------------

def parse_loss(spec):
    """('next-token',) | ('token', ID, POS) | ('logit-diff', A, B, POS)."""
    if spec == "next-token":
        return ("next-token",)
    kind, rest = spec.split(":", 1)
    what, pos = rest.split("@")
    if kind == "token":
        return ("token", int(what), int(pos))
    if kind == "logit-diff":
        a, b = what.split(",")
        return ("logit-diff", int(a), int(b), int(pos))
    raise ValueError(spec)


def loss_of(logits, spec, ids, pad):
    """The scalar loss of logits (N, V); ids: the sequence the logits are computed on."""
    kind = parse_loss(spec)
    if kind[0] == "next-token":
        rows = [t for t in range(len(ids) - 1) if pad is None or ids[t + 1] != pad]
        lp = torch.log_softmax(logits[rows], dim=-1)
        return -torch.stack([lp[n, ids[t + 1]] for n, t in enumerate(rows)]).mean()
    if kind[0] == "token":
        _, tok, pos = kind
        return -torch.log_softmax(logits[pos], dim=-1)[tok]
    _, a, b, pos = kind
    return logits[pos, a] - logits[pos, b]


# ----------------------------------------------------------------------------
# one output file
# ----------------------------------------------------------------------------

def final_logits(out):
    """The logits the loss reads: Gemma 2's soft-capped ones when the model caps them."""
    return out["capped_logits"] if "capped_logits" in out else out["logits"]


def rel(got, want):
    got, want = got.double(), want.double()
    scale = float(want.abs().max())
    return float((got - want).abs().max()) / scale if scale > 0 else float((got - want).abs().max())


def run(case, spec):
    """Autograd in `dtype`: (loss, {step: grad}, {param: grad}, {step: value})."""
    def once(dtype):
        p = case.leaves(dtype)
        out = case.forward(p)
        steps = {}
        for k in case.expected_order:
            if k not in out:
                raise KeyError(f"{case.name}: the forward has no step {k}")
            if k in CONSTANT_STEPS or k in FAMILY_CONSTANT_STEPS.get(case.family, ()):
                continue
            if not out[k].requires_grad:
                raise RuntimeError(f"{case.name}: step {k} does not depend on the parameters")
            out[k].retain_grad()
            steps[k] = out[k]
        ids = case.src_ids if case.encoder_only else case.tgt_ids
        loss = loss_of(final_logits(out), spec, ids, case.pad)
        loss.backward()
        for k, t in steps.items():
            if t.grad is None:
                raise RuntimeError(f"{case.name}: step {k} is not on the autograd path of the logits")
        grads = {k: t.grad.detach().clone() for k, t in steps.items()}
        params = {n: t.grad.detach().clone() for n, t in p.items() if t.is_floating_point() and t.grad is not None}
        return loss.detach(), grads, params, {k: v.detach() for k, v in out.items()}
    return once


def make_file(case_name, rel_path, spec):
    case = Case(case_name)
    spec = spec or case.default_loss()
    errors = []
    kind = parse_loss(spec)
    if case_name in TOKEN_DEFAULT and kind[0] == "token" and kind[1] == case.src_ids[kind[2]]:
        errors.append(f"{spec}: the token is the input's own token at that position")
    torch.set_default_dtype(torch.float64)
    loss64, g64, p64, out64 = run(case, spec)(torch.float64)
    ids = case.src_ids if case.encoder_only else case.tgt_ids

    # the forward reproduces the fixture
    step_worst, step_name = 0.0, ""
    for k in case.expected_order:
        d = rel(out64[k], torch.from_numpy(case.expected[k]))
        if d > step_worst:
            step_worst, step_name = d, k
        if d > STEP_TOL:
            errors.append(f"step {k} differs from the expected file by {d:.3g} (relative)")
    stored_loss = float(loss_of(torch.from_numpy(final_logits(case.expected)).double(), spec, ids, case.pad))
    loss_gap = abs(stored_loss - float(loss64))
    if loss_gap > LOSS_TOL:
        errors.append(f"loss {float(loss64)!r} vs {stored_loss!r} from the stored logits")

    # the parameters read are the file's tensors less the known buffers
    unread = sorted(n for n in case.tensors if n not in p64)
    want_unread = sorted(n for n in case.tensors if UNREAD[case.family](n))
    if unread != want_unread:
        errors.append(f"unread tensors {unread}, expected {want_unread}")

    # float32 autograd
    torch.set_default_dtype(torch.float32)
    loss32, g32, p32, _ = run(case, spec)(torch.float32)
    torch.set_default_dtype(torch.float64)
    scale = max(float(t.abs().max()) for t in list(g64.values()) + list(p64.values()))
    f32_worst, f32_name, zeros = 0.0, "", []
    for kind, a64, a32 in (("grad.", g64, g32), ("param.", p64, p32)):
        for k in a64:
            m = float(a64[k].abs().max())
            if m <= ZERO_REL * scale:  # zero in exact arithmetic
                zeros.append(k)
                if float(a32[k].abs().max()) > ZERO_F32 * scale:
                    errors.append(f"{kind}{k}: float64 |g| <= {m:.2g} but float32 {float(a32[k].abs().max()):.2g}")
                continue
            d = rel(a32[k], a64[k])
            if d > f32_worst:
                f32_worst, f32_name = d, kind + k
            if d > F32_TOL:
                errors.append(f"{kind}{k}: float32 vs float64 gradient {d:.3g} (relative)")
    loss32_gap = abs(float(loss32) - float(loss64))

    # central finite differences in float64 through the same forward, without autograd
    entries = case.fd_entries(p64)
    p = case.leaves(torch.float64)
    fd_worst, fd_name = 0.0, ""
    with torch.no_grad():
        def loss_now():
            return float(loss_of(final_logits(case.forward(p)), spec, ids, case.pad))
        for name, i in entries:
            flat = p[name].view(-1)
            x0 = float(flat[i])
            flat[i] = x0 + FD_H
            up = loss_now()
            flat[i] = x0 - FD_H
            down = loss_now()
            flat[i] = x0
            fd = (up - down) / (2 * FD_H)
            ad = float(p64[name].reshape(-1)[i])
            d = abs(fd - ad) / abs(ad)
            if d > fd_worst:
                fd_worst, fd_name = d, f"{name}[{i}]"
            if not d <= FD_TOL:
                errors.append(f"finite difference {name}[{i}]: {fd:.12g} vs autograd {ad:.12g} ({d:.3g})")

    if errors:
        for e in errors:
            print(f"FAIL {case_name} ({spec}): {e}", file=sys.stderr)
        return False

    tensors = [("loss", loss64.reshape(1))]
    tensors += [("grad." + k, g64[k]) for k in case.expected_order if k in g64]
    tensors += [("param." + n, p64[n]) for n in case.tensors if n in p64]
    metadata = {"loss": spec, "loss_value": repr(float(loss64)),
                "src_ids": case.emeta["src_ids"], "tgt_ids": case.emeta["tgt_ids"]}
    if "src_token_types" in case.emeta:
        metadata["src_token_types"] = case.emeta["src_token_types"]
    forward = {"paper": "make_golden.ref_forward", "gpt2": "make_hf_golden.gpt2_forward",
               "bert": "make_hf_golden.bert_forward", "llama": "make_hf_llama_golden.hf_forward",
               "marian": "make_hf_marian_golden.hf_forward", "t5": "make_hf_t5_golden.hf_forward",
               "bloom": "make_hf_bloom_golden.hf_forward", "gemma": "make_hf_gemma_golden.hf_forward",
               "modernbert": "make_hf_modernbert_golden.hf_forward"}[case.family]
    metadata["case"] = case_name
    metadata["description"] = (f"d loss / d step (grad.*) and d loss / d parameter (param.*) for the loss {spec}, "
                               f"float64 autograd through {forward} from the F32 weights, stored F32")
    path = os.path.join(FIXTURES, rel_path)
    write_safetensors(path, [(k, *whole_f32(v.numpy())) for k, v in tensors], metadata)

    # read back
    meta, back = read_safetensors(path)
    assert meta == metadata and list(back) == [k for k, _ in tensors]
    for k, v in tensors:
        assert np.array_equal(back[k], v.numpy().astype("<f4")), k

    print(f"{rel_path}: {os.path.getsize(path)} B, {len(tensors)} tensors; loss {spec} = {float(loss64):.9g} "
          f"(stored logits: |diff| {loss_gap:.1e}); steps vs expected {step_worst:.1e} ({step_name}); "
          f"f32 vs f64 {f32_worst:.1e} ({f32_name}), loss {loss32_gap:.1e}; "
          f"finite differences {len(entries)} entries, worst {fd_worst:.1e} ({fd_name})"
          + (f"; zero in exact arithmetic: {', '.join(zeros)}" if zeros else ""))
    return True


def check_padding():
    """The next-token rule drops targets equal to the padding id; say where the hf ids hold one."""
    for name in HF_CASES:
        case = Case(name)
        if case.pad is None:
            if 0 in case.tgt_ids + case.src_ids:  # 0 is the paper models' pad_id: it is a word here
                print(f"note: {name}'s config names no pad_token_id; its ids hold 0 (a word) at "
                      f"{[i for i, t in enumerate(case.src_ids + case.tgt_ids) if t == 0]}")
            continue
        for side, ids in (("src_ids", case.src_ids), ("tgt_ids", case.tgt_ids)):
            where = [i for i, t in enumerate(ids) if t == case.pad]
            if where:
                print(f"note: {name} {side} hold the padding id {case.pad} at {where}")
        if not case.encoder_only and case.pad in case.tgt_ids[1:]:
            print(f"FAIL {name}: a next-token target is the padding id", file=sys.stderr)
            return False
    return True


def main():
    torch.set_num_threads(1)
    ok = check_padding()
    for case_name, rel_path, spec in OUTPUTS:
        ok = make_file(case_name, rel_path, spec) and ok
    if not ok:
        print("gradient fixtures FAILED", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
