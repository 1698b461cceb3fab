#!/usr/bin/python3
"""PyTorch baseline for `attnlab-cli bench DIR` on a Hugging Face GPT-2 folder.

Opens DIR's model.safetensors as attnlab does (the file memory-mapped, each F32 tensor a
view of it, no copy), then times GPT-2's forward pass on random ids, batch 1: token and
position embeddings, n_layer pre-LN blocks (Conv1D weights used as stored (in, out), tanh
GELU, causal attention), ln_f, the tied unembedding and the softmax over the vocabulary.
Prints one line of JSON, with the process's peak resident memory (getrusage's ru_maxrss, the
mapped weights included) as "peak_rss_mb".

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_gpt2.py DIR --tgt-len 64
"""
import argparse
import json
import math
import mmap
import os
import resource
import statistics
import struct
import time
import warnings

import numpy as np
import torch
import torch.nn.functional as F


def open_weights(folder):
    """name -> tensor viewing the mapped file, and the config."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(folder, "model.safetensors"), "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    (header_len,) = struct.unpack("<Q", mapped[:8])
    header = json.loads(mapped[8:8 + header_len])
    base = 8 + header_len
    weights = {}
    for name, entry in header.items():
        if name == "__metadata__" or entry["dtype"] != "F32":
            continue
        begin, end = entry["data_offsets"]
        values = np.frombuffer(mapped, dtype="<f4", count=(end - begin) // 4, offset=base + begin)
        weights[name.removeprefix("transformer.")] = torch.from_numpy(values).view(entry["shape"])
    return config, weights


def forward(config, w, ids):
    """ids (T,) -> probabilities (T, V)."""
    H, eps = config["n_head"], config["layer_norm_epsilon"]
    T = ids.shape[0]
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]                      # (T, C)
    C = x.shape[1]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    for i in range(config["n_layer"]):
        p = f"h.{i}."
        h = F.layer_norm(x, (C,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = torch.addmm(w[p + "attn.c_attn.bias"], h, w[p + "attn.c_attn.weight"])  # (T, 3C)
        q, k, v = (t.view(T, H, C // H).transpose(0, 1) for t in qkv.split(C, dim=1))  # (H, T, D)
        scores = (q @ k.transpose(1, 2)) / math.sqrt(C // H)                          # (H, T, T)
        attn = scores.masked_fill(~causal, float("-inf")).softmax(-1)
        heads = (attn @ v).transpose(0, 1).reshape(T, C)
        x = x + torch.addmm(w[p + "attn.c_proj.bias"], heads, w[p + "attn.c_proj.weight"])
        h = F.layer_norm(x, (C,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        h = F.gelu(torch.addmm(w[p + "mlp.c_fc.bias"], h, w[p + "mlp.c_fc.weight"]), approximate="tanh")
        x = x + torch.addmm(w[p + "mlp.c_proj.bias"], h, w[p + "mlp.c_proj.weight"])
    x = F.layer_norm(x, (C,), w["ln_f.weight"], w["ln_f.bias"], eps)
    return (x @ w["wte.weight"].t()).softmax(-1)                                       # (T, V)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tgt-len", type=int, default=64)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--opens", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    warnings.filterwarnings("ignore", message="The given NumPy array is not writable")  # the weights are only read

    open_ms = []
    for _ in range(args.opens):
        t0 = time.perf_counter()
        config, weights = open_weights(args.folder)
        open_ms.append((time.perf_counter() - t0) * 1e3)
    ids = torch.randint(0, config["vocab_size"], (args.tgt_len,), generator=torch.Generator().manual_seed(0))
    ms = []
    with torch.inference_mode():
        for r in range(args.reps + 2):  # two warm-up runs
            t0 = time.perf_counter()
            forward(config, weights, ids)
            if r >= 2:
                ms.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"impl": "torch " + torch.__version__, "tgt_len": args.tgt_len, "reps": args.reps,
                      "threads": torch.get_num_threads(), "median_ms": statistics.median(ms), "min_ms": min(ms),
                      "open_median_ms": statistics.median(open_ms),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
