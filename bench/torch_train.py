#!/usr/bin/python3
"""PyTorch baseline for Attention Lab training speed.

Full training steps of the project's "tiny" encoder-decoder (d_model 64,
4 heads, 2+2 layers, d_ff 256, relu, post-LN, sinusoidal PE, scaled
embeddings, untied generator, final norms) on one fixed random batch:
zero_grad, forward (key padding masks + causal mask), smoothed cross-entropy
(label smoothing 0.1, pad ignored), backward, Adam (betas 0.9/0.98, eps 1e-9)
with the paper's warm-up learning rate. Dropout (--dropout, default 0.1) sits
where the paper puts it and where Attention Lab's trainer does: on
embeddings + PE and on every sublayer output (torch's extra dropouts on the
attention weights and inside the feed-forward are switched off).
Prints one line of JSON; steps_per_s is timed steps / total time of the timed steps.

Needs Debian's python3-torch:  /usr/bin/python3 bench/torch_train.py
"""
import argparse
import json
import math
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from blas_threads import openblas_threads

D_MODEL, N_HEADS, N_LAYERS, D_FF = 64, 4, 2, 256
PAD, SOS, EOS, FIRST_WORD = 0, 1, 2, 4


def sinusoidal_pe(length, C):
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, C, 2, dtype=torch.float64)[None, :]
    ang = pos / torch.pow(10000.0, i2 / C)
    pe = torch.zeros(length, C, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(ang)
    pe[:, 1::2] = torch.cos(ang)
    return pe.float()


class Tiny(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, max_len, dropout):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, D_MODEL)
        self.tgt_embed = nn.Embedding(tgt_vocab, D_MODEL)
        self.transformer = nn.Transformer(
            D_MODEL, N_HEADS, N_LAYERS, N_LAYERS, D_FF, dropout=dropout,
            activation="relu", layer_norm_eps=1e-5, batch_first=True, norm_first=False)
        # paper placement only: no dropout on attention weights or inside the feed-forward
        for m in self.transformer.modules():
            if isinstance(m, nn.MultiheadAttention):
                m.dropout = 0.0
            elif isinstance(m, (nn.TransformerEncoderLayer, nn.TransformerDecoderLayer)):
                m.dropout = nn.Identity()
        self.embed_dropout = nn.Dropout(dropout)
        self.generator = nn.Linear(D_MODEL, tgt_vocab)
        self.register_buffer("pe", sinusoidal_pe(max_len, D_MODEL))
        self.scale = math.sqrt(D_MODEL)

    def forward(self, src, tgt_in, tgt_mask):
        S, T = src.shape[1], tgt_in.shape[1]
        src_pad, tgt_pad = src == PAD, tgt_in == PAD
        sx = self.embed_dropout(self.src_embed(src) * self.scale + self.pe[:S])
        tx = self.embed_dropout(self.tgt_embed(tgt_in) * self.scale + self.pe[:T])
        out = self.transformer(sx, tx, tgt_mask=tgt_mask, src_key_padding_mask=src_pad,
                               tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.generator(out)


def warmup_lr(step, warmup_steps, scale):
    return scale * D_MODEL ** -0.5 * min(step ** -0.5, step * warmup_steps ** -1.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--src-len", type=int, default=10, help="source positions (tokens + <eos>)")
    ap.add_argument("--tgt-len", type=int, default=11, help="target positions (<sos> + tokens)")
    ap.add_argument("--src-vocab", type=int, default=300)
    ap.add_argument("--tgt-vocab", type=int, default=300)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--label-smoothing", type=float, default=0.1)
    ap.add_argument("--warmup-steps", type=int, default=4000, help="of the learning-rate schedule")
    ap.add_argument("--lr-scale", type=float, default=1.0)
    ap.add_argument("--steps", type=int, default=50, help="timed steps")
    ap.add_argument("--warmup", type=int, default=5, help="untimed steps first")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    B, S, T = args.batch, args.src_len, args.tgt_len
    model = Tiny(args.src_vocab, args.tgt_vocab, max(S, T), args.dropout).train()
    # fixed random batch, full-length rows: src = words, <eos>; tgt_in = <sos>, words; tgt_out = words, <eos>
    src = torch.randint(FIRST_WORD, args.src_vocab, (B, S))
    src[:, -1] = EOS
    words = torch.randint(FIRST_WORD, args.tgt_vocab, (B, T - 1))
    tgt_in = torch.cat([torch.full((B, 1), SOS), words], 1)
    tgt_out = torch.cat([words, torch.full((B, 1), EOS)], 1)
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(T)
    opt = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    step = 0

    def train_step():
        nonlocal step
        step += 1
        for g in opt.param_groups:
            g["lr"] = warmup_lr(step, args.warmup_steps, args.lr_scale)
        opt.zero_grad(set_to_none=True)
        logits = model(src, tgt_in, tgt_mask)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1),
                               ignore_index=PAD, label_smoothing=args.label_smoothing)
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(args.warmup):
        train_step()
    times = []
    t_start = time.perf_counter()
    for _ in range(args.steps):
        t0 = time.perf_counter()
        loss = train_step()
        times.append((time.perf_counter() - t0) * 1e3)
    total_s = time.perf_counter() - t_start
    assert math.isfinite(loss)

    print(json.dumps({
        "impl": "torch", "torch_version": torch.__version__,
        "threads": torch.get_num_threads(), "blas_threads": openblas_threads(), "batch": B,
        "median_ms": round(statistics.median(times), 3),
        "min_ms": round(min(times), 3),
        "steps_per_s": round(args.steps / total_s, 2),
        "steps": args.steps, "src_len": S, "tgt_len": T,
        "src_vocab": args.src_vocab, "tgt_vocab": args.tgt_vocab,
        "dropout": args.dropout, "final_loss": round(loss, 4),
    }))


if __name__ == "__main__":
    main()
