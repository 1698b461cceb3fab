#!/usr/bin/python3
"""20-step training fixtures for Attention Lab (PyTorch oracle): SGD and Adam on a file of token ids.

For three tiny models -- a GPT-2-shaped and a Llama-shaped Hugging Face folder and the project's own
decoder-only model -- this script writes fixtures/train20/<case>/ with the model to start from, a
stream of token ids, and what PyTorch makes of 20 training steps on it:

  gpt2/, llama/  config.json + model.safetensors (the initial weights, a folder to pass to --init)
  paper/         model.safetensors (our model file: state_dict names, config in __metadata__["config"])
  ids.txt        208 random ids, decimal, separated by single spaces, a newline at the end
  expected.json  seq_len, batch, steps, the window indices of every batch, and for "sgd" and "adam"
                 the hyper-parameters and the loss of every step (before that step's update)
  sgd_final.safetensors  every parameter after the 20 SGD steps, under the model file's names

Batches (what `attnlab-cli train --data-ids` does): the stream is cut into windows of T + 1 ids at offsets
0, T, 2T, ...; a last partial window is dropped (n_windows = (n - 1) // T); step k (0-based) takes windows
(k·B + j) mod n_windows, j = 0..B-1; inputs window[:T], targets window[1:]. The loss is the mean next-token
cross-entropy over the B·T positions (no label smoothing, no ignored targets, no dropout, no clipping).

The models are built, run and written with the other scripts' code, imported: make_golden.py (LabModel,
randomize_, ref_forward, the model-file writer), make_hf_golden.py (gpt2_config, gpt2_weights,
gpt2_buffers, gpt2_forward, cross_check_block, the folder writer), make_hf_llama_golden.py (llama_config,
Arch, make_weights, hf_inv_freq, hf_rope_table, hf_forward, independent_forward, the folder writer).
Training runs each family's reference forward (the one the gradient fixtures differentiate) in float32
with autograd, sequence by sequence, and torch.optim.SGD / torch.optim.Adam over the file's tensors
(a tied table is one tensor, used twice).

Checks (exit 1 on failure):
  * before training, the reference forward against a second implementation, in float64, on the first
    batch's inputs: paper -- torch.nn (LabModel, float32) within 1e-5; gpt2 -- every block against
    torch.nn.TransformerEncoderLayer within 1e-9; llama -- the numpy loop implementation within 1e-9
    relative; and the float32 forward against the float64 one within 1e-5 relative;
  * every optimizer step against its update written out (float64 arithmetic on torch's float32
    gradients), within 1e-6;
  * the whole float32 run against the same run in float64 from the same F32 weights: losses within 1e-5
    relative for SGD, 1e-4 for Adam, final SGD weights within 1e-5 of each tensor's largest |value| --
    a tenth of the tolerances the C++ test uses, so that float32 rounding alone cannot fail it;
  * the loss falls: the last SGD and Adam losses are below the first.

Needs Debian's python3-torch. The committed fixtures were made with the reference BLAS:
  LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas /usr/bin/python3 tests/golden/make_train20_golden.py
"""
import json
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_golden  # noqa: E402
import make_hf_golden  # noqa: E402
import make_hf_llama_golden  # noqa: E402
from hf_fixture_io import fail, read_safetensors, rel_diff, whole, write_config, write_safetensors  # noqa: E402

OUT_DIR = os.path.join(HERE, "fixtures", "train20")

SEQ_LEN = 8          # T
BATCH = 4            # B
STEPS = 20
N_IDS = 208          # (208 - 1) // 8 = 25 windows (not 208 // 8 = 26): ids 201..207 are the dropped partial
                     # window, and 25 mod B = 1, so step 6 takes windows 24, 0, 1, 2
VOCAB = 48
ADAM = dict(lr=1e-2, betas=(0.9, 0.98), eps=1e-9)  # the betas and eps of core/train/adam.h

