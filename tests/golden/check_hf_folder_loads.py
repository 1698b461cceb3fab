#!/usr/bin/python3
"""Checks that a Hugging Face folder Attention Lab wrote (core/hf/hf_folder_writer.h) is one PyTorch's transformers
loads as it is, and that it computes what Attention Lab computes.

transformers is not installed here, so the script does what from_pretrained does to a model.safetensors and then
runs the hand-written reference forwards that follow modeling_gpt2.py and modeling_llama.py (make_hf_golden.py,
make_hf_llama_golden.py):

1. the file's __metadata__ has "format": "pt" (transformers' load_state_dict refuses a file without it);
2. its names, once the base model's prefix is matched as from_pretrained matches it ("transformer." for
   GPT2LMHeadModel, "model." for *ForCausalLM), are exactly the model's persistent state_dict: nothing missing
   (which transformers would initialise at random), nothing unexpected beyond the buffers it ignores, every shape
   the one the config gives (GPT-2's Conv1D weights (in, out));
3. the reference forward over the file's tensors (float64) gives logits within 1e-4 of what
   `attnlab-cli trace FOLDER --tgt-ids IDS` writes.

Families: gpt2, and the Llama template (llama, mistral, qwen2, qwen3).

    /usr/bin/python3 tests/golden/check_hf_folder_loads.py FOLDER [--ids 1,5,7,3] [--cli build/attnlab-cli]

Exit 0 and one line "OK ..." when every check holds, else "check_hf_folder_loads.py: FAILED: ..." on stderr and
exit 1.
"""

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hf_fixture_io import fail  # noqa: E402

DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64}


def read_safetensors(path):
    """-> ({name: (dtype, shape, float64 array)}, metadata)"""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    metadata = header.pop("__metadata__", None)
    buffer = data[8 + n:]
    tensors = {}
    for name, e in header.items():
        begin, end = e["data_offsets"]
        raw = buffer[begin:end]
        if e["dtype"] == "BF16":
            bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            array = bits.view(np.float32)
        elif e["dtype"] in DTYPES:
            array = np.frombuffer(raw, dtype=np.dtype(DTYPES[e["dtype"]]).newbyteorder("<"))
        else:  # an integer buffer: kept for the name check only
            array = None
        tensors[name] = (e["dtype"], tuple(e["shape"]), None if array is None else array.astype(np.float64).reshape(e["shape"]))
    return tensors, metadata


# ----------------------------------------------------------------------------
# the persistent state_dict transformers builds from config.json
# ----------------------------------------------------------------------------

def gpt2_state_dict(cfg):
    """GPT2LMHeadModel: transformer.* (attn.bias and attn.masked_bias are non-persistent buffers) + lm_head."""
    C, L, V, P = cfg["n_embd"], cfg["n_layer"], cfg["vocab_size"], cfg["n_positions"]
    F = cfg.get("n_inner") or 4 * C
    s = {"transformer.wte.weight": (V, C), "transformer.wpe.weight": (P, C),
         "transformer.ln_f.weight": (C,), "transformer.ln_f.bias": (C,)}
    for i in range(L):
        p = f"transformer.h.{i}."
        for norm in ("ln_1", "ln_2"):
            s[p + norm + ".weight"] = s[p + norm + ".bias"] = (C,)
        for name, n_in, n_out in (("attn.c_attn", C, 3 * C), ("attn.c_proj", C, C), ("mlp.c_fc", C, F),
                                  ("mlp.c_proj", F, C)):
            s[p + name + ".weight"], s[p + name + ".bias"] = (n_in, n_out), (n_out,)  # Conv1D: (in, out)
    tied = cfg.get("tie_word_embeddings", True)
    s["lm_head.weight"] = (V, C)
    return s, "transformer.", tied, (".attn.bias", ".attn.masked_bias")  # _keys_to_ignore_on_load_unexpected


