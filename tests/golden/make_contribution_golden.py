#!/usr/bin/python3
"""Contribution graph oracle for `attnlab-cli flow` / core/analysis/contribution_graph.

The contribution graph of Ferrando & Voita, "Information Flow Routes: Automatically Interpreting Language Models at
Scale" (2024), as Meta's LLM Transparency Tool computes it (facebookresearch/llm-transparency-tool,
llm_transparency_tool/routes/contributions.py get_contributions, get_attention_contributions, get_mlp_contributions,
apply_threshold_and_renormalize; routes/graph.py build_full_graph, build_paths_to_predictions):

  a block's sum at position t, whole = r_in + Σ parts; each part's proximity
      max(EPS, ‖whole‖₁ − pairwise_distance(part, whole, p=1)),  EPS = 1e-5
  (torch's pairwise_distance, whose eps 1e-6 is added to the difference), divided by their sum;
  attention parts: every head h through every key j, w[h, t, j] · W_O[:, h·D:(h+1)·D] · V[g(h), j], and r_in
  (b_O is in the whole, no part); FFN parts: the FFN's output row and r_in.
  The route for a token at threshold τ: each block's parts > τ kept and renormalised, then every node reachable
  from the token's last node along kept edges.

The forwards are make_attribution_golden.py's (gpt2_run, llama_run, ours_run: each checked there against the
fixtures' expected logits, and here again within 1e-4); their recorded events (the embeddings, each attention's
per-head weights, V and W_O, each FFN's output, each post-LN norm's input) are replayed into the decoder's stream.

Writes fixtures/contribution.json: per case the fixture, ids, and per block (stream order) its kind, layer,
per position the head shares [t][h][j], the FFN share [t] and the residual share [t]; and for a token and a
threshold the route's nodes [block, position] (block −1: the embeddings).

    /usr/bin/python3 tests/golden/make_contribution_golden.py
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail  # noqa: E402
from make_attribution_golden import expected_of, gpt2_run, llama_run, ours_run  # noqa: E402

TOL = 1e-4
EPS = 1e-5


def contributions(parts, whole):
    """parts (P, T, C), whole (T, C) -> (P, T): the tool's get_contributions with distance_norm = 1."""
    distance = F.pairwise_distance(parts, whole.expand(parts.shape), p=1)
    proximity = (torch.norm(whole, p=1, dim=-1) - distance).clip(min=EPS)
    return proximity / proximity.sum(dim=0, keepdim=True)


def replay(events):
    """The decoder stream's blocks from the recorded events: [(kind, name, heads (T, H, Tk) or None, ffn (T,) or
    None, residual (T,))]."""
    blocks = []
    x = None
    for ev in events:
        if ev[0] == "embed":
            x = ev[1]
        elif ev[0] == "attn":
            _, name, w, v, w_o, b_o = ev
            H, H_kv, D = w.shape[0], v.shape[0], v.shape[2]
            T, Tk = w.shape[1], w.shape[2]
            per = torch.zeros(H, Tk, T, w_o.shape[0])  # (H, Tk, T, C)
            for h in range(H):
                src = v[h // (H // H_kv)] @ w_o[:, h * D:(h + 1) * D].T  # (Tk, C)
                per[h] = w[h].T[:, :, None] * src[:, None, :]
            out = per.sum(dim=(0, 1)) + (0 if b_o is None else b_o)
            whole = x + out
            c = contributions(torch.cat([per.reshape(H * Tk, T, -1), x[None]]), whole)  # (H·Tk + 1, T)
            heads = c[:-1].reshape(H, Tk, T).permute(2, 0, 1)
            blocks.append(("attention", name, heads, None, c[-1]))
            x = whole
        elif ev[0] == "ffn":
            whole = x + ev[2]
            c = contributions(torch.stack([ev[2], x]), whole)
            blocks.append(("ffn", ev[1], None, c[0], c[1]))
            x = whole
        elif ev[0] == "norm":  # a post-LN sublayer norm (or the final norm, after the last block)
            _, _, row, g, b, eps = ev
            if float((row - x).abs().max()) > 1e-9:
                fail("a norm's input is not the replayed stream")
            if b is None:  # RMSNorm
                x = x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * g
            else:
                mu = x.mean(-1, keepdim=True)
                x = (x - mu) / torch.sqrt(((x - mu) ** 2).mean(-1, keepdim=True) + eps) * g + b
    return blocks


def route(blocks, token, tau):
    """The nodes the tool's build_paths_to_predictions reaches after apply_threshold_and_renormalize(τ)."""
    start = (len(blocks) - 1, token)
    seen, todo = {start}, [start]
    while todo:
        b, t = todo.pop()
        if b < 0:
            continue
        kind, _, heads, ffn, residual = blocks[b]
        froms = [t] if residual[t] > tau else []
        if kind == "ffn":
            froms += [t] if ffn[t] > tau else []
        elif "cross_attn" not in blocks[b][1]:
            keep = heads[t] > tau  # (H, Tk)
            froms += [j for j in range(keep.shape[1]) if bool(keep[:, j].any())]
        for j in froms:
            if (b - 1, j) not in seen:
                seen.add((b - 1, j))
                todo.append((b - 1, j))
    return sorted([list(n) for n in seen])


def layer_of(name):
    return int(name.split(".")[2])


CASES = [
    # (case, fixture, family, token, threshold)
    ("gpt2", "hf_gpt2", "gpt2", 8, 0.04),
    ("llama", "hf_llama", "llama", 5, 0.04),
    ("post_ln", "post_ln_relu", "ours", 3, 0.04),
]


def run_case(case, fixture, family, token, tau):
    src, tgt, types, want_logits = expected_of(fixture)
    folder = os.path.join(FIXTURES, fixture)
    if family == "gpt2":
        events, logits, _ = gpt2_run(folder, tgt)
    elif family == "llama":
        events, logits, _ = llama_run(folder, tgt)
    else:
        with torch.enable_grad():  # make_golden.torch_forward asserts it
            events, logits, _ = ours_run(folder + ".model.safetensors", src, tgt)
    diff = float((logits.detach() - want_logits).abs().max())
    if diff > TOL:
        fail("%s: this forward's logits differ from %s's expected ones by %.3g" % (case, fixture, diff))
    blocks = replay(events)
    out = []
    for kind, name, heads, ffn, residual in blocks:
        total = residual + (ffn if heads is None else heads.sum(dim=(1, 2)))
        if float((total - 1).abs().max()) > 1e-12:
            fail("%s: %s's shares do not sum to 1" % (case, name))
        out.append({"kind": kind, "name": name, "layer": layer_of(name), "residual": residual.tolist(),
                    "ffn": None if ffn is None else ffn.tolist(), "heads": None if heads is None else heads.tolist()})
    nodes = route(blocks, token, tau)
    print("%-8s %-14s %2d blocks, route from %d at %.2f: %d nodes (logits max diff %.2g)" %
          (case, fixture, len(blocks), token, tau, len(nodes), diff))
    return {"case": case, "fixture": fixture, "src_ids": src, "tgt_ids": tgt, "blocks": out, "token": token,
            "threshold": tau, "route_nodes": nodes}


def main():
    torch.set_default_dtype(torch.float64)
    cases = [run_case(*c) for c in CASES]
    path = os.path.join(FIXTURES, "contribution.json")
    with open(path, "w") as f:
        json.dump({"description": "contribution graph shares by make_contribution_golden.py (float64 PyTorch)",
                   "cases": cases}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    with torch.no_grad():  # the replay needs no gradients
        main()
