#!/usr/bin/python3
"""PyTorch baseline for `attnlab-cli bench DIR` on a Hugging Face GPT-2 folder.

Opens DIR's model.safetensors as attnlab does (the file memory-mapped, each F32 tensor a
view of it, no copy), then times GPT-2's forward pass on random ids, batch 1: token and
position embeddings, n_layer pre-LN blocks (Conv1D weights used as stored (in, out), tanh
GELU, causal attention), ln_f, the tied unembedding and the softmax over the vocabulary.
Prints one line of JSON, with the process's peak resident memory (getrusage's ru_maxrss, the
mapped weights included) as "peak_rss_mb".

--backward times instead the training-style pass: the same forward (untraced, autograd recording) to the
logits, the next-token cross-entropy (the mean over positions t = 0..T-2 of -log softmax(logits[t])[ids[t+1]],
attnlab's `next-token` loss) and loss.backward() into every parameter (requires_grad, .grad reset to None
before each run, untimed). "median_ms" is then the forward to the loss, "backward_median_ms" loss.backward()
alone and "forward_backward_median_ms" both.

--check-grads GRADS compares, instead of timing, the parameter gradients of that loss with those of an
`attnlab-cli grad DIR --tgt-ids ... --out GRADS` on the same ids (read from the file's metadata; its
parameters are `param.<name>`, the file's names without "transformer."): for every parameter in both, the
largest |attnlab - PyTorch| over the parameter's largest |PyTorch|; the largest of those is printed, with the
loss values, and the same against a float64 PyTorch pass (to show what float32 rounding alone gives).

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_gpt2.py DIR --tgt-len 64
"""
import argparse
import json
import math
import mmap
import os
import re
import resource
import statistics
import struct
import time
import warnings

import numpy as np
import torch
import torch.nn.functional as F

from blas_threads import openblas_threads


