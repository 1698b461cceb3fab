#!/usr/bin/python3
"""PyTorch baseline for `attnlab-cli bench DIR` on a zoo family's tiny golden folder (issue 37).

DIR is one of tests/golden/fixtures/hf_{bloom,smollm3,gemma2,gemma3,olmoe,qwen3_moe,granitemoe,t5,flan_t5,
modernbert}: its config.json names the family, and the forward pass timed is that family's own reference, imported
from the golden script that wrote the folder (tests/golden/make_hf_*_golden.py's hf_forward, make_hf_moe_golden.py's
model_forward, which follow the family's modeling_*.py), fed the folder's F32 weights as they are: each reference
computes in its weights' dtype, so this runs in float32. The references keep every step's tensor in a dict, as
attnlab's traced pass keeps every step. Batch 1, untraced by autograd (inference_mode), the RoPE tables made inside
the timed call as the model makes them.

--tgt-len 0 (the default) runs the folder's own ids (expected.safetensors' metadata) and first checks the logits
against the golden expected.safetensors (float64's, within 1e-4 relative, else exit 1); --tgt-len N runs N random
ids (the first one the folder's bos id, if it has one). A model with an encoder (T5) gets the same length on both
sides. Prints one line of JSON: the median and minimum of --reps timed calls after two warm-ups.

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_zoo.py tests/golden/fixtures/hf_gemma2 --threads 2
"""
import argparse
import json
import os
import random
import statistics
import sys
import time
import warnings

import numpy as np
import torch

from blas_threads import openblas_threads
from torch_llama import read_safetensors

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden")
sys.path.insert(0, GOLDEN)
CHECK_TOL = 1e-4  # the golden tests' tolerance, here float32 against the scripts' float64


def family_forward(cfg, w):
    """config.json and the folder's weights -> forward(src_ids, tgt_ids) -> {step path: tensor} of the family's
    golden script (src_ids is None for a decoder-only family)."""
    t = cfg["model_type"]
    if t == "bloom":
        import make_hf_bloom_golden as g
        return lambda src, tgt: g.hf_forward(torch, cfg, w, tgt)
    if t in ("gemma2", "gemma3_text"):
        import make_hf_gemma_golden as g
        return lambda src, tgt: g.hf_forward(torch, cfg, w, tgt)
    if t == "smollm3":
        import make_hf_llama_golden as g
        a = g.Arch(cfg)

        def smollm3(src, tgt):
            cos, sin = g.hf_rope_table(torch, g.hf_inv_freq(torch, a.theta, a.D, a.rope_scaling), len(tgt))
            return g.hf_forward(torch, a, w, tgt, cos, sin)  # casts cos and sin to the weights' dtype
        return smollm3
    if t in ("olmoe", "qwen3_moe", "granitemoe"):
        import make_hf_llama_golden as llama
        import make_hf_moe_golden as g
        a = g.Arch(cfg)

        def moe(src, tgt):
            cos, sin = llama.hf_rope_table(torch, llama.hf_inv_freq(torch, a.theta, a.D, None), len(tgt))
            return g.model_forward(a, w, tgt, cos.float(), sin.float())  # the float32 model's tables
        return moe
    if t == "t5":
        import make_hf_t5_golden as g
        return lambda src, tgt: g.hf_forward(torch, cfg, w, src, tgt)
    if t == "modernbert":  # an encoder: the source ids alone
        import make_hf_modernbert_golden as g
        return lambda src, tgt: g.hf_forward(torch, cfg, w, src)
    raise SystemExit(f"model_type {t!r}: no zoo reference for it in this baseline")


def final_logits(out):
    return out["capped_logits"] if "capped_logits" in out else out["logits"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tgt-len", type=int, default=0, help="0: the folder's own ids, checked against its goldens")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    for what in ("NumPy array", "buffer"):  # the weights are only read
        warnings.filterwarnings("ignore", message=f"The given {what} is not writable")
    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    w, _ = read_safetensors(os.path.join(args.folder, "model.safetensors"))
    expected, meta = read_safetensors(os.path.join(args.folder, "expected.safetensors"))
    forward = family_forward(cfg, w)
    src, tgt = json.loads(meta.get("src_ids") or "[]") or None, json.loads(meta["tgt_ids"])

    check = None
    if args.tgt_len == 0:
        with torch.inference_mode():
            got = final_logits(forward(src, tgt)).numpy().astype(np.float64)
        want = final_logits(expected).numpy().astype(np.float64).reshape(got.shape)
        check = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-300))
        if check > CHECK_TOL:
            raise SystemExit(f"{args.folder}: float32 logits differ from the golden ones by {check:.3g} (relative)")
    else:
        rng = random.Random(1)
        V = cfg["vocab_size"]
        tgt = [rng.randrange(1, V) for _ in range(args.tgt_len)]
        if cfg.get("bos_token_id") is not None and src is None:
            tgt[0] = cfg["bos_token_id"]
        if src is not None:
            src = [rng.randrange(1, V) for _ in range(args.tgt_len)]

    ms = []
    with torch.inference_mode():
        for r in range(args.reps + 2):  # two warm-up runs
            t0 = time.perf_counter()
            forward(src, tgt)
            if r >= 2:
                ms.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"impl": "torch " + torch.__version__, "family": cfg["model_type"], "tgt_len": len(tgt),
                      "src_len": len(src or []), "reps": args.reps, "threads": torch.get_num_threads(),
                      "blas_threads": openblas_threads(), "median_ms": statistics.median(ms), "min_ms": min(ms),
                      "check_rel_diff": check}))


if __name__ == "__main__":
    main()