REF_TOL = 1e-5       # float32 forward vs float64, relative to the logits' largest |value|
STEP_TOL = 1e-6      # torch's optimizer step vs the update written out, absolute
SGD_F64_TOL = 1e-5   # float32 run vs float64 run: SGD losses (relative) and final weights
ADAM_F64_TOL = 1e-4  # float32 run vs float64 run: Adam losses (relative)


# ----------------------------------------------------------------------------
# the cases: initial weights, the reference forward, the writer and the cross-check
# ----------------------------------------------------------------------------

class Case:
    """params: {name: F32 tensor} in file order, the tensors training updates (a tied table once);
    forward(p, ids) -> logits (T, V) for a dict of leaves p; write_model(folder) -> the --init path,
    relative to the case folder; check(p64, rows) -> {figure: value}, exiting on a failed check."""


def gpt2_case():
    c = Case()
    cfg = make_hf_golden.gpt2_config(n_embd=16, n_head=2, vocab_size=VOCAB, bos_token_id=VOCAB - 1,
                                      eos_token_id=VOCAB - 1)
    gen = torch.Generator().manual_seed(20261128)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=gen, dtype=torch.float64) * scale

    c.name, c.sgd_lr, c.avoid = "gpt2", 0.2, []
    c.description = ("GPT2LMHeadModel: 2 layers, n_embd 16, 2 heads, n_inner null (64), gelu_new, "
                     "Conv1D weights (in, out), lm_head tied to wte (no lm_head.weight), no pad_token_id")
    c.notes = {"tied": "wte.weight is also the unembedding (logits = ln_f(x) · wteᵀ, no bias)",
               "unread": "h.{i}.attn.bias and h.{i}.attn.masked_bias are buffers: in model.safetensors, "
                         "not trained, not in sgd_final.safetensors"}
    c.params = {k: v.float() for k, v in sorted(make_hf_golden.gpt2_weights(cfg, randn).items())}
    c.forward = lambda p, ids: make_hf_golden.gpt2_forward(p, cfg, ids)["logits"]

    def write_model(folder):
        write_config(folder, cfg)
        tensors = sorted({**c.params, **make_hf_golden.gpt2_buffers(cfg)}.items())
        write_safetensors(os.path.join(folder, "model.safetensors"), [(k, *whole(v.numpy())) for k, v in tensors])
        return "."

    def check(p64, rows):
        C, H, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
        checked = []  # each block's input and output, against torch.nn.TransformerEncoderLayer (it exits itself)

        def on_layer(i, x, y):
            make_hf_golden.cross_check_block(nn, F, x, y, p64, i, "gpt2", C, H, eps)
            checked.append(i)
        for ids in rows:
            make_hf_golden.gpt2_forward(p64, cfg, ids, on_layer)
        return {"blocks checked against nn.TransformerEncoderLayer (1e-9)": len(checked)}

    c.write_model, c.check = write_model, check
    return c


