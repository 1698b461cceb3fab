#!/usr/bin/python3
"""Hugging Face llama / mistral / qwen2 / qwen3 / smollm3 folders for Attention Lab's loaders, with PyTorch outputs.

Default mode writes seven tiny random models into tests/golden/fixtures/<case>/:

  config.json           the fields real hub config.json files of that model_type have
  model.safetensors     F32, named as the hub's *ForCausalLM files name their tensors
                        (model.embed_tokens, model.layers.{i}.self_attn.{q,k,v,o}_proj, ...,
                        model.norm, lm_head; hf_llama also holds the old checkpoints'
                        model.layers.{i}.self_attn.rotary_emb.inv_freq buffers, which nothing reads)
  expected.safetensors  F32 outputs of this script's own implementation of the Hugging Face modeling
                        code, under Attention Lab's step paths, with the input ids in the metadata

The reference follows, function by function, transformers' modeling_llama.py (LlamaRMSNorm,
LlamaRotaryEmbedding.forward, rotate_half, apply_rotary_pos_emb, repeat_kv, eager_attention_forward,
LlamaAttention, LlamaMLP, LlamaDecoderLayer, LlamaModel, LlamaForCausalLM), modeling_rope_utils.py
(_compute_default_rope_parameters, _compute_linear_scaling_rope_parameters,
_compute_llama3_parameters), modeling_mistral.py / masking_utils.py (the sliding window:
sliding_window_overlay, query i sees key j iff 0 <= i - j < sliding_window), modeling_qwen2.py
(Qwen2Attention: bias on q/k/v, none on o; Qwen2Config: no window unless use_sliding_window) and
modeling_qwen3.py (Qwen3Attention: q_norm / k_norm over head_dim before the rotation) and
modeling_smollm3.py (SmolLM3Attention: apply_rotary_pos_emb only where config.no_rope_layers[layer] is 1).

Everything is computed in float64 from the F32-rounded weights, except the RoPE table, which is
made as Hugging Face makes it whatever the model's dtype: inv_freq, position * inv_freq, cos and sin
all in float32 (then widened).

Each case is then computed a second, independent way (numpy, float64: RoPE as complex
multiplication of the pairs (x[i], x[i + D/2]), GQA as a loop over query heads, the mask built by a
loop, softmax over the allowed keys only) and compared with 1e-9 relative tolerance; the float32
RoPE table is compared with float64 trigonometry, and the outputs with exact trigonometry; RoPE's
relative-position property is checked; the llama3 frequencies must fall in all three regions and
the scaled model must differ from the unscaled one. Any failure exits 1.

--write-bench DIR --shape smollm2-135m|qwen2.5-0.5b|llama3.2-1b writes a random-weight (N(0, 0.02)) folder
with that hub model's config.json: SmolLM2-135M as one F32 model.safetensors (~540 MB), Qwen2.5-0.5B and
Llama-3.2-1B as BF16 in two shards with model.safetensors.index.json (~990 MB and ~2.5 GB). Write them
outside the repository.

    /usr/bin/python3 tests/golden/make_hf_llama_golden.py
    /usr/bin/python3 tests/golden/make_hf_llama_golden.py --write-bench /tmp/smollm2 --shape smollm2-135m
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_fixture_io import FIXTURES, REPO, fail, rel_diff, whole_f32, write_config, write_safetensors  # noqa: E402

CROSS_CHECK_TOL = 1e-9      # the two float64 implementations, same RoPE table
TABLE_TOL = 1e-6            # HF's float32 cos/sin against float64 trigonometry
EXACT_TRIG_TOL = 1e-5       # the outputs with float32 table against those with exact trigonometry
SCALING_MIN_EFFECT = 1e-3   # llama3 / linear scaling must move the logits by more than this

# ----------------------------------------------------------------------------
# bfloat16 storage
# ----------------------------------------------------------------------------

def to_bf16_bits(a):
    """float32 -> bfloat16 bit patterns, round to nearest even (as torch's .to(torch.bfloat16))."""
    bits = np.ascontiguousarray(a, dtype="<f4").view("<u4")
    return ((bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)).astype("<u2")


# ----------------------------------------------------------------------------
# the cases
# ----------------------------------------------------------------------------

def llama_config(**over):
    c = {"architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
         "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 32,
         "initializer_range": 0.02, "intermediate_size": 48, "max_position_embeddings": 4096,
         "mlp_bias": False, "model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 2,
         "num_key_value_heads": 2, "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
         "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "float32",
         "transformers_version": "4.45.0", "use_cache": True, "vocab_size": 50}
    c.update(over)
    return dict(sorted(c.items()))


CASES = [
    # Llama-2-era: the config.json Llama-2-7b-hf has (no rope_theta, attention_bias, mlp_bias or head_dim:
    # Hugging Face's defaults 10000.0, false, false, hidden/heads apply), the rotary_emb.inv_freq buffers.
    ("hf_llama", "llama 2 layers, H 4, H_kv 2, head_dim 8 implicit, untied lm_head, no biases, no rope_scaling; "
                 "Llama-2-era config.json without rope_theta/attention_bias/mlp_bias (defaults 10000, false, false); "
                 "model.layers.{i}.self_attn.rotary_emb.inv_freq buffers in the file",
     dict(config={"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2,
                  "hidden_act": "silu", "hidden_size": 32, "initializer_range": 0.02, "intermediate_size": 24,
                  "max_position_embeddings": 4096, "model_type": "llama", "num_attention_heads": 4,
                  "num_hidden_layers": 2, "num_key_value_heads": 2, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
                  "rope_scaling": None, "tie_word_embeddings": False, "torch_dtype": "float32",
                  "transformers_version": "4.31.0.dev0", "use_cache": True, "vocab_size": 50},
          ids=[1, 17, 33, 5, 41, 12, 12, 29, 8], inv_freq_buffers=True, seed=20261201)),
    ("hf_llama3_scaled", "llama, rope_scaling llama3 (factor 8, low 1, high 4, original 1024, theta 500000): "
                         "the 3 frequency pairs fall one in each region; explicit head_dim 6 with hidden 32 and H 4 "
                         "(H*D = 24 != hidden); H_kv 1; tied; attention_bias (q, k, v, o) and mlp_bias",
     dict(config=llama_config(attention_bias=True, mlp_bias=True, head_dim=6, num_key_value_heads=1,
                              intermediate_size=40, max_position_embeddings=16384, rope_theta=500000.0,
                              rope_scaling={"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                            "original_max_position_embeddings": 1024, "rope_type": "llama3"},
                              tie_word_embeddings=True, bos_token_id=48, eos_token_id=49),
          ids=[48, 3, 27, 44, 9, 9, 31, 16, 2], seed=20261202)),
    ("hf_llama_linear", "llama, rope_scaling linear factor 4 written with the older key \"type\" (as e.g. "
                        "vicuna-7b-v1.5-16k's config.json), hidden 24, H 3 = H_kv 3 (no GQA, odd head count), untied",
     dict(config=llama_config(hidden_size=24, num_attention_heads=3, num_key_value_heads=3, intermediate_size=32,
                              max_position_embeddings=16384,
                              rope_scaling={"factor": 4.0, "type": "linear"}),
          ids=[1, 44, 7, 19, 7, 36, 3, 25, 40], seed=20261203)),
    ("hf_mistral", "mistral, sliding_window 3 (query i sees keys i-2..i; T = 9 so the window cuts), H 4, H_kv 2, "
                   "untied",
     dict(config={"architectures": ["MistralForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
                  "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 32, "initializer_range": 0.02,
                  "intermediate_size": 24, "max_position_embeddings": 32768, "model_type": "mistral",
                  "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 2,
                  "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "sliding_window": 3, "tie_word_embeddings": False,
                  "torch_dtype": "float32", "transformers_version": "4.45.0", "use_cache": True, "vocab_size": 50},
          ids=[1, 22, 6, 38, 14, 6, 47, 30, 11], seed=20261204)),
    ("hf_qwen2", "qwen2, biases on q, k, v (not o), tied, H 4, H_kv 2, theta 1e6; sliding_window 4 with "
                 "use_sliding_window false and max_window_layers 1, which Hugging Face ignores (no window)",
     dict(config={"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 48,
                  "eos_token_id": 48, "hidden_act": "silu", "hidden_size": 32, "initializer_range": 0.02,
                  "intermediate_size": 24, "max_position_embeddings": 32768, "max_window_layers": 1,
                  "model_type": "qwen2", "num_attention_heads": 4, "num_hidden_layers": 2,
                  "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000.0,
                  "sliding_window": 4, "tie_word_embeddings": True, "torch_dtype": "float32",
                  "transformers_version": "4.45.0", "use_cache": True, "use_mrope": False,
                  "use_sliding_window": False, "vocab_size": 50},
          ids=[48, 13, 37, 4, 26, 13, 45, 20, 9], seed=20261205)),
    ("hf_qwen3", "qwen3, q_norm / k_norm (RMSNorm over head_dim, before RoPE), explicit head_dim 16 with hidden 16 "
                 "and H 4 (H*D = 64 != hidden), H_kv 2, untied, no biases",
     dict(config={"architectures": ["Qwen3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
                  "bos_token_id": 48, "eos_token_id": 49, "head_dim": 16, "hidden_act": "silu", "hidden_size": 16,
                  "initializer_range": 0.02, "intermediate_size": 24, "max_position_embeddings": 40960,
                  "max_window_layers": 2, "model_type": "qwen3", "num_attention_heads": 4,
                  "num_hidden_layers": 2, "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None,
                  "rope_theta": 1000000.0, "sliding_window": None, "tie_word_embeddings": False,
                  "torch_dtype": "float32", "transformers_version": "4.51.0", "use_cache": True,
                  "use_sliding_window": False, "vocab_size": 50},
          ids=[48, 35, 2, 18, 43, 35, 10, 27, 6], seed=20261206)),
    ("hf_smollm3", "smollm3, 4 layers with no_rope_layers [1, 1, 1, 0] (layer 3 is a NoPE layer: no rotation), "
                   "H 4, H_kv 2, tied, no biases, theta 5e6, use_sliding_window false",
     dict(config={"architectures": ["SmolLM3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
                  "bos_token_id": 48, "eos_token_id": 49, "hidden_act": "silu", "hidden_size": 16,
                  "initializer_range": 0.02, "intermediate_size": 24, "max_position_embeddings": 65536,
                  "mlp_bias": False, "model_type": "smollm3", "no_rope_layer_interval": 4,
                  "no_rope_layers": [1, 1, 1, 0], "num_attention_heads": 4, "num_hidden_layers": 4,
                  "num_key_value_heads": 2, "pad_token_id": 47, "rms_norm_eps": 1e-06, "rope_scaling": None,
                  "rope_theta": 5000000.0, "sliding_window": None, "tie_word_embeddings": True,
                  "torch_dtype": "float32", "transformers_version": "4.53.0", "use_cache": True,
                  "use_sliding_window": False, "vocab_size": 50},
          ids=[48, 21, 9, 33, 14, 21, 40, 5, 26], seed=20261207)),
]


class Arch:
    """What the modeling code derives from a config.json (HF's defaults where a key is missing)."""

    def __init__(self, cfg):
        t = cfg["model_type"]
        self.family = t
        self.C = cfg["hidden_size"]
        self.H = cfg["num_attention_heads"]
        self.Hkv = cfg.get("num_key_value_heads") or self.H
        head_dim = cfg.get("head_dim")  # LlamaConfig: head_dim if not None else hidden_size // heads
        self.D = head_dim if head_dim is not None else self.C // self.H
        self.F = cfg["intermediate_size"]
        self.L = cfg["num_hidden_layers"]
        self.V = cfg["vocab_size"]
        self.eps = cfg["rms_norm_eps"]
        self.theta = cfg.get("rope_theta", 2000000.0 if t == "smollm3" else 10000.0)
        self.rope_scaling = cfg.get("rope_scaling")
        self.tied = cfg.get("tie_word_embeddings", t == "smollm3")  # SmolLM3Config ties by default
        assert cfg["hidden_act"] == "silu"
        # Biases: LlamaAttention q/k/v/o all bias=config.attention_bias, LlamaMLP bias=config.mlp_bias;
        # MistralAttention / MistralMLP bias=False; Qwen2Attention q/k/v bias=True, o bias=False, Qwen2MLP none;
        # Qwen3Attention q/k/v/o bias=config.attention_bias, Qwen3MLP none.
        if t == "llama":
            ab, self.mlp_bias = cfg.get("attention_bias", False), cfg.get("mlp_bias", False)
            self.qkv_bias = self.o_bias = ab
        elif t == "mistral":
            self.qkv_bias = self.o_bias = self.mlp_bias = False
        elif t == "qwen2":
            self.qkv_bias, self.o_bias, self.mlp_bias = True, False, False
        elif t == "qwen3":
            self.qkv_bias = self.o_bias = cfg.get("attention_bias", False)
            self.mlp_bias = False
        elif t == "smollm3":  # SmolLM3Attention: q/k/v/o bias=config.attention_bias; SmolLM3MLP: config.mlp_bias
            self.qkv_bias = self.o_bias = cfg.get("attention_bias", False)
            self.mlp_bias = cfg.get("mlp_bias", False)
            assert not cfg.get("use_sliding_window")
        else:
            raise ValueError(t)
        self.qk_norm = t == "qwen3"
        # SmolLM3Attention.use_rope = config.no_rope_layers[layer] (1: RoPE, 0: NoPE); SmolLM3Config fills the list
        # with a NoPE layer every no_rope_layer_interval layers when it is absent. Every other family rotates.
        self.rope_layers = [True] * self.L
        if t == "smollm3":
            flags = cfg.get("no_rope_layers") or [int((i + 1) % cfg.get("no_rope_layer_interval", 4) != 0)
                                                  for i in range(self.L)]
            self.rope_layers = [bool(flags[i]) for i in range(self.L)]
        # Sliding window: MistralConfig.sliding_window as is; Qwen2Config / Qwen3Config set it to None unless
        # use_sliding_window (then only layers >= max_window_layers use it).
        self.window = [None] * self.L
        if t == "mistral" and cfg.get("sliding_window") is not None:
            self.window = [cfg["sliding_window"]] * self.L
        elif t in ("qwen2", "qwen3") and cfg.get("use_sliding_window") and cfg.get("sliding_window") is not None:
            self.window = [cfg["sliding_window"] if i >= cfg.get("max_window_layers", 28) else None
                           for i in range(self.L)]


def make_weights(torch, a, seed, inv_freq_buffers):
    """The hub names, float64 values rounded to F32 (so both implementations start from the file's values)."""
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    C, H, Hkv, D, F, V = a.C, a.H, a.Hkv, a.D, a.F, a.V
    w = {"model.embed_tokens.weight": randn(V, C)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = 1 + randn(C, scale=0.2)
        w[p + "self_attn.q_proj.weight"] = randn(H * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * D, C, scale=1 / math.sqrt(C))
        w[p + "self_attn.o_proj.weight"] = randn(C, H * D, scale=1 / math.sqrt(H * D))
        if a.qkv_bias:
            w[p + "self_attn.q_proj.bias"] = randn(H * D, scale=0.3)
            w[p + "self_attn.k_proj.bias"] = randn(Hkv * D, scale=0.3)
            w[p + "self_attn.v_proj.bias"] = randn(Hkv * D, scale=0.3)
        if a.o_bias:
            w[p + "self_attn.o_proj.bias"] = randn(C, scale=0.1)
        if a.qk_norm:
            w[p + "self_attn.q_norm.weight"] = 1 + randn(D, scale=0.2)
            w[p + "self_attn.k_norm.weight"] = 1 + randn(D, scale=0.2)
        w[p + "post_attention_layernorm.weight"] = 1 + randn(C, scale=0.2)
        w[p + "mlp.gate_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
        w[p + "mlp.up_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
        w[p + "mlp.down_proj.weight"] = randn(C, F, scale=1 / math.sqrt(F))
        if a.mlp_bias:
            for name, n in (("gate_proj", F), ("up_proj", F), ("down_proj", C)):
                w[p + f"mlp.{name}.bias"] = randn(n, scale=0.1)
    w["model.norm.weight"] = 1 + randn(C, scale=0.2)
    if not a.tied:
        w["lm_head.weight"] = randn(V, C, scale=1 / math.sqrt(C))
    for name in w:
        w[name] = w[name].float().double()
    extra = {}
    if inv_freq_buffers:  # the persistent buffer of transformers < 4.31, default RoPE (what those files hold)
        inv = hf_inv_freq(torch, a.theta, a.D, None)
        for i in range(a.L):
            extra[f"model.layers.{i}.self_attn.rotary_emb.inv_freq"] = inv.double()
    return w, extra


# ----------------------------------------------------------------------------
# the reference: Hugging Face's modeling code, function by function
# ----------------------------------------------------------------------------

def hf_inv_freq(torch, base, dim, rope_scaling):
    """modeling_rope_utils: _compute_default_rope_parameters, then _compute_linear_scaling_rope_parameters
    or _compute_llama3_parameters, in float32 as there."""
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    assert inv_freq.dtype == torch.float32
    if rope_scaling is None:
        return inv_freq
    rope_type = rope_scaling.get("rope_type", rope_scaling.get("type"))  # BC: "rope_type" was "type"
    if rope_type == "default":
        return inv_freq
    if rope_type == "linear":
        return inv_freq / rope_scaling["factor"]
    if rope_type == "llama3":
        factor = rope_scaling["factor"]
        low_freq_factor = rope_scaling["low_freq_factor"]
        high_freq_factor = rope_scaling["high_freq_factor"]
        old_context_len = rope_scaling["original_max_position_embeddings"]
        low_freq_wavelen = old_context_len / low_freq_factor
        high_freq_wavelen = old_context_len / high_freq_factor
        wavelen = 2 * math.pi / inv_freq
        # wavelen < high_freq_wavelen: unchanged; wavelen > low_freq_wavelen: divided by factor
        inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
        # in between: interpolated with a smooth factor
        smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
        smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
        is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
        out = torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)
        assert out.dtype == torch.float32
        return out
    raise ValueError(f"rope type {rope_type} is not in these fixtures")


def hf_rope_table(torch, inv_freq, T):
    """LlamaRotaryEmbedding.forward for position_ids 0..T-1: freqs = inv_freq ⊗ positions in float32
    (a matmul, autocast off), emb = cat(freqs, freqs), cos and sin in float32; returned as float64 (T, D)."""
    inv_freq_expanded = inv_freq[None, :, None].float()
    position_ids_expanded = torch.arange(T)[None, None, :].float()
    freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)[0]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().double(), emb.sin().double()


def hf_forward(torch, a, w, ids, cos, sin, window_override="config", rope_everywhere=False):
    """LlamaForCausalLM / MistralForCausalLM / Qwen2ForCausalLM / Qwen3ForCausalLM / SmolLM3ForCausalLM, eager
    attention, float64. rope_everywhere: rotate SmolLM3's NoPE layers too (to show that skipping it matters)."""
    windows = a.window if window_override == "config" else [window_override] * a.L
    out = {}

    def rms_norm(x, weight):  # LlamaRMSNorm: x * rsqrt(mean(x^2) + eps), then weight * (input dtype)
        variance = x.pow(2).mean(-1, keepdim=True)
        return weight * (x * torch.rsqrt(variance + a.eps))

    def linear(x, name):
        y = x @ w[name + ".weight"].T
        return y + w[name + ".bias"] if name + ".bias" in w else y

    def rotate_half(x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def repeat_kv(x, n_rep):  # (H_kv, T, D) -> (H_kv * n_rep, T, D), each kv head n_rep times in a row
        if n_rep == 1:
            return x
        Hkv, T, D = x.shape
        return x[:, None, :, :].expand(Hkv, n_rep, T, D).reshape(Hkv * n_rep, T, D)

    def causal_mask(T, window, dtype):  # _prepare_4d_causal_attention_mask_with_cache_position (mistral's)
        min_dtype = torch.finfo(dtype).min
        cache_position = torch.arange(T)
        mask = torch.full((T, T), min_dtype, dtype=dtype)
        masked = torch.arange(T) > cache_position.reshape(-1, 1)
        if window is not None:
            masked |= torch.arange(T) <= (cache_position.reshape(-1, 1) - window)
        return mask * masked

    x = w["model.embed_tokens.weight"][ids]
    T = len(ids)
    out["tgt.embed"] = x
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)  # LlamaRotaryEmbedding.forward returns them in x's dtype
    for i in range(a.L):
        p, s = f"model.layers.{i}.", f"decoder.layers.{i}."
        n = rms_norm(x, w[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        # LlamaAttention.forward: view (T, heads, D), transpose to (heads, T, D)
        # (each stored step is the tensor the computation goes on from, so that make_grad_golden.py's
        # autograd reaches it; transposing the stored (heads, T, D) view back gives q's own strides)
        q = linear(n, p + "self_attn.q_proj").view(T, -1, a.D)
        k = linear(n, p + "self_attn.k_proj").view(T, -1, a.D)
        v = linear(n, p + "self_attn.v_proj").view(T, -1, a.D).transpose(0, 1)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q.transpose(0, 1), k.transpose(0, 1), v
        q, k = out[s + "self_attn.q"], out[s + "self_attn.k"]
        if a.qk_norm:  # Qwen3Attention: q_norm(q_proj(x).view(hidden_shape)), before the rotation
            q = rms_norm(q.transpose(0, 1), w[p + "self_attn.q_norm.weight"])
            k = rms_norm(k.transpose(0, 1), w[p + "self_attn.k_norm.weight"])
            out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"] = q.transpose(0, 1), k.transpose(0, 1)
            q, k = out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"]
        if a.rope_layers[i] or rope_everywhere:  # SmolLM3Attention.forward: `if self.use_rope`
            q = q * cos + rotate_half(q) * sin  # apply_rotary_pos_emb, cos/sin broadcast over heads
            k = k * cos + rotate_half(k) * sin
            out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        # eager_attention_forward
        n_rep = a.H // a.Hkv
        key_states, value_states = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
        scores = torch.matmul(q, key_states.transpose(1, 2)) * a.D ** -0.5
        scores = scores + causal_mask(T, windows[i], scores.dtype)
        weights = torch.softmax(scores, dim=-1)
        out[s + "self_attn.weights"] = weights
        context = torch.matmul(weights, value_states).transpose(0, 1).reshape(T, -1)
        attn = linear(context, p + "self_attn.o_proj")
        out[s + "self_attn.out"] = attn
        h = x + attn
        out[s + "residual1"] = h
        n = rms_norm(h, w[p + "post_attention_layernorm.weight"])
        out[s + "norm2"] = n
        gate = linear(n, p + "mlp.gate_proj")
        act = torch.nn.functional.silu(gate)  # ACT2FN["silu"]
        up = linear(n, p + "mlp.up_proj")
        gated = act * up
        down = linear(gated, p + "mlp.down_proj")
        out[s + "ffn.gate"], out[s + "ffn.activation"], out[s + "ffn.up"] = gate, act, up
        out[s + "ffn.gated"], out[s + "ffn.out"] = gated, down
        x = h + down
        out[s + "residual2"] = x
    x = rms_norm(x, w["model.norm.weight"])
    out["decoder.output"] = x
    out["logits"] = x @ (w["model.embed_tokens.weight"] if a.tied else w["lm_head.weight"]).T
    return out


# ----------------------------------------------------------------------------
# the independent implementation (numpy, float64, loops and complex numbers)
# ----------------------------------------------------------------------------

def independent_inv_freq(base, dim, rope_scaling):
    """θ_i = base^(-2i/dim) in float64, then the scaling, written per frequency with an explicit branch.
    Returns (θ, region per pair: 'high' kept, 'medium' interpolated, 'low' divided by factor, or None)."""
    thetas, regions = [], []
    for i in range(dim // 2):
        th = base ** (-2.0 * i / dim)
        region = None
        if rope_scaling is not None:
            kind = rope_scaling.get("rope_type") or rope_scaling.get("type")
            factor = rope_scaling["factor"]
            if kind == "linear":
                th = th / factor
            elif kind == "llama3":
                old = rope_scaling["original_max_position_embeddings"]
                lo, hi = rope_scaling["low_freq_factor"], rope_scaling["high_freq_factor"]
                wavelength = 2 * math.pi / th
                if wavelength < old / hi:
                    region = "high"
                elif wavelength > old / lo:
                    region, th = "low", th / factor
                else:
                    ratio = old / wavelength  # lo..hi across the medium band
                    mix = (ratio - lo) / (hi - lo)
                    region, th = "medium", th * (mix + (1 - mix) / factor)
        thetas.append(th)
        regions.append(region)
    return np.array(thetas), regions


def independent_forward(a, w, ids, phase):
    """phase: (T, D/2) complex, e^{i·pos·θ}. Rotation: the pair (x[i], x[i + D/2]) as x[i] + 1j·x[i + D/2],
    times the phase; GQA by a loop over query heads; the mask by a loop; softmax over allowed keys only."""
    W = {k: v.numpy() for k, v in w.items()}
    T, D, half = len(ids), a.D, a.D // 2
    out = {}

    def norm(x, gain):
        return np.stack([row / math.sqrt(float(np.dot(row, row)) / row.size + a.eps) for row in x]) * gain

    def lin(x, name):
        y = np.einsum("tc,oc->to", x, W[name + ".weight"])
        return y + W[name + ".bias"] if name + ".bias" in W else y

    def rotate(x):  # x (heads, T, D) real -> rotated by the phases of each position
        z = (x[..., :half] + 1j * x[..., half:]) * phase[None, :, :]
        return np.concatenate([z.real, z.imag], axis=-1)

    def heads(x, n):  # (T, n·D) -> (n, T, D): head h is columns h·D .. h·D + D - 1
        return np.stack([x[:, h * D:(h + 1) * D] for h in range(n)])

    x = W["model.embed_tokens.weight"][np.array(ids)]
    out["tgt.embed"] = x
    group = a.H // a.Hkv
    for layer in range(a.L):
        p, s = f"model.layers.{layer}.", f"decoder.layers.{layer}."
        window = a.window[layer]
        allowed = np.zeros((T, T), dtype=bool)
        for i in range(T):
            for j in range(T):
                allowed[i, j] = j <= i and (window is None or j > i - window)  # masking_utils' overlay
        n = norm(x, W[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        q = heads(lin(n, p + "self_attn.q_proj"), a.H)
        k = heads(lin(n, p + "self_attn.k_proj"), a.Hkv)
        v = heads(lin(n, p + "self_attn.v_proj"), a.Hkv)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        if a.qk_norm:
            q = np.stack([norm(qh, W[p + "self_attn.q_norm.weight"]) for qh in q])
            k = np.stack([norm(kh, W[p + "self_attn.k_norm.weight"]) for kh in k])
            out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"] = q, k
        if a.rope_layers[layer]:  # a NoPE layer scores q and k as they are
            q, k = rotate(q), rotate(k)
            out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        weights = np.zeros((a.H, T, T))
        context = np.zeros((T, a.H * D))
        for h in range(a.H):
            kv = h // group
            for i in range(T):
                js = [j for j in range(T) if allowed[i, j]]
                sc = np.array([float(np.dot(q[h, i], k[kv, j])) / math.sqrt(D) for j in js])
                e = np.exp(sc - sc.max())
                e /= e.sum()
                for j, pj in zip(js, e):
                    weights[h, i, j] = pj
                    context[i, h * D:(h + 1) * D] += pj * v[kv, j]
        out[s + "self_attn.weights"] = weights
        attn = lin(context, p + "self_attn.o_proj")
        out[s + "self_attn.out"] = attn
        hres = x + attn
        out[s + "residual1"] = hres
        n = norm(hres, W[p + "post_attention_layernorm.weight"])
        out[s + "norm2"] = n
        gate = lin(n, p + "mlp.gate_proj")
        act = gate / (1 + np.exp(-gate))
        up = lin(n, p + "mlp.up_proj")
        out[s + "ffn.gate"], out[s + "ffn.activation"], out[s + "ffn.up"] = gate, act, up
        out[s + "ffn.gated"] = act * up
        out[s + "ffn.out"] = lin(act * up, p + "mlp.down_proj")
        x = hres + out[s + "ffn.out"]
        out[s + "residual2"] = x
    x = norm(x, W["model.norm.weight"])
    out["decoder.output"] = x
    unembed = W["model.embed_tokens.weight"] if a.tied else W["lm_head.weight"]
    out["logits"] = np.einsum("tc,vc->tv", x, unembed)
    return out


# ----------------------------------------------------------------------------
# building and checking one case
# ----------------------------------------------------------------------------

def build_case(torch, name, description, spec):
    cfg = spec["config"]
    a = Arch(cfg)
    ids = spec["ids"]
    T = len(ids)
    assert ids[0] == cfg["bos_token_id"] and max(ids) < a.V
    w, extra = make_weights(torch, a, spec["seed"], spec.get("inv_freq_buffers", False))
    inv_freq = hf_inv_freq(torch, a.theta, a.D, a.rope_scaling)
    cos, sin = hf_rope_table(torch, inv_freq, T)
    out = hf_forward(torch, a, w, ids, cos, sin)
    out["rope.inv_freq"] = inv_freq.double()
    report = {}

    # 1. inv_freq against the float64 formula written per frequency
    theta64, regions = independent_inv_freq(a.theta, a.D, a.rope_scaling)
    d = rel_diff(inv_freq.double().numpy(), theta64)
    if d > TABLE_TOL:
        fail(f"{name}: inv_freq differs from the float64 formula by {d:.3g} (relative)")
    report["inv_freq vs float64 formula"] = d
    if a.rope_scaling and a.rope_scaling.get("rope_type", a.rope_scaling.get("type")) == "llama3":
        counts = {r: regions.count(r) for r in ("high", "medium", "low")}
        if min(counts.values()) < 1:
            fail(f"{name}: llama3 frequencies are not in all three regions: {counts}")
        report["llama3 regions (high, medium, low)"] = (counts["high"], counts["medium"], counts["low"])

    # 2. HF's float32 cos/sin table: the cat(freqs, freqs) layout and its float32 rounding
    half = a.D // 2
    if not (torch.equal(cos[:, :half], cos[:, half:]) and torch.equal(sin[:, :half], sin[:, half:])):
        fail(f"{name}: the RoPE table is not cat(freqs, freqs)")
    positions = np.arange(T)[:, None]
    exact_phase = np.exp(1j * positions * inv_freq.double().numpy()[None, :])  # float64 trig, float32 θ
    d = max(float(np.abs(cos[:, :half].numpy() - exact_phase.real).max()),
            float(np.abs(sin[:, :half].numpy() - exact_phase.imag).max()))
    if d > TABLE_TOL:
        fail(f"{name}: HF's float32 cos/sin differ from float64 trigonometry by {d:.3g}")
    report["float32 cos/sin vs float64 (abs)"] = d

    # 3. the independent implementation, fed the same table as complex phases
    hf_phase = cos[:, :half].numpy() + 1j * sin[:, :half].numpy()
    ind = independent_forward(a, w, ids, hf_phase)
    worst, worst_name = 0.0, ""
    for key, want in ind.items():
        d = rel_diff(out[key].numpy(), want)
        if d > worst:
            worst, worst_name = d, key
        if d > CROSS_CHECK_TOL:
            fail(f"{name}: {key} differs between the two implementations by {d:.3g} (relative)")
    if set(ind) != set(out) - {"rope.inv_freq"}:
        fail(f"{name}: the implementations give different step sets: {sorted(set(ind) ^ set(out))}")
    report["independent forward, max relative diff"] = (worst, worst_name)

    # 4. the outputs with exact (float64) trigonometry: how much HF's float32 table moves them
    exact = independent_forward(a, w, ids, exact_phase)
    d = max(rel_diff(out[key].numpy(), exact[key]) for key in ("logits", "decoder.output"))
    if d > EXACT_TRIG_TOL:
        fail(f"{name}: the float32 RoPE table moves the outputs by {d:.3g} (relative)")
    report["float32 table vs exact trig, logits/output"] = d

    # 5. RoPE's relative-position property on layer 0's own q and k (float64 rotation, HF's rotate_half form)
    p0 = "decoder.layers.0.self_attn."
    q0 = out[p0 + ("q_norm" if a.qk_norm else "q")][0].numpy()  # head 0, before the rotation
    k0 = out[p0 + ("k_norm" if a.qk_norm else "k")][0].numpy()  # kv head 0
    th = inv_freq.double().numpy()

    def rot(x, pos):
        c, s_ = np.cos(pos * th), np.sin(pos * th)
        x1, x2 = x[:half], x[half:]
        return np.concatenate([x1 * c - x2 * s_, x2 * c + x1 * s_])

    worst = 0.0
    for m in range(T):
        for n in range(T):
            s1 = float(np.dot(rot(q0[m], m), rot(k0[n], n)))
            s2 = float(np.dot(rot(q0[m], m + 3), rot(k0[n], n + 3)))
            worst = max(worst, abs(s1 - s2) / max(abs(s1), 1.0))
    if worst > CROSS_CHECK_TOL:
        fail(f"{name}: q_m·k_n after RoPE changes when both positions move by 3: {worst:.3g}")
    report["RoPE shift-by-3 invariance"] = worst
    # and the stored q_rot is that rotation
    d = rel_diff(out[p0 + "q_rot"][0].numpy(), np.stack([rot(q0[m], m) for m in range(T)]))
    report["q_rot vs float64 rotation"] = d

    # 6. features that must matter
    if a.rope_scaling:
        plain_inv = hf_inv_freq(torch, a.theta, a.D, None)
        c0, s0 = hf_rope_table(torch, plain_inv, T)
        d = float((hf_forward(torch, a, w, ids, c0, s0)["logits"] - out["logits"]).abs().max())
        if d <= SCALING_MIN_EFFECT:
            fail(f"{name}: rope_scaling changes the logits by only {d:.3g}")
        report["scaled vs unscaled logits (abs)"] = d
    if any(win is not None for win in a.window):
        weights = out["decoder.layers.0.self_attn.weights"]
        win = a.window[0]
        outside = max(float(weights[:, i, j].abs().max()) for i in range(T) for j in range(T) if i - j >= win or j > i)
        inside = min(float(weights[:, i, j].min()) for i in range(T) for j in range(T) if 0 <= i - j < win)
        if outside != 0.0 or inside <= 0.0:
            fail(f"{name}: the sliding window does not cut as it should")
        d = float((hf_forward(torch, a, w, ids, cos, sin, window_override=None)["logits"] - out["logits"]).abs().max())
        if d <= SCALING_MIN_EFFECT:
            fail(f"{name}: the sliding window changes the logits by only {d:.3g}")
        report["window vs no window logits (abs)"] = d
    if not all(a.rope_layers):
        nope = [i for i in range(a.L) if not a.rope_layers[i]]
        if any(f"decoder.layers.{i}.self_attn.q_rot" in out for i in nope):
            fail(f"{name}: a NoPE layer has a rotation")
        d = float((hf_forward(torch, a, w, ids, cos, sin, rope_everywhere=True)["logits"] - out["logits"]).abs().max())
        if d <= SCALING_MIN_EFFECT:
            fail(f"{name}: rotating the NoPE layers too changes the logits by only {d:.3g}")
        report["NoPE layers " + str(nope) + " rotated too: logits (abs)"] = d
    if a.family == "qwen2" and cfg.get("sliding_window") and not cfg.get("use_sliding_window"):
        d = float((hf_forward(torch, a, w, ids, cos, sin, window_override=cfg["sliding_window"])["logits"]
                   - out["logits"]).abs().max())
        if d <= SCALING_MIN_EFFECT:
            fail(f"{name}: applying the (ignored) sliding_window would not change the logits")
        report["ignored sliding_window, if applied: logits (abs)"] = d
    wmin = min(float(out[f"decoder.layers.{i}.self_attn.weights"].max(-1).values.min()) for i in range(a.L))
    report["smallest row maximum of the attention weights"] = wmin

    tensors = dict(w)
    tensors.update(extra)
    metadata = {"tgt_ids": json.dumps(ids), "src_ids": "[]", "case": name, "description": description}
    return cfg, tensors, out, metadata, report


def write_tiny_fixtures():
    import torch
    torch.set_default_dtype(torch.float64)
    for name, description, spec in CASES:
        cfg, tensors, out, metadata, report = build_case(torch, name, description, spec)
        folder = os.path.join(FIXTURES, name)
        os.makedirs(folder, exist_ok=True)
        write_config(folder, cfg)
        write_safetensors(os.path.join(folder, "model.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(tensors.items())], {"format": "pt"})
        write_safetensors(os.path.join(folder, "expected.safetensors"),
                          [(k, *whole_f32(v.numpy())) for k, v in sorted(out.items())], metadata)
        sizes = {f: os.path.getsize(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
        total = sum(sizes.values())
        print(f"{name}: " + ", ".join(f"{f} {n / 1024:.1f} KB" for f, n in sizes.items()) + f" (total {total / 1024:.1f} KB)")
        for key, value in report.items():
            if isinstance(value, float):
                value = f"{value:.3g}"
            elif isinstance(value, tuple) and isinstance(value[0], float):
                value = f"{value[0]:.3g} ({value[1]})"
            print(f"    {key}: {value}")


# ----------------------------------------------------------------------------
# benchmark-sized folders
# ----------------------------------------------------------------------------

BENCH_SHAPES = {
    # HuggingFaceTB/SmolLM2-135M config.json
    "smollm2-135m": {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
        "bos_token_id": 0, "eos_token_id": 0, "hidden_act": "silu", "hidden_size": 576,
        "initializer_range": 0.041666666666666664, "intermediate_size": 1536, "is_llama_config": True,
        "max_position_embeddings": 8192, "mlp_bias": False, "model_type": "llama", "num_attention_heads": 9,
        "num_hidden_layers": 30, "num_key_value_heads": 3, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
        "rope_interleaved": False, "rope_scaling": None, "rope_theta": 100000, "tie_word_embeddings": True,
        "torch_dtype": "bfloat16", "transformers_version": "4.40.1", "use_cache": True, "vocab_size": 49152,
    },
    # Qwen/Qwen2.5-0.5B config.json
    "qwen2.5-0.5b": {
        "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
        "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02,
        "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24,
        "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2,
        "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": True,
        "torch_dtype": "bfloat16", "transformers_version": "4.40.1", "use_cache": True, "use_mrope": False,
        "use_sliding_window": False, "vocab_size": 151936,
    },
    # meta-llama/Llama-3.2-1B config.json
    "llama3.2-1b": {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
        "bos_token_id": 128000, "eos_token_id": 128001, "head_dim": 64, "hidden_act": "silu", "hidden_size": 2048,
        "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 131072, "mlp_bias": False,
        "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 16, "num_key_value_heads": 8,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05,
        "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                         "original_max_position_embeddings": 8192, "rope_type": "llama3"},
        "rope_theta": 500000.0, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
        "transformers_version": "4.45.0.dev0", "use_cache": True, "vocab_size": 128256,
    },
}


def bench_tensors(cfg, rng, tag):
    """(name, shape, tag, chunks) in model order, each made only when the writer reaches it.
    Linear and embedding weights N(0, 0.02), norm gains 1, biases 0 (as Hugging Face initialises them)."""
    a = Arch(cfg)
    C, H, Hkv, D, F, V = a.C, a.H, a.Hkv, a.D, a.F, a.V

    def convert(block):
        return to_bf16_bits(block) if tag == "BF16" else block

    def normal(*shape):
        step = max(1, (1 << 22) // int(np.prod(shape[1:], dtype=np.int64)))
        for r in range(0, shape[0], step):
            yield convert(rng.standard_normal((min(step, shape[0] - r),) + shape[1:], dtype=np.float32) * np.float32(0.02))

    def constant(value, *shape):
        yield convert(np.full(shape, value, dtype=np.float32))

    def t(name, gen, *shape):
        return (name, shape, tag, gen(*shape))

    def c(name, value, *shape):
        return (name, shape, tag, constant(value, *shape))

    out = [t("model.embed_tokens.weight", normal, V, C)]
    for i in range(a.L):
        p = f"model.layers.{i}."
        layer = [c(p + "input_layernorm.weight", 1.0, C),
                 t(p + "self_attn.q_proj.weight", normal, H * D, C),
                 t(p + "self_attn.k_proj.weight", normal, Hkv * D, C),
                 t(p + "self_attn.v_proj.weight", normal, Hkv * D, C)]
        if a.qkv_bias:
            layer += [c(p + "self_attn.q_proj.bias", 0.0, H * D), c(p + "self_attn.k_proj.bias", 0.0, Hkv * D),
                      c(p + "self_attn.v_proj.bias", 0.0, Hkv * D)]
        layer += [t(p + "self_attn.o_proj.weight", normal, C, H * D),
                  c(p + "post_attention_layernorm.weight", 1.0, C),
                  t(p + "mlp.gate_proj.weight", normal, F, C),
                  t(p + "mlp.up_proj.weight", normal, F, C),
                  t(p + "mlp.down_proj.weight", normal, C, F)]
        out += layer
    out.append(c("model.norm.weight", 1.0, C))
    if not a.tied:
        out.append(t("lm_head.weight", normal, V, C))
    return out


def write_bench(folder, shape, seed=135):
    if os.path.abspath(folder).startswith(REPO + os.sep) or os.path.abspath(folder) == REPO:
        sys.exit("the benchmark folders are hundreds of MB: write them outside the repository")
    cfg = BENCH_SHAPES[shape]
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    write_config(folder, cfg)
    if shape == "smollm2-135m":
        tensors = bench_tensors(cfg, rng, "F32")
        n_bytes = write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
        files = {"model.safetensors": n_bytes}
    else:
        tensors = bench_tensors(cfg, rng, "BF16")
        sizes = [int(np.prod(s, dtype=np.int64)) * 2 for _, s, _, _ in tensors]
        total, running, cut = sum(sizes), 0, len(tensors)
        for n, size in enumerate(sizes):  # the first shard takes tensors until it holds half the bytes
            running += size
            if running >= total / 2:
                cut = n + 1
                break
        shards = [tensors[:cut], tensors[cut:]]
        names = [f"model-{k + 1:05d}-of-{len(shards):05d}.safetensors" for k in range(len(shards))]
        files, weight_map = {}, {}
        for shard, fname in zip(shards, names):
            files[fname] = write_safetensors(os.path.join(folder, fname), shard, {"format": "pt"})
            weight_map.update({name: fname for name, _, _, _ in shard})
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}, f, indent=2)
            f.write("\n")
        assert total == sum(files.values())
    n_params = sum(int(np.prod(s, dtype=np.int64)) for _, s, _, _ in tensors)
    print(f"{folder}: {shape}, {n_params / 1e6:.1f}M parameters, "
          + ", ".join(f"{f} {n / 2**20:.0f} MiB of data" for f, n in files.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-bench", metavar="DIR", help="write a benchmark-sized random folder to DIR")
    parser.add_argument("--shape", choices=sorted(BENCH_SHAPES), help="the hub model whose config.json it has")
    args = parser.parse_args()
    if args.write_bench:
        if not args.shape:
            parser.error("--write-bench needs --shape")
        write_bench(args.write_bench, args.shape)
    else:
        if args.shape:
            parser.error("--shape goes with --write-bench")
        write_tiny_fixtures()


if __name__ == "__main__":
    main()
