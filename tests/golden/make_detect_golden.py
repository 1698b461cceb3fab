#!/usr/bin/python3
"""Head detector oracle for `attnlab-cli detect` / core/analysis/head_detectors.

For each case the sequence is the one our detector runs: the script asks `attnlab-cli detect MODEL --len L --seed S
[--bos B] --json` for its `ids` (BOS, x_0 … x_{L−1}, x_0 … x_{L−1}) and feeds them to a float64 PyTorch forward built
by the other oracles (not copied here):

  GPT-2 and Llama (hf_gpt2, hf_llama): make_attribution_golden.gpt2_run / llama_run, first checked against the
    fixture's expected logits on its own ids (≤ 1e-4, else exit 1); their ("attn", name, w (H, N, N), …) events hold
    every self-attention's weights;
  ours (the bundled en-ko model, an encoder-decoder): make_golden.LabModel, torch.nn.Transformer, run by
    make_golden.torch_forward with make_golden.install_capture's hooks on every nn.MultiheadAttention (the encoder's
    and the decoder's self-attentions both read the sequence; cross-attentions are skipped).

Scores per head, as TransformerLens's detectors read a pattern (query rows, key columns), p0 the BOS count:
  induction: the induction stripe pattern.diagonal(offset = 1 − L), i.e. weights[q][q − L + 1], averaged over the
    second copy's queries q = p0+L … p0+2L−1 (the key just after x_i's first occurrence);
  duplicate: pattern.diagonal(offset = −L), weights[q][q − L], over the same queries (x_i's first occurrence);
  previous:  pattern.diagonal(offset = −1), weights[q][q − 1], over every query q ≥ 1.

Writes fixtures/detect.json: per case the model, L, seed, BOS, ids, the attention names in step order, and the three
scores [attention][head].

    /usr/bin/python3 tests/golden/make_detect_golden.py [path/to/attnlab-cli]   (default build/attnlab-cli)
"""
import json
import os
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from hf_fixture_io import FIXTURES, fail  # noqa: E402
from make_attribution_golden import TOL, expected_of, gpt2_run, llama_run, read_tensors  # noqa: E402
from make_golden import LabModel, install_capture, torch_forward  # noqa: E402

CASES = [
    # (case, model path from the repository root, builder, L, seed, BOS or None)
    ("gpt2", "tests/golden/fixtures/hf_gpt2", "gpt2", 5, 3, 49),
    ("gpt2_no_bos", "tests/golden/fixtures/hf_gpt2", "gpt2", 6, 11, None),
    ("llama", "tests/golden/fixtures/hf_llama", "llama", 9, 5, 1),
    ("en_ko", "assets/models/en-ko.safetensors", "ours", 12, 7, 1),
]


def detector_ids(cli, model, L, seed, bos):
    args = [cli, "detect", os.path.join(ROOT, model), "--len", str(L), "--seed", str(seed), "--json"]
    if bos is not None:
        args += ["--bos", str(bos)]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        fail("%s: %s" % (" ".join(args), run.stderr.strip()))
    return json.loads(run.stdout)["ids"]


def checked_hf_weights(builder, folder, ids):
    """{attention name: (H, N, N)} from the script's own forward, after checking it on the fixture's own ids."""
    run = gpt2_run if builder == "gpt2" else llama_run
    _, tgt, _, want = expected_of(os.path.basename(folder))
    _, logits, _ = run(folder, tgt)
    diff = float((logits - want).abs().max())
    if diff > TOL:
        fail("%s: the forward's logits differ from the fixture's expected ones by %.3g" % (folder, diff))
    events, _, _ = run(folder, ids)
    return {ev[1]: ev[2] for ev in events if ev[0] == "attn"}


def ours_weights(path, ids):
    """{attention name: (H, N, N)} of every self-attention of our model, the sequence on both sides."""
    meta, w = read_tensors(path)
    cfg = json.loads(meta["config"])
    model = LabModel(cfg)
    # the generator's bias is the one tensor a model may leave out (en-ko has none); the weights do not read it
    missing, unexpected = model.load_state_dict({k: v.float() for k, v in w.items()}, strict=False)
    if unexpected or set(missing) - {"generator.bias"}:
        fail("%s: missing %s, unexpected %s" % (path, missing, unexpected))
    model.double()
    records, uninstall = install_capture(model, cfg)
    with torch.enable_grad():
        torch_forward(model, cfg, ids, ids)
    uninstall()
    out = {}
    for stack in ("encoder", "decoder"):  # the stepper's order: the encoder's layers, then the decoder's
        n = cfg["n_%s_layers" % stack]
        for i in range(n):
            out["%s.layers.%d.self_attn" % (stack, i)] = records["%s.layers.%d.self_attn.weights" % (stack, i)]
    return out


def scores(w, p0, L):
    """w (H, N, N) -> three lists of H scores."""
    H, N, _ = w.shape
    induction = w.diagonal(offset=1 - L, dim1=-2, dim2=-1)  # (H, N − L + 1): row q = k + L − 1
    duplicate = w.diagonal(offset=-L, dim1=-2, dim2=-1)     # (H, N − L): row q = k + L
    previous = w.diagonal(offset=-1, dim1=-2, dim2=-1)      # (H, N − 1): row q = k + 1
    # the second copy's rows q = p0+L+i (i = 0 … L−1) sit at induction index p0+i+1 and duplicate index p0+i
    ind = induction[:, p0 + 1:p0 + L + 1]
    dup = duplicate[:, p0:p0 + L]
    assert ind.shape[1] == L and dup.shape[1] == L and p0 + 2 * L == N
    return ind.mean(-1).tolist(), previous.mean(-1).tolist(), dup.mean(-1).tolist()


def run_case(cli, case, model, builder, L, seed, bos):
    ids = detector_ids(cli, model, L, seed, bos)
    p0 = 0 if bos is None else 1
    if len(ids) != p0 + 2 * L or ids[p0:p0 + L] != ids[p0 + L:]:
        fail("%s: the CLI's ids are not [BOS] x x: %s" % (case, ids))
    path = os.path.join(ROOT, model)
    weights = ours_weights(path, ids) if builder == "ours" else checked_hf_weights(builder, path, ids)
    out = {"case": case, "model": model, "length": L, "seed": seed, "bos": bos, "ids": ids,
           "attentions": list(weights), "induction": [], "previous": [], "duplicate": []}
    for name, w in weights.items():
        ind, prev, dup = scores(w.double(), p0, L)
        out["induction"].append(ind)
        out["previous"].append(prev)
        out["duplicate"].append(dup)
    best = max((v, a, h) for a, row in zip(out["attentions"], out["induction"]) for h, v in enumerate(row))
    print("%-12s %-36s L=%-2d %d attentions, best induction %s head %d (%.4f)" %
          (case, model, L, len(weights), best[1], best[2], best[0]))
    return out


def main():
    torch.set_default_dtype(torch.float64)
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "attnlab-cli")
    cases = [run_case(cli, *c) for c in CASES]
    path = os.path.join(FIXTURES, "detect.json")
    with open(path, "w") as f:
        json.dump({"description": "head detector scores by make_detect_golden.py (float64 PyTorch)", "cases": cases},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