def llama_case():
    c = Case()
    L = make_hf_llama_golden
    cfg = L.llama_config(hidden_size=16, num_attention_heads=4, num_key_value_heads=2, intermediate_size=32,
                         vocab_size=VOCAB)
    a = L.Arch(cfg)
    w64, extra = L.make_weights(torch, a, 20261129, False)
    assert not extra
    inv_freq = L.hf_inv_freq(torch, a.theta, a.D, a.rope_scaling)
    cos, sin = L.hf_rope_table(torch, inv_freq, SEQ_LEN)

    c.name, c.sgd_lr, c.avoid = "llama", 0.5, []
    c.description = ("LlamaForCausalLM: 2 layers, hidden 16, 4 heads, 2 kv heads (GQA, head_dim 4), "
                     "intermediate 32, SiLU-gated MLP, RMSNorm, RoPE theta 10000, untied lm_head, no biases, "
                     "no pad_token_id")
    c.notes = {"tied": "untied: lm_head.weight is its own tensor",
               "rope": "cos/sin made in float32 from inv_freq as LlamaRotaryEmbedding does; a constant"}
    c.params = {k: v.float() for k, v in sorted(w64.items())}
    c.forward = lambda p, ids: L.hf_forward(torch, a, p, ids, cos, sin)["logits"]

    def write_model(folder):
        write_config(folder, cfg)
        write_safetensors(os.path.join(folder, "model.safetensors"),
                          [(k, *whole(v.numpy())) for k, v in c.params.items()], {"format": "pt"})
        return "."

    def check(p64, rows):
        half = a.D // 2
        phase = cos[:, :half].numpy() + 1j * sin[:, :half].numpy()
        worst = 0.0
        for ids in rows:
            out = L.hf_forward(torch, a, p64, ids, cos, sin)
            ind = L.independent_forward(a, {k: v.detach() for k, v in p64.items()}, ids, phase)
            for key, want in ind.items():
                d = rel_diff(out[key].detach().numpy(), want)
                if d > L.CROSS_CHECK_TOL:
                    fail(f"llama: {key} differs between hf_forward and independent_forward by {d:.3g}")
                worst = max(worst, d)
        return {"hf_forward vs independent_forward (numpy loops), max relative": worst}

    c.write_model, c.check = write_model, check
    return c


def paper_case():
    c = Case()
    G = make_golden
    base = next(case for case in G.CASES if case["name"] == "decoder_only")
    cfg = G.make_config(**base["cfg"], tgt_vocab=VOCAB)
    torch.manual_seed(20261130)
    model = G.LabModel(cfg)
    G.randomize_(model)
    tensors = G.model_tensors(model, cfg)  # file order; the tied generator.weight is not a tensor of the file

    c.name, c.sgd_lr, c.avoid = "paper", 0.2, [cfg["pad_id"]]
    c.description = ("our decoder_only model (make_golden.py's decoder_only case, vocab 48): 2 layers, d_model 16, "
                     "2 heads, d_ff 32, pre-LN, erf gelu, learned positions, generator tied to tgt_embed, "
                     "generator.bias, final norm")
    c.notes = {"tied": "tgt_embed.weight is also generator.weight (not in the file); generator.bias is its own",
               "pad": "pad_id 0 masks attention keys in this family, so ids.txt holds 1..47: no id is padding; "
                      "sos/eos/unk (1, 2, 3) are ordinary tokens there"}
    c.params = {k: v.detach().clone() for k, v in tensors}

    def forward(p, ids):
        q = dict(p)
        q["generator.weight"] = q["tgt_embed.weight"]  # LabModel: the generator's weight is the table itself
        return G.ref_forward(q, cfg, [], ids)["logits"]

    def write_model(folder):
        write_safetensors(os.path.join(folder, "model.safetensors"), [(k, *whole(v.detach().numpy())) for k, v in tensors],
                          {"config": json.dumps(cfg)})
        return "model.safetensors"

    def check(p64, rows):
        worst = 0.0
        for ids in rows:  # torch.nn (the modules the model file's names come from), float32
            got = G.torch_forward(model, cfg, [], ids)["logits"]
            d = G.max_abs(got, forward(p64, ids))
            if d > G.TOL:
                fail(f"paper: torch.nn logits differ from ref_forward by {d:.3g}")
            worst = max(worst, d)
        return {"LabModel (torch.nn, float32) vs ref_forward (float64), max abs": worst}

    c.forward, c.write_model, c.check = forward, write_model, check
    return c


# ----------------------------------------------------------------------------
# data and training
# ----------------------------------------------------------------------------

def make_ids(seed, avoid):
    rng = np.random.default_rng(seed)
    allowed = [i for i in range(VOCAB) if i not in avoid]
    return [int(allowed[k]) for k in rng.integers(0, len(allowed), N_IDS)]