def llama_state_dict(cfg):
    """LlamaForCausalLM and the other *ForCausalLM of the template: model.* + lm_head."""
    from make_hf_llama_golden import Arch
    a = Arch(cfg)
    s = {"model.embed_tokens.weight": (a.V, a.C), "model.norm.weight": (a.C,), "lm_head.weight": (a.V, a.C)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        s[p + "input_layernorm.weight"] = s[p + "post_attention_layernorm.weight"] = (a.C,)
        for name, n_out, n_in, bias in (("q_proj", a.H * a.D, a.C, a.qkv_bias), ("k_proj", a.Hkv * a.D, a.C, a.qkv_bias),
                                        ("v_proj", a.Hkv * a.D, a.C, a.qkv_bias), ("o_proj", a.C, a.H * a.D, a.o_bias)):
            s[p + "self_attn." + name + ".weight"] = (n_out, n_in)
            if bias:
                s[p + "self_attn." + name + ".bias"] = (n_out,)
        if a.qk_norm:
            s[p + "self_attn.q_norm.weight"] = s[p + "self_attn.k_norm.weight"] = (a.D,)
        for name, n_out, n_in in (("gate_proj", a.F, a.C), ("up_proj", a.F, a.C), ("down_proj", a.C, a.F)):
            s[p + "mlp." + name + ".weight"] = (n_out, n_in)
            if a.mlp_bias:
                s[p + "mlp." + name + ".bias"] = (n_out,)
    return s, "model.", a.tied, ("rotary_emb.inv_freq",)  # _keys_to_ignore_on_load_unexpected


def check_names(cfg, tensors):
    """from_pretrained's matching: a file without the base model's prefix gets it; a tied lm_head may be absent."""
    family = cfg["model_type"]
    if family == "gpt2":
        expected, prefix, tied, ignored = gpt2_state_dict(cfg)
    elif family in ("llama", "mistral", "qwen2", "qwen3"):
        expected, prefix, tied, ignored = llama_state_dict(cfg)
    else:
        fail(f"model_type {family!r}: this script checks gpt2 and the Llama template (llama, mistral, qwen2, qwen3)")
    has_prefix = any(n.startswith(prefix) for n in tensors)
    found = {}
    for name, t in tensors.items():
        full = name if has_prefix or name.startswith("lm_head.") else prefix + name
        found[full] = t
    missing = sorted(n for n in expected if n not in found and not (tied and n == "lm_head.weight"))
    unexpected = sorted(n for n in found if n not in expected and not any(n.endswith(i) for i in ignored))
    if missing:
        fail(f"transformers would initialise these at random, the file lacks them: {missing}")
    if unexpected:
        fail(f"transformers would report these as unexpected: {unexpected}")
    for name, (dtype, shape, _) in found.items():
        if name in expected and shape != expected[name]:
            fail(f"{name} has shape {shape}, config.json needs {expected[name]}")
        if dtype != "F32":
            fail(f"{name} is {dtype}; Attention Lab writes F32")
    return found, prefix


# ----------------------------------------------------------------------------
# the reference forwards
# ----------------------------------------------------------------------------

def reference_logits(cfg, found, prefix, ids):
    import torch
    w = {n: torch.from_numpy(a) for n, (_, _, a) in found.items() if a is not None}
    if cfg["model_type"] == "gpt2":
        from make_hf_golden import gpt2_forward
        g = {n[len(prefix):]: t for n, t in w.items() if n.startswith(prefix)}
        if "lm_head.weight" in w and not torch.equal(w["lm_head.weight"], g["wte.weight"]):
            fail("lm_head.weight differs from the tied wte.weight")
        return gpt2_forward(g, cfg, ids)["logits"].numpy()
    from make_hf_llama_golden import Arch, hf_forward, hf_inv_freq, hf_rope_table
    a = Arch(cfg)
    cos, sin = hf_rope_table(torch, hf_inv_freq(torch, a.theta, a.D, a.rope_scaling), len(ids))
    return hf_forward(torch, a, w, ids, cos, sin)["logits"].numpy()


def attnlab_logits(cli, folder, ids):
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.safetensors")
        run = subprocess.run([cli, "trace", folder, "--tgt-ids", ",".join(map(str, ids)), "--out", trace],
                             capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"attnlab-cli trace: {run.stderr.strip()}")
        tensors, _ = read_safetensors(trace)
    return tensors["logits"][2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--ids", default="1,5,7,3,2,9", help="token ids, taken modulo vocab_size")
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "..", "build", "attnlab-cli"))
    args = ap.parse_args()

    with open(os.path.join(args.folder, "config.json")) as f:
        cfg = json.load(f)
    tensors, metadata = read_safetensors(os.path.join(args.folder, "model.safetensors"))
    if (metadata or {}).get("format") != "pt":
        fail(f"__metadata__ {metadata}: transformers needs \"format\": \"pt\"")
    found, prefix = check_names(cfg, tensors)
    ids = [int(i) % cfg["vocab_size"] for i in args.ids.split(",")]
    want = reference_logits(cfg, found, prefix, ids)
    got = attnlab_logits(args.cli, args.folder, ids)
    if got.shape != want.shape:
        fail(f"logits {got.shape} from attnlab-cli, {want.shape} from the reference")
    diff = float(np.abs(got - want).max())
    if not diff <= 1e-4:
        fail(f"logits differ by {diff:.3g} (> 1e-4)")
    print(f"OK {cfg['model_type']} {args.folder}: {len(found)} tensors load as transformers loads them; "
          f"logits over {len(ids)} ids within {diff:.2g} of attnlab-cli's")


if __name__ == "__main__":
    main()
