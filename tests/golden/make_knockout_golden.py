#!/usr/bin/python3
"""Attention knockout oracle for `attnlab-cli knockout` / core/analysis/attention_knockout.

A knockout blocks one query -> key edge of one attention at one layer, in one head or in every head: that score
becomes -inf before the softmax (the same as a mask cell, but in that layer only), so its weight is 0 and the
query's row renormalises over the other keys. The metric is read off the logits.

Forwards (float64), imported, not copied:
  GPT-2 (hf_gpt2)       make_patching_golden.gpt2_forward and llama_forward, whose causal_softmax is wrapped
  Llama (hf_llama)      here: the i-th call of a forward is layer i's softmax (Llama's after RoPE, over its
                        grouped K/V heads repeated to every query head)
  ours (post_ln_relu)   make_patching_golden.ours_runner (torch.nn.Transformer): nn.MultiheadAttention.forward
                        is wrapped; its calls in a forward are the encoder's self-attentions in layer order, then
                        each decoder layer's self-attention and cross-attention. The block is a float attn_mask
                        (H, Tq, Tk) of the attention's own mask plus -inf at the cell.
Each case also checks the wrapped forward without a block against the fixture's expected logits.

Writes fixtures/knockout.json: per case the fixture, ids, metric, attention, layer, head (-1: every head), the
metric before, and `after` (one edge) or `grid` (after - before for every edge; null where the mask blocks it).

    /usr/bin/python3 tests/golden/make_knockout_golden.py
"""
import json
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail  # noqa: E402
import make_patching_golden as mpg  # noqa: E402
from make_attribution_golden import expected_of, metric_of  # noqa: E402

TOL = 1e-4


class Block:
    """The edge to block in the next forward: (use, layer, head or -1, query, key); None blocks nothing."""

    def __init__(self):
        self.edge = None
        self.calls = 0  # attention calls so far in this forward

    def start(self, edge):
        self.edge = edge
        self.calls = 0

    def blocked(self, scores, use, layer):  # scores (H, Tq, Tk), already -inf where the mask blocks
        self.calls += 1
        if self.edge is None or self.edge[0] != use or self.edge[1] != layer:
            return scores
        _, _, head, q, k = self.edge
        scores = scores.clone()
        for h in range(scores.shape[0]):
            if head < 0 or head == h:
                scores[h, q, k] = float("-inf")
        return scores


BLOCK = Block()

# GPT-2: layer i's softmax is the i-th causal_softmax call of gpt2_forward
_causal_softmax = mpg.causal_softmax


def knocked_causal_softmax(scores):
    T = scores.shape[-1]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    layer = BLOCK.calls
    weights = torch.softmax(BLOCK.blocked(scores.masked_fill(causal, float("-inf")), "decoder-self", layer), dim=-1)
    # A query whose every key is blocked (query 0's one key): PyTorch's softmax gives NaN, the stepper's softmax of a
    # row masked whole gives zeros (a mask cell does the same); the reference follows the stepper there.
    return torch.nan_to_num(weights, nan=0.0)


mpg.causal_softmax = knocked_causal_softmax

# ours: each nn.MultiheadAttention call, in forward order
_mha_forward = nn.MultiheadAttention.forward
OURS_ORDER = []  # (use, layer) of each call, set per model


def knocked_mha_forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                        average_attn_weights=True):
    use, layer = OURS_ORDER[BLOCK.calls]
    H, Tq, Tk = self.num_heads, query.shape[1], key.shape[1]
    if BLOCK.edge is not None and BLOCK.edge[:2] == (use, layer):
        base = torch.zeros(H, Tq, Tk, dtype=query.dtype)
        if attn_mask is not None:
            base = base.masked_fill(attn_mask.bool(), float("-inf")) if attn_mask.dtype == torch.bool \
                else base + attn_mask
        attn_mask = BLOCK.blocked(base, use, layer)
    else:
        BLOCK.calls += 1
    return _mha_forward(self, query, key, value, key_padding_mask=key_padding_mask, need_weights=need_weights,
                        attn_mask=attn_mask, average_attn_weights=average_attn_weights)