def batches(ids):
    """[(window indices, inputs (B, T), targets (B, T))] for the STEPS steps."""
    n_windows = (len(ids) - 1) // SEQ_LEN
    windows = [ids[w * SEQ_LEN:w * SEQ_LEN + SEQ_LEN + 1] for w in range(n_windows)]
    out = []
    for k in range(STEPS):
        chosen = [(k * BATCH + j) % n_windows for j in range(BATCH)]
        rows = torch.tensor([windows[w] for w in chosen])
        out.append((chosen, rows[:, :-1], rows[:, 1:]))
    return out


def train(case, data, optimizer, lr, dtype, check_steps):
    """Runs STEPS steps from case.params in `dtype`; returns (losses, final parameters)."""
    leaves = {k: v.to(dtype).clone().requires_grad_(True) for k, v in case.params.items()}
    names = list(leaves)
    if optimizer == "sgd":
        opt = torch.optim.SGD(leaves.values(), lr=lr, momentum=0.0, weight_decay=0.0, foreach=False)
    else:
        opt = torch.optim.Adam(leaves.values(), lr=lr, betas=ADAM["betas"], eps=ADAM["eps"], weight_decay=0.0,
                               foreach=False)
    m = {k: torch.zeros_like(v, dtype=torch.float64) for k, v in leaves.items()}
    v2 = {k: torch.zeros_like(v, dtype=torch.float64) for k, v in leaves.items()}
    losses, worst_step = [], 0.0
    for t, (_, inputs, targets) in enumerate(data, start=1):
        opt.zero_grad(set_to_none=True)
        logits = torch.stack([case.forward(leaves, row.tolist()) for row in inputs])  # (B, T, V)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        loss.backward()
        before = {k: leaves[k].detach().double().clone() for k in names}
        grads = {k: (leaves[k].grad if leaves[k].grad is not None else torch.zeros_like(leaves[k])).double()
                 for k in names}
        opt.step()
        losses.append(loss.item())
        if not check_steps:
            continue
        for k in names:  # the update written out
            if optimizer == "sgd":
                want = before[k] - lr * grads[k]
            else:
                b1, b2 = ADAM["betas"]
                m[k] = b1 * m[k] + (1 - b1) * grads[k]
                v2[k] = b2 * v2[k] + (1 - b2) * grads[k] ** 2
                want = before[k] - lr / (1 - b1 ** t) * m[k] / (torch.sqrt(v2[k]) / (1 - b2 ** t) ** 0.5 + ADAM["eps"])
            d = float((leaves[k].detach().double() - want).abs().max())
            if d > STEP_TOL:
                fail(f"{case.name} {optimizer} step {t}: {k} differs from the update written out by {d:.3g}")
            worst_step = max(worst_step, d)
    return losses, {k: v.detach() for k, v in leaves.items()}, worst_step


def max_rel(a, b):
    return max(abs(x - y) / abs(y) for x, y in zip(a, b))