def read_safetensors(path):
    """name -> F32 tensor viewing the mapped file at path, and the file's __metadata__."""
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    (header_len,) = struct.unpack("<Q", mapped[:8])
    header = json.loads(mapped[8:8 + header_len])
    base = 8 + header_len
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__" or entry["dtype"] != "F32":
            continue
        begin, end = entry["data_offsets"]
        values = np.frombuffer(mapped, dtype="<f4", count=(end - begin) // 4, offset=base + begin)
        tensors[name] = torch.from_numpy(values).view(entry["shape"])
    return tensors, header.get("__metadata__", {})


def open_weights(folder):
    """name -> tensor viewing the mapped file, and the config."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    tensors, _ = read_safetensors(os.path.join(folder, "model.safetensors"))
    return config, {name.removeprefix("transformer."): t for name, t in tensors.items()}


def forward(config, w, ids):
    """ids (T,) -> probabilities (T, V)."""
    return logits(config, w, ids).softmax(-1)


def next_token_loss(lg, ids):
    """The mean over t = 0..T-2 of -log softmax(lg[t])[ids[t+1]]."""
    return F.cross_entropy(lg[:-1], ids[1:])


def parameters(weights):
    """The tensors the forward reads (the file's unused buffers, e.g. h.N.attn.bias, left out)."""
    return {n: t for n, t in weights.items() if not re.fullmatch(r"h\.\d+\.attn\.(masked_)?bias", n)}


def logits(config, w, ids):
    """ids (T,) -> logits (T, V)."""
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
    return x @ w["wte.weight"].t()                                                     # (T, V)


def time_backward(config, weights, ids, reps):
    """Per run after two warm-ups: the forward to the loss, loss.backward(), both (ms); and the loss."""
    params = parameters(weights)
    for t in params.values():
        t.requires_grad_(True)
    fwd, bwd, both = [], [], []
    for r in range(reps + 2):
        for t in params.values():
            t.grad = None
        t0 = time.perf_counter()
        loss = next_token_loss(logits(config, weights, ids), ids)
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        if r >= 2:
            fwd.append((t1 - t0) * 1e3)
            bwd.append((t2 - t1) * 1e3)
            both.append((t2 - t0) * 1e3)
    return fwd, bwd, both, float(loss)


def gradients(config, weights, ids, dtype):
    """The loss and name -> dL/d(parameter) in dtype (weights copied to dtype)."""
    params = {n: t.detach().to(dtype).requires_grad_(True) for n, t in parameters(weights).items()}
    loss = next_token_loss(logits(config, params, ids), ids)
    loss.backward()
    return float(loss), {n: t.grad for n, t in params.items()}


def check_grads(folder, grads_path):
    """The largest relative difference between attnlab's parameter gradients and PyTorch's on the file's ids."""
    config, weights = open_weights(folder)
    theirs, metadata = read_safetensors(grads_path)
    if metadata.get("loss", "next-token") != "next-token":
        raise SystemExit(f"{grads_path}: loss {metadata['loss']!r}; --check-grads compares the next-token loss")
    ids = json.loads(metadata.get("tgt_ids", "[]")) or json.loads(metadata.get("src_ids", "[]"))
    ids = torch.tensor(ids, dtype=torch.int64)
    loss32, g32 = gradients(config, weights, ids, torch.float32)
    loss64, g64 = gradients(config, weights, ids, torch.float64)

    def largest(a, b):
        """(the largest over parameters of max|a - b| / max|b|, its parameter), over the names both have."""
        worst, where = 0.0, ""
        for n, ref in b.items():
            if n not in a:
                continue
            ref = ref.double()
            rel = float((a[n].double() - ref).abs().max() / ref.abs().max().clamp_min(1e-30))
            if rel >= worst:
                worst, where = rel, n
        return worst, where

    ours = {n.removeprefix("param."): t.reshape(g32[n.removeprefix("param.")].shape)
            for n, t in theirs.items() if n.startswith("param.") and n.removeprefix("param.") in g32}
    missing = sorted(set(g32) - set(ours))
    rel, where = largest(ours, g32)
    rel64, where64 = largest(ours, g64)
    rel_torch, where_torch = largest(g32, g64)
    print(json.dumps({"check_grads": os.path.basename(os.path.normpath(folder)), "tokens": len(ids),
                      "params_compared": len(ours), "params_missing": missing,
                      "loss_attnlab": float(metadata.get("loss_value", "nan")), "loss_torch": loss32,
                      "loss_torch_float64": loss64,
                      "max_rel_diff": rel, "max_rel_diff_param": where,
                      "attnlab_vs_float64": rel64, "attnlab_vs_float64_param": where64,
                      "torch_vs_float64": rel_torch, "torch_vs_float64_param": where_torch}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tgt-len", type=int, default=64)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--opens", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--backward", action="store_true",
                    help="time the next-token loss's loss.backward() (and the forward to it) instead")
    ap.add_argument("--check-grads", metavar="GRADS",
                    help="compare the parameter gradients with an attnlab-cli grad file instead of timing")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    warnings.filterwarnings("ignore", message="The given NumPy array is not writable")  # the weights are only read
    if args.check_grads:
        check_grads(args.folder, args.check_grads)
        return

    open_ms = []
    for _ in range(args.opens):
        t0 = time.perf_counter()
        config, weights = open_weights(args.folder)
        open_ms.append((time.perf_counter() - t0) * 1e3)
    ids = torch.randint(0, config["vocab_size"], (args.tgt_len,), generator=torch.Generator().manual_seed(0))
    if args.backward:
        fwd, bwd, both, loss = time_backward(config, weights, ids, args.reps)
        print(json.dumps({"impl": "torch " + torch.__version__, "pass": "backward", "tgt_len": args.tgt_len,
                          "reps": args.reps, "threads": torch.get_num_threads(), "blas_threads": openblas_threads(), "loss": "next-token",
                          "loss_value": loss, "median_ms": statistics.median(fwd), "min_ms": min(fwd),
                          "backward_median_ms": statistics.median(bwd), "backward_min_ms": min(bwd),
                          "forward_backward_median_ms": statistics.median(both),
                          "forward_backward_min_ms": min(both), "open_median_ms": statistics.median(open_ms),
                          "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
        return
    ms = []
    with torch.inference_mode():
        for r in range(args.reps + 2):  # two warm-up runs
            t0 = time.perf_counter()
            forward(config, weights, ids)
            if r >= 2:
                ms.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"impl": "torch " + torch.__version__, "tgt_len": args.tgt_len, "reps": args.reps,
                      "threads": torch.get_num_threads(), "blas_threads": openblas_threads(), "median_ms": statistics.median(ms), "min_ms": min(ms),
                      "open_median_ms": statistics.median(open_ms),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
