#!/usr/bin/python3
"""A tiny llama folder stored in BF16, with PyTorch's two passes over it, for Attention Lab's BF16 weights.

Writes tests/golden/fixtures/hf_llama_bf16/:

  config.json           a llama config.json ("torch_dtype": "bfloat16"), tied embeddings, GQA
  model.safetensors     every tensor BF16 (round to nearest even from float32), named as the hub's files
  expected.safetensors  F32: logits_f32, the float32 pass on those BF16 weights (the weights widened, every
                        operation in float32), and logits_bf16, the bfloat16 pass (model.to(torch.bfloat16));
                        the input ids and the two passes' distance in the metadata

Attention Lab keeps BF16 weights as they are and multiplies in F32 (each weight widened exactly), so its
logits follow the float32 pass (within float32 rounding: 1e-5 relative); the bfloat16 pass rounds every
activation to bfloat16, and is as far from the float32 one as this script prints. Both passes follow
transformers' modeling_llama.py (LlamaRMSNorm: float32 inside, weight * x.to(input_dtype);
LlamaRotaryEmbedding: cos and sin in float32, then in x's dtype; eager_attention_forward: softmax in float32,
then the query's dtype; LlamaMLP: down(silu(gate(x)) * up(x)); LlamaForCausalLM: lm_head = embed_tokens when
tied), written out here, as make_hf_llama_golden.py does (transformers is not installed).

    /usr/bin/python3 tests/golden/make_hf_bf16_golden.py
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_fixture_io import FIXTURES, fail, rel_diff, whole, whole_f32, write_config, write_safetensors  # noqa: E402
from make_hf_llama_golden import Arch, hf_inv_freq, llama_config, to_bf16_bits  # noqa: E402

CASE = "hf_llama_bf16"
SEED = 20261129
IDS = [1, 40, 7, 93, 12, 12, 58, 3, 77, 21, 64, 9]
CONFIG = llama_config(hidden_size=64, intermediate_size=96, num_attention_heads=4, num_key_value_heads=2,
                      num_hidden_layers=2, vocab_size=100, tie_word_embeddings=True, torch_dtype="bfloat16")
MIN_DISTANCE = 1e-3  # the bfloat16 pass must differ from the float32 one by at least this (else it tests nothing)


def bf16_weights(torch, a):
    """The hub names, random float32 values rounded to BF16: {name: uint16 bit patterns}."""
    g = torch.Generator().manual_seed(SEED)

    def randn(*shape, scale=1.0, mean=0.0):
        return to_bf16_bits((mean + torch.randn(*shape, generator=g) * scale).numpy())

    C, H, Hkv, D, F, V = a.C, a.H, a.Hkv, a.D, a.F, a.V
    w = {"model.embed_tokens.weight": randn(V, C), "model.norm.weight": randn(C, scale=0.2, mean=1.0)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = randn(C, scale=0.2, mean=1.0)
        w[p + "post_attention_layernorm.weight"] = randn(C, scale=0.2, mean=1.0)
        w[p + "self_attn.q_proj.weight"] = randn(H * D, C, scale=1.2 / C ** 0.5)
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * D, C, scale=1.2 / C ** 0.5)
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * D, C, scale=1 / C ** 0.5)
        w[p + "self_attn.o_proj.weight"] = randn(C, H * D, scale=1 / (H * D) ** 0.5)
        w[p + "mlp.gate_proj.weight"] = randn(F, C, scale=1 / C ** 0.5)
        w[p + "mlp.up_proj.weight"] = randn(F, C, scale=1 / C ** 0.5)
        w[p + "mlp.down_proj.weight"] = randn(C, F, scale=1 / F ** 0.5)
    return w


def llama_forward(torch, a, w, ids, dtype):
    """LlamaForCausalLM's logits with every weight and activation in `dtype`, as modeling_llama.py computes them."""
    T = len(ids)

    def rms_norm(x, weight):  # LlamaRMSNorm.forward
        h = x.to(torch.float32)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + a.eps)
        return weight * h.to(x.dtype)

    def linear(x, name):  # nn.Linear without bias
        return torch.nn.functional.linear(x, w[name + ".weight"])

    def rotate_half(x):
        return torch.cat((-x[..., x.shape[-1] // 2:], x[..., : x.shape[-1] // 2]), dim=-1)

    # LlamaRotaryEmbedding.forward: float32 (autocast off), returned in x's dtype
    inv_freq = hf_inv_freq(torch, a.theta, a.D, None).float()
    freqs = (inv_freq[None, :, None] @ torch.arange(T)[None, None, :].float()).transpose(1, 2)[0]
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos().to(dtype), emb.sin().to(dtype)
    mask = torch.triu(torch.full((T, T), torch.finfo(dtype).min, dtype=dtype), diagonal=1)

    x = w["model.embed_tokens.weight"][ids]
    n_rep = a.H // a.Hkv
    for i in range(a.L):
        p = f"model.layers.{i}."
        n = rms_norm(x, w[p + "input_layernorm.weight"])
        q = linear(n, p + "self_attn.q_proj").view(T, -1, a.D).transpose(0, 1)
        k = linear(n, p + "self_attn.k_proj").view(T, -1, a.D).transpose(0, 1)
        v = linear(n, p + "self_attn.v_proj").view(T, -1, a.D).transpose(0, 1)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin  # apply_rotary_pos_emb
        k, v = k.repeat_interleave(n_rep, dim=0), v.repeat_interleave(n_rep, dim=0)  # repeat_kv
        scores = torch.matmul(q, k.transpose(1, 2)) * a.D ** -0.5 + mask  # eager_attention_forward
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        context = torch.matmul(probs, v).transpose(0, 1).reshape(T, -1)
        h = x + linear(context, p + "self_attn.o_proj")
        n = rms_norm(h, w[p + "post_attention_layernorm.weight"])
        x = h + linear(torch.nn.functional.silu(linear(n, p + "mlp.gate_proj")) * linear(n, p + "mlp.up_proj"),
                       p + "mlp.down_proj")
    x = rms_norm(x, w["model.norm.weight"])
    return torch.nn.functional.linear(x, w["model.embed_tokens.weight"])  # tied lm_head


def main():
    import torch
    a = Arch(CONFIG)
    bits = bf16_weights(torch, a)
    # The file's values as float32 (exact) and as bfloat16 (model.to(torch.bfloat16): the same values).
    f32 = {k: torch.from_numpy((v.astype(np.uint32) << 16).view(np.float32)) for k, v in bits.items()}
    bf16 = {k: v.to(torch.bfloat16) for k, v in f32.items()}
    with torch.no_grad():
        logits_f32 = llama_forward(torch, a, f32, IDS, torch.float32)
        logits_bf16 = llama_forward(torch, a, bf16, IDS, torch.bfloat16).float()
        logits_f64 = llama_forward(torch, a, {k: v.double() for k, v in f32.items()}, IDS, torch.float64)
    distance = rel_diff(logits_bf16.numpy(), logits_f32.numpy())
    f32_error = rel_diff(logits_f32.numpy(), logits_f64.numpy())
    if distance < MIN_DISTANCE:
        fail(f"the bfloat16 pass is only {distance:.3g} from the float32 one: it would not tell them apart")
    if f32_error > 1e-5:
        fail(f"the float32 pass is {f32_error:.3g} from float64: the 1e-5 check would be too tight")
    folder = os.path.join(FIXTURES, CASE)
    os.makedirs(folder, exist_ok=True)
    write_config(folder, CONFIG)
    write_safetensors(os.path.join(folder, "model.safetensors"),
                      [(k, *whole(v, "BF16")) for k, v in sorted(bits.items())], {"format": "pt"})
    metadata = {"tgt_ids": json.dumps(IDS), "bf16_from_f32": f"{distance:.6g}", "f32_from_f64": f"{f32_error:.6g}"}
    write_safetensors(os.path.join(folder, "expected.safetensors"),
                      [("logits_bf16", *whole_f32(logits_bf16.numpy())), ("logits_f32", *whole_f32(logits_f32.numpy()))],
                      metadata)
    print(f"{CASE}: float32 pass from float64 {f32_error:.3g}; bfloat16 pass from float32 {distance:.3g} "
          "(max |difference| / max |logit|)")


if __name__ == "__main__":
    main()
