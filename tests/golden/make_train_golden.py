#!/usr/bin/python3
"""Training-step golden fixtures for Attention Lab (PyTorch oracle).

For each case: builds a tiny random encoder-decoder with the helpers of
make_golden.py, writes it as `<case>.model.safetensors` (project model format),
runs ONE training step on a fixed padded batch of B=3 pairs in float32 --
smoothed cross-entropy (label smoothing 0.1, pad targets ignored, mean over
non-pad tokens), autograd backward, one torch.optim.Adam step with the
paper's betas/eps and warm-up learning rate at step 1 -- and writes
`<case>.train.safetensors`: the batch, the loss, every gradient (`grad.<name>`)
and every parameter after the Adam step (`adam1.<name>`).

Cross-checks (exit 1 on failure):
  * the loss and every gradient against float64 autograd through make_golden's
    independent hand-written forward (ref_forward, run pair by pair) and a
    hand-written smoothed cross-entropy;
  * those float64 gradients against central finite differences (a few
    coordinates of every tensor, including its largest-gradient entry);
  * torch's Adam step against the update written out in float64.

Needs Debian's python3-torch.  The committed fixtures were made with the reference BLAS:
  LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas /usr/bin/python3 tests/golden/make_train_golden.py
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_golden import (  # noqa: E402
    EOS, FIRST_WORD, OUT_DIR, PAD, SOS, LabModel, causal_mask, make_config,
    model_tensors, randomize_, ref_forward, torch_embed)
from hf_fixture_io import read_safetensors, whole_f32, write_safetensors  # noqa: E402

LABEL_SMOOTHING = 0.1
BETAS = (0.9, 0.98)
EPS = 1e-9
WARMUP = 4
STEP = 1

# tolerances of the cross-checks
GRAD_TOL = 2e-5     # max |g32 - g64| / max(1, max|g64|) per tensor
LOSS_TOL = 1e-5     # |loss32 - loss64|
FD_TOL = 1e-6       # |fd - g64| <= FD_TOL * (1 + |g64|)
FD_H = 1e-6
ADAM_TOL = 1e-6     # |adam1_torch - adam1_by_hand(g32)|, absolute (lr = 0.03125)

CASES = [
    dict(name="train_post_ln", seed=2001,
         cfg=dict(arch="encoder_decoder", n_heads=2, activation="relu", norm_first=False,
                  positional="sinusoidal", scale_embedding=True, tie_embeddings=False,
                  final_norm=True, src_vocab=20, tgt_vocab=19),
         generator_bias=False,
         src_words=[5, 2, 3], tgt_words=[3, 6, 1],
         desc="enc-dec, post-LN, relu, sinusoidal PE, scaled embeddings, untied, final norms, "
              "no generator.bias; B=3, padding on both sides"),
    dict(name="train_pre_ln_tied", seed=2002,
         cfg=dict(arch="encoder_decoder", n_heads=2, activation="gelu", norm_first=True,
                  positional="learned", scale_embedding=True, tie_embeddings=True,
                  final_norm=True, src_vocab=20, tgt_vocab=19),
         generator_bias=True,
         src_words=[2, 6, 4], tgt_words=[5, 1, 3],
         desc="enc-dec, pre-LN, erf gelu, learned PE, scaled embeddings, tied generator "
              "(= tgt_embed.weight), generator.bias; B=3, padding on both sides"),
]


def warmup_lr(d_model, step, warmup):
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


# ----------------------------------------------------------------------------
# batch
# ----------------------------------------------------------------------------

def make_batch(gen, src_words, tgt_words, src_vocab, tgt_vocab):
    """Returns src (B,S), tgt_in (B,T), tgt_out (B,T) int64 tensors, project layout."""
    B = len(src_words)
    S = max(src_words) + 1
    T = max(tgt_words) + 1
    src = torch.full((B, S), PAD, dtype=torch.long)
    tgt_in = torch.full((B, T), PAD, dtype=torch.long)
    tgt_out = torch.full((B, T), PAD, dtype=torch.long)
    for b in range(B):
        s = torch.randint(FIRST_WORD, src_vocab, (src_words[b],), generator=gen)
        t = torch.randint(FIRST_WORD, tgt_vocab, (tgt_words[b],), generator=gen)
        src[b, :len(s)] = s
        src[b, len(s)] = EOS
        tgt_in[b, 0] = SOS
        tgt_in[b, 1:1 + len(t)] = t
        tgt_out[b, :len(t)] = t
        tgt_out[b, len(t)] = EOS
    return src, tgt_in, tgt_out


# ----------------------------------------------------------------------------
# torch (float32) training step
# ----------------------------------------------------------------------------

def torch_logits(model, cfg, src, tgt_in):
    src_pad = src == PAD
    memory = model.encoder(torch_embed(model, cfg, model.src_embed, src),
                           src_key_padding_mask=src_pad)
    dec = model.decoder(torch_embed(model, cfg, model.tgt_embed, tgt_in), memory,
                        tgt_mask=causal_mask(tgt_in.shape[1]),
                        tgt_key_padding_mask=tgt_in == PAD,
                        memory_key_padding_mask=src_pad)
    return model.generator(dec)


def torch_loss(logits, tgt_out):
    V = logits.shape[-1]
    return F.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1), ignore_index=PAD,
                           label_smoothing=LABEL_SMOOTHING)


# ----------------------------------------------------------------------------
# float64 reference: make_golden.ref_forward pair by pair + hand-written loss
# ----------------------------------------------------------------------------

def ref_params(leaves, cfg):
    p = dict(leaves)
    if cfg["tie_embeddings"]:
        p["generator.weight"] = leaves["tgt_embed.weight"]  # the same tensor: grads add up
    if "generator.bias" not in p:
        p["generator.bias"] = torch.zeros(cfg["tgt_vocab_size"], dtype=torch.float64)
    return p


def ref_loss(p, cfg, src, tgt_in, tgt_out):
    eps = LABEL_SMOOTHING
    total = None
    count = 0
    for b in range(src.shape[0]):
        logits = ref_forward(p, cfg, src[b].tolist(), tgt_in[b].tolist())["logits"]  # (T,V)
        V = logits.shape[1]
        m = logits.max(-1, keepdim=True).values
        logp = logits - m - torch.log(torch.exp(logits - m).sum(-1, keepdim=True))
        for t, y in enumerate(tgt_out[b].tolist()):
            if y == PAD:
                continue
            term = -(1.0 - eps) * logp[t, y] - (eps / V) * logp[t].sum()
            total = term if total is None else total + term
            count += 1
    return total / count


# ----------------------------------------------------------------------------
# one case
# ----------------------------------------------------------------------------

def rel_err(a, b):
    a = a.double(); b = b.double()
    return (a - b).abs().max().item() / max(1.0, b.abs().max().item())


def run_case(case):
    name = case["name"]
    errors = []
    torch.manual_seed(case["seed"])
    cfg = make_config(**case["cfg"])
    model = LabModel(cfg)
    if not case["generator_bias"]:
        model.generator.register_parameter("bias", None)
    randomize_(model)
    model.train()  # dropout is 0.0 everywhere; train() keeps torch off its inference fast path
    C = cfg["d_model"]
    lr = warmup_lr(C, STEP, WARMUP)

    gen = torch.Generator().manual_seed(case["seed"] + 7)
    src, tgt_in, tgt_out = make_batch(gen, case["src_words"], case["tgt_words"],
                                      cfg["src_vocab_size"], cfg["tgt_vocab_size"])
    assert max(src.shape[1], tgt_in.shape[1]) <= cfg["max_len"]
    assert (src == PAD).any(1).sum() >= 2 and (tgt_in == PAD).any(1).sum() >= 2

    # names in file order (state_dict; tied generator.weight is not a tensor of the file)
    mtensors = model_tensors(model, cfg)
    names = [k for k, _ in mtensors]
    params = dict(model.named_parameters())  # deduplicated: a tied weight appears once
    assert sorted(params) == sorted(names), (sorted(params), names)
    if cfg["tie_embeddings"]:
        assert model.generator.weight is model.tgt_embed.weight
    model_before = [(k, v.detach().clone()) for k, v in mtensors]

    # 1) float32 forward / loss / backward
    model.zero_grad(set_to_none=True)
    logits = torch_logits(model, cfg, src, tgt_in)
    loss = torch_loss(logits, tgt_out)
    loss.backward()
    grads = {k: params[k].grad.detach().clone() for k in names}

    # 2) one Adam step on those gradients
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=BETAS, eps=EPS, foreach=False)
    opt.step()
    adam1 = {k: params[k].detach().clone() for k in names}

    # 3) float64 autograd through the independent hand-written forward
    leaves = {k: v.detach().double().requires_grad_(True) for k, v in model_before}
    p = ref_params(leaves, cfg)
    loss64 = ref_loss(p, cfg, src, tgt_in, tgt_out)
    g64 = torch.autograd.grad(loss64, [leaves[k] for k in names], allow_unused=True)
    g64 = {k: (g if g is not None else torch.zeros_like(leaves[k])) for k, g in zip(names, g64)}

    d_loss = abs(loss.item() - loss64.item())
    if not d_loss <= LOSS_TOL:
        errors.append("loss: torch %.9g vs float64 ref %.9g" % (loss.item(), loss64.item()))
    worst_grad, worst_name = 0.0, ""
    for k in names:
        e = rel_err(grads[k], g64[k])
        if e > worst_grad:
            worst_grad, worst_name = e, k
        if not e <= GRAD_TOL:
            errors.append("grad %s: max|g32-g64|/max(1,|g64|) = %.3g" % (k, e))
        if not torch.isfinite(grads[k]).all():
            errors.append("grad %s: non-finite" % k)

    # 4) central finite differences of the float64 reference loss
    fd_gen = torch.Generator().manual_seed(case["seed"] + 13)
    worst_fd, n_fd = 0.0, 0
    with torch.no_grad():
        for k in names:
            leaf = leaves[k]
            flat = leaf.view(-1)
            idx = {int(g64[k].abs().argmax())}
            idx.update(torch.randint(0, flat.numel(), (2,), generator=fd_gen).tolist())
            for i in sorted(idx):
                x0 = flat[i].item()
                flat[i] = x0 + FD_H
                lp = ref_loss(p, cfg, src, tgt_in, tgt_out).item()
                flat[i] = x0 - FD_H
                lm = ref_loss(p, cfg, src, tgt_in, tgt_out).item()
                flat[i] = x0
                fd = (lp - lm) / (2 * FD_H)
                ad = g64[k].view(-1)[i].item()
                e = abs(fd - ad) / (1.0 + abs(ad))
                worst_fd = max(worst_fd, e)
                n_fd += 1
                if not e <= FD_TOL:
                    errors.append("finite difference %s[%d]: fd %.9g vs autograd %.9g" % (k, i, fd, ad))

    # 5) Adam written out (float64 arithmetic on torch's float32 gradients), and the
    #    sensitivity of adam1 to float32-vs-float64 gradients (step 1 is ~ lr*sign(g))
    b1, b2 = BETAS
    def adam_by_hand(p0, g):
        m = (1 - b1) * g
        v = (1 - b2) * g * g
        m_hat = m / (1 - b1 ** STEP)
        v_hat = v / (1 - b2 ** STEP)
        return p0 - lr * m_hat / (torch.sqrt(v_hat) + EPS)
    worst_adam, worst_adam64, worst_adam64_nokb = 0.0, 0.0, 0.0
    for k, v0 in model_before:
        hand = adam_by_hand(v0.double(), grads[k].double())
        e = (adam1[k].double() - hand).abs().max().item()
        worst_adam = max(worst_adam, e)
        if not e <= ADAM_TOL:
            errors.append("adam %s: max|torch - by hand| = %.3g" % (k, e))
        d64 = (adam1[k].double() - adam_by_hand(v0.double(), g64[k])).abs()
        worst_adam64 = max(worst_adam64, d64.max().item())
        if k.endswith("in_proj_bias"):
            # the key bias adds q.b_k to every score of a row; softmax ignores that, so its
            # gradient is zero in exact arithmetic and float rounding noise (~1e-10) in practice
            kb = g64[k][C:2 * C].abs().max().item()
            if not kb <= 1e-12:
                errors.append("%s: key-bias gradient %.3g is not ~0 in float64" % (k, kb))
            d64 = torch.cat([d64[:C], d64[2 * C:]])
        worst_adam64_nokb = max(worst_adam64_nokb, d64.max().item())
    all_g = torch.cat([grads[k].reshape(-1) for k in names])
    n_zero = int((all_g == 0).sum())
    nz = all_g[all_g != 0].abs()
    min_nz = nz.min().item()

    if errors:
        for e in errors:
            print("FAIL %s: %s" % (name, e), file=sys.stderr)
        return False

    # 6) write files
    model_path = os.path.join(OUT_DIR, name + ".model.safetensors")
    train_path = os.path.join(OUT_DIR, name + ".train.safetensors")
    write_safetensors(model_path, [(k, *whole_f32(v.numpy())) for k, v in model_before], {"config": json.dumps(cfg)})
    ttensors = [("batch.src", src.float()), ("batch.tgt_in", tgt_in.float()),
                ("batch.tgt_out", tgt_out.float()), ("loss", loss.detach().reshape(1))]
    ttensors += [("grad." + k, grads[k]) for k in names]
    ttensors += [("adam1." + k, adam1[k]) for k in names]
    meta = {"lr": repr(lr), "label_smoothing": repr(LABEL_SMOOTHING),
            "betas": "%r,%r" % BETAS, "eps": "1e-9", "warmup_steps": str(WARMUP),
            "adam_step": str(STEP), "case": name, "description": case["desc"]}
    write_safetensors(train_path, [(k, *whole_f32(v.detach().numpy())) for k, v in ttensors], meta)

    # 7) read back and verify the writer
    back_meta, back = read_safetensors(model_path)
    assert json.loads(back_meta["config"]) == cfg
    for k, v in model_before:
        assert np.array_equal(back[k], v.numpy()), k
    back_meta, back = read_safetensors(train_path)
    assert back_meta == meta
    assert list(back) == [k for k, _ in ttensors]
    for k, v in ttensors:
        assert np.array_equal(back[k], v.detach().numpy()), k

    B, S = src.shape
    T = tgt_in.shape[1]
    print("wrote %-17s model %6d B (%2d tensors)  train %6d B (%3d tensors)  B=%d S=%d T=%d "
          "tokens=%d  lr=%r  loss=%.7f"
          % (name, os.path.getsize(model_path), len(model_before), os.path.getsize(train_path), len(ttensors), B, S, T,
             int((tgt_out != PAD).sum()), lr, loss.item()))
    print("    loss |f32-f64| = %.2e;  grads vs float64 autograd (ref forward): worst "
          "max|g32-g64|/max(1,max|g64|) = %.2e (%s);  max|g| = %.3g"
          % (d_loss, worst_grad, worst_name, all_g.abs().max().item()))
    print("    finite differences (h=%g): %d coordinates, worst |fd-g64|/(1+|g64|) = %.2e"
          % (FD_H, n_fd, worst_fd))
    print("    adam1 vs by-hand update on g32: max diff %.2e;  vs by-hand update on g64: %.2e, "
          "%.2e excluding key biases (lr %g);  grad entries: %d exactly zero, smallest nonzero |g| %.2e"
          % (worst_adam, worst_adam64, worst_adam64_nokb, lr, n_zero, min_nz))
    return True


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.set_num_threads(1)
    ok = True
    for case in CASES:
        ok = run_case(case) and ok
    if not ok:
        print("training golden generation FAILED", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
