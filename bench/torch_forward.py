#!/usr/bin/python3
"""PyTorch baseline for `attnlab-cli bench`.

One forward pass of the paper-base encoder-decoder Transformer
(d_model 512, 8 heads, 6+6 layers, d_ff 2048, relu, post-LN, sinusoidal PE,
scaled embeddings, final norms), batch 1: embeddings + PE + nn.Transformer
(causal tgt_mask) + generator + softmax. Random weights, random token ids.
Prints one line of JSON.

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_forward.py
"""
import argparse
import json
import math
import statistics
import time

import torch
import torch.nn as nn

from blas_threads import openblas_threads

D_MODEL, N_HEADS, N_LAYERS, D_FF = 512, 8, 6, 2048


def sinusoidal_pe(length, C):
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, C, 2, dtype=torch.float64)[None, :]
    ang = pos / torch.pow(10000.0, i2 / C)
    pe = torch.zeros(length, C, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(ang)
    pe[:, 1::2] = torch.cos(ang)
    return pe.float()


class PaperBase(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, max_len):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, D_MODEL)
        self.tgt_embed = nn.Embedding(tgt_vocab, D_MODEL)
        self.transformer = nn.Transformer(
            D_MODEL, N_HEADS, N_LAYERS, N_LAYERS, D_FF, dropout=0.0,
            activation="relu", layer_norm_eps=1e-5, batch_first=True, norm_first=False)
        self.generator = nn.Linear(D_MODEL, tgt_vocab)
        self.register_buffer("pe", sinusoidal_pe(max_len, D_MODEL))
        self.scale = math.sqrt(D_MODEL)

    def forward(self, src, tgt, tgt_mask):
        S, T = src.shape[1], tgt.shape[1]
        sx = self.src_embed(src) * self.scale + self.pe[:S]
        tx = self.tgt_embed(tgt) * self.scale + self.pe[:T]
        out = self.transformer(sx, tx, tgt_mask=tgt_mask)
        return torch.softmax(self.generator(out), dim=-1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src-len", type=int, default=32)
    ap.add_argument("--tgt-len", type=int, default=32)
    ap.add_argument("--vocab", type=int, default=99)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model = PaperBase(args.vocab, args.vocab, max(args.src_len, args.tgt_len)).eval()
    src = torch.randint(4, args.vocab, (1, args.src_len))
    tgt = torch.randint(4, args.vocab, (1, args.tgt_len))
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(args.tgt_len)

    times = []
    with torch.inference_mode():
        for _ in range(args.warmup):
            model(src, tgt, tgt_mask)
        for _ in range(args.reps):
            t0 = time.perf_counter()
            probs = model(src, tgt, tgt_mask)
            times.append((time.perf_counter() - t0) * 1e3)
        assert probs.shape == (1, args.tgt_len, args.vocab)
        assert torch.isfinite(probs).all()

    print(json.dumps({
        "impl": "torch", "torch_version": torch.__version__,
        "threads": torch.get_num_threads(), "blas_threads": openblas_threads(),
        "median_ms": round(statistics.median(times), 3),
        "min_ms": round(min(times), 3), "reps": args.reps,
        "src_len": args.src_len, "tgt_len": args.tgt_len, "vocab": args.vocab,
    }))


if __name__ == "__main__":
    main()