def run_case(case):
    ids = make_ids({"gpt2": 1, "llama": 2, "paper": 3}[case.name] + 20261128, case.avoid)
    data = batches(ids)
    print(f"{case.name}: {case.description}")

    # 1. the reference forward against a second implementation, and float32 against float64
    p64 = {k: v.double() for k, v in case.params.items()}
    rows = [row.tolist() for row in data[0][1]]
    report = case.check(p64, rows)
    d32 = max(rel_diff(case.forward(case.params, r), case.forward(p64, r)) for r in rows)
    if d32 > REF_TOL:
        fail(f"{case.name}: the float32 forward differs from the float64 one by {d32:.3g} (relative)")
    report["float32 vs float64 forward, logits, max relative"] = d32
    for key, value in report.items():
        print(f"    {key}: {value:.3g}" if isinstance(value, float) else f"    {key}: {value}")

    # 2. the two runs, each checked step by step and against float64
    results = {}
    for optimizer, lr in (("sgd", case.sgd_lr), ("adam", ADAM["lr"])):
        losses, final, worst_step = train(case, data, optimizer, lr, torch.float32, check_steps=True)
        losses64, final64, _ = train(case, data, optimizer, lr, torch.float64, check_steps=False)
        gap = max_rel(losses, losses64)
        if gap > (SGD_F64_TOL if optimizer == "sgd" else ADAM_F64_TOL):
            fail(f"{case.name} {optimizer}: float32 losses differ from float64 by {gap:.3g} (relative)")
        if not losses[-1] < losses[0]:
            fail(f"{case.name} {optimizer}: the loss does not fall ({losses[0]:.4f} -> {losses[-1]:.4f})")
        line = (f"    {optimizer} lr {lr:g}: loss {losses[0]:.5f} -> {losses[-1]:.5f}; steps vs written out "
                f"{worst_step:.2g}; losses vs float64 {gap:.2g}")
        if optimizer == "sgd":
            wgap = max(rel_diff(final[k], final64[k]) for k in final)
            if wgap > SGD_F64_TOL:
                fail(f"{case.name} sgd: final float32 weights differ from float64 by {wgap:.3g}")
            line += f", final weights vs float64 {wgap:.2g} (of each tensor's largest |value|)"
        print(line)
        results[optimizer] = (lr, losses, final)

    # 3. the files (only once every check has passed)
    folder = os.path.join(OUT_DIR, case.name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    init = case.write_model(folder)
    with open(os.path.join(folder, "ids.txt"), "w") as f:
        f.write(" ".join(str(i) for i in ids) + "\n")
    sgd_lr, sgd_losses, sgd_final = results["sgd"]
    write_safetensors(os.path.join(folder, "sgd_final.safetensors"), [(k, *whole(v.numpy())) for k, v in sgd_final.items()],
                      {"case": case.name, "optimizer": "sgd", "lr": repr(sgd_lr), "steps": str(STEPS)})
    expected = {
        "case": case.name,
        "description": case.description,
        "init": init,
        "data_ids": "ids.txt",
        "n_ids": len(ids),
        "n_windows": (len(ids) - 1) // SEQ_LEN,
        "vocab_size": VOCAB,
        "ids_avoid": case.avoid,
        "seq_len": SEQ_LEN,
        "batch": BATCH,
        "steps": STEPS,
        "loss": "mean next-token cross-entropy over the batch's B*T positions, before the step's update; "
                "no label smoothing, no ignored targets, no dropout, no clipping",
        "batches": [chosen for chosen, _, _ in data],
        "sgd": {"lr": sgd_lr, "momentum": 0.0, "weight_decay": 0.0, "schedule": "constant",
                "losses": sgd_losses, "final": "sgd_final.safetensors"},
        "adam": {"lr": ADAM["lr"], "beta1": ADAM["betas"][0], "beta2": ADAM["betas"][1], "eps": ADAM["eps"],
                 "weight_decay": 0.0, "amsgrad": False, "schedule": "constant", "losses": results["adam"][1]},
        "notes": case.notes,
    }
    with open(os.path.join(folder, "expected.json"), "w", encoding="utf-8") as f:  # a key a line
        f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                                    for k, v in expected.items()) + "\n}\n")

    # 4. read back: sgd_final holds every trained tensor, under the model file's names
    meta, back = read_safetensors(os.path.join(folder, "sgd_final.safetensors"))
    if list(back) != list(case.params) or any(not np.array_equal(back[k], sgd_final[k].numpy()) for k in back):
        fail(f"{case.name}: sgd_final.safetensors does not read back")
    model_path = os.path.join(folder, "model.safetensors")
    _, model_back = read_safetensors(model_path)
    if set(case.params) - set(model_back):
        fail(f"{case.name}: trained tensors missing from the model file: {sorted(set(case.params) - set(model_back))}")
    if any(not np.array_equal(model_back[k], v.numpy()) for k, v in case.params.items()):
        fail(f"{case.name}: the model file does not hold the initial weights")
    sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
    print("    " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()))
    return sum(sizes.values())


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT_DIR, exist_ok=True)
    total = sum(run_case(build()) for build in (gpt2_case, llama_case, paper_case))
    print(f"train20: {total / 1024:.1f} KB in all")


if __name__ == "__main__":
    main()