nn.MultiheadAttention.forward = knocked_mha_forward


def runner(fixture, family):
    if family in ("gpt2", "llama"):
        return mpg.hf_runner(fixture, family, None)[0]
    meta, _ = mpg.read_tensors(os.path.join(FIXTURES, fixture + ".model.safetensors"))
    cfg = json.loads(meta["config"])
    OURS_ORDER[:] = [("encoder-self", i) for i in range(cfg["n_encoder_layers"])]
    for i in range(cfg["n_decoder_layers"]):
        OURS_ORDER.extend([("decoder-self", i), ("cross", i)])
    return mpg.ours_runner(fixture)[0]


def metric(run, src, tgt, spec, edge):
    BLOCK.start(edge)
    try:
        return metric_of(run(src, tgt, mpg.Probe()).detach(), spec)
    finally:
        BLOCK.start(None)


CASES = [
    # (case, fixture, family, metric, attention, layer, head, edge (query, key) or None for the grid)
    ("gpt2-edge-all", "hf_gpt2", "gpt2", "logit-diff:7,23@8", "decoder-self", 1, -1, (8, 3)),
    ("gpt2-edge-head", "hf_gpt2", "gpt2", "logit:7@8", "decoder-self", 0, 2, (5, 0)),
    ("gpt2-grid-head", "hf_gpt2", "gpt2", "logit-diff:7,23@8", "decoder-self", 1, 3, None),
    ("llama-edge-all", "hf_llama", "llama", "logit-diff:14,3@8", "decoder-self", 1, -1, (8, 2)),
    ("llama-grid-head", "hf_llama", "llama", "logit-diff:14,3@8", "decoder-self", 0, 1, None),
    ("ours-encoder", "post_ln_relu", "ours", "logit-diff:7,3@2", "encoder-self", 1, 0, (2, 4)),
    ("ours-decoder", "post_ln_relu", "ours", "logit-diff:7,3@2", "decoder-self", 0, -1, (2, 1)),
    ("ours-cross-grid", "post_ln_relu", "ours", "logit:9@3", "cross", 1, -1, None),
]


def main():
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(True)
    out = []
    for case, fixture, family, spec, use, layer, head, edge in CASES:
        src, tgt, _, want_logits = expected_of(fixture)
        run = runner(fixture, family)
        BLOCK.start(None)
        diff = float((run(src, tgt, mpg.Probe()).detach() - want_logits).abs().max())
        if diff > TOL:
            fail("%s: the wrapped forward's logits differ from %s's expected ones by %.3g" % (case, fixture, diff))
        before = metric(run, src, tgt, spec, None)
        entry = {"case": case, "fixture": fixture, "metric": spec, "attention": use, "layer": layer, "head": head,
                 "src_ids": src, "tgt_ids": tgt, "before": before}
        if edge is not None:
            entry["edge"] = list(edge)
            entry["after"] = metric(run, src, tgt, spec, (use, layer, head) + edge)
            print("%-16s %-12s layer %d head %2d edge %s: %.6f -> %.6f" %
                  (case, use, layer, head, edge, before, entry["after"]))
        else:
            Tq = len(tgt) if use != "encoder-self" else len(src)
            Tk = len(src) if use != "decoder-self" else len(tgt)
            grid = []
            for q in range(Tq):
                row = []
                for k in range(Tk):
                    keys = tgt if use == "decoder-self" else src
                    blocked_by_mask = (use == "decoder-self" and k > q) or (family == "ours" and keys[k] == mpg.PAD)
                    row.append(None if blocked_by_mask else metric(run, src, tgt, spec, (use, layer, head, q, k)) - before)
                grid.append(row)
            entry["grid"] = grid
            print("%-16s %-12s layer %d head %2d grid %dx%d, before %.6f" % (case, use, layer, head, Tq, Tk, before))
        out.append(entry)
    path = os.path.join(FIXTURES, "knockout.json")
    with open(path, "w") as f:
        json.dump({"description": "attention knockout by make_knockout_golden.py (float64 PyTorch)", "cases": out},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
