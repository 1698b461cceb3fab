#!/usr/bin/python3
"""Hugging Face mixture-of-experts folders (olmoe, qwen3_moe, granitemoe) for Attention Lab, with PyTorch outputs and gradients.

Writes tiny random models into tests/golden/fixtures/<case>/:

  config.json           the fields the hub's config.json files of that model_type have
  model.safetensors     F32, named as the hub's *ForCausalLM files name their tensors (model.layers.{i}.mlp.gate,
                        model.layers.{i}.mlp.experts.{e}.{gate,up,down}_proj, ...)
  expected.safetensors  F32 outputs of this script's implementation of the modeling code, under Attention Lab's step
                        paths (every attention's weights, the router's scores ffn.router (N, E), the routing weights
                        ffn.routing (N, E): the chosen experts' weights, 0 elsewhere, and ffn.out), input ids in the
                        metadata
  grads.safetensors     float64 autograd through the same forward from the F32 weights: loss, grad.<step path>,
                        param.<file name>, in make_grad_golden.py's format (next-token loss)

The reference follows, function by function, transformers' modeling_olmoe.py (OlmoeRMSNorm, OlmoeAttention: q_norm
over the whole q_proj output and k_norm over the whole k_proj output before the heads are split, then RoPE;
OlmoeSparseMoeBlock: softmax of the gate's logits, topk, divided by their sum only when norm_topk_prob, each chosen
expert an OlmoeMLP times its weight, index_add_; OlmoeDecoderLayer, OlmoeModel) and modeling_qwen3_moe.py
(Qwen3MoeAttention: q_norm / k_norm over head_dim; Qwen3MoeSparseMoeBlock as OLMoE's with experts of
moe_intermediate_size; Qwen3MoeDecoderLayer: a Qwen3MoeMLP of intermediate_size in the layers of mlp_only_layers or
off decoder_sparse_step) and modeling_granitemoe.py (GraniteMoeModel: the token embeddings times
embedding_multiplier; GraniteMoeAttention: no Q or K norm, the scores times attention_multiplier in place of 1/sqrt(D);
GraniteMoeDecoderLayer: residual + sublayer * residual_multiplier; GraniteMoeMoE: GraniteMoeTopKGating's router.layer,
the top k of its logits and a softmax over those k, GraniteMoeParallelExperts' input_linear (E, 2F, C), chunked in two
along its output, act(first half) * second half, output_linear (E, C, F), times the gate, index_add;
GraniteMoeForCausalLM: logits / logits_scaling, tied to the embeddings). The independent check computes Granite's
routing the other way, softmax over all E, the top k, renormalised, which is what Attention Lab runs
(normalize_routing). The RoPE table comes from make_hf_llama_golden.py (float32, as Hugging Face makes it).

The seed of each case is the first from its base whose router has no near-tie: at every layer and token the k-th
largest router logit is above the (k+1)-th by at least TIE_MARGIN, so the float32 engine chooses the experts the
float64 reference chose. Each case is computed a second way (numpy loops over tokens and their chosen experts) and
compared at 1e-9; the gradients are checked by central finite differences at a few parameter entries. Exit 1 on any
failure.

    /usr/bin/python3 tests/golden/make_hf_moe_golden.py [case ...]   (all cases when none is named)
"""
import json
import math
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_hf_llama_golden as llama  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")
TIE_MARGIN = 0.05
CROSS_CHECK_TOL = 1e-9
FD_TOL = 1e-6
FD_H = 1e-6


def olmoe_config(**over):
    c = {"architectures": ["OlmoeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
         "bos_token_id": None, "clip_qkv": None, "eos_token_id": 49, "hidden_act": "silu", "hidden_size": 16,
         "initializer_range": 0.02, "intermediate_size": 8, "max_position_embeddings": 4096, "model_type": "olmoe",
         "norm_topk_prob": False, "num_attention_heads": 4, "num_experts": 6, "num_experts_per_tok": 2,
         "num_hidden_layers": 2, "num_key_value_heads": 2, "output_router_logits": False, "pad_token_id": 1,
         "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 10000.0, "router_aux_loss_coef": 0.01,
         "tie_word_embeddings": False, "torch_dtype": "float32", "transformers_version": "4.46.0",
         "use_cache": True, "vocab_size": 50}
    c.update(over)
    return dict(sorted(c.items()))


def qwen3_moe_config(**over):
    c = {"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
         "bos_token_id": 48, "decoder_sparse_step": 1, "eos_token_id": 49, "head_dim": 8, "hidden_act": "silu",
         "hidden_size": 16, "initializer_range": 0.02, "intermediate_size": 24, "max_position_embeddings": 40960,
         "max_window_layers": 2, "mlp_only_layers": [1], "model_type": "qwen3_moe", "moe_intermediate_size": 8,
         "norm_topk_prob": True, "num_attention_heads": 4, "num_experts": 6, "num_experts_per_tok": 2,
         "num_hidden_layers": 2, "num_key_value_heads": 2, "output_router_logits": False, "rms_norm_eps": 1e-06,
         "rope_scaling": None, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001, "sliding_window": None,
         "tie_word_embeddings": False, "torch_dtype": "float32", "transformers_version": "4.51.0",
         "use_cache": True, "use_sliding_window": False, "vocab_size": 50}
    c.update(over)
    return dict(sorted(c.items()))


def granitemoe_config(**over):
    c = {"architectures": ["GraniteMoeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
         "attention_multiplier": 0.3, "bos_token_id": 48, "embedding_multiplier": 3.0, "eos_token_id": 49,
         "hidden_act": "silu", "hidden_size": 16, "initializer_range": 0.02, "intermediate_size": 8,
         "logits_scaling": 4.0, "max_position_embeddings": 4096, "model_type": "granitemoe", "num_attention_heads": 4,
         "num_experts_per_tok": 2, "num_hidden_layers": 2, "num_key_value_heads": 2, "num_local_experts": 6,
         "output_router_logits": False, "pad_token_id": 49, "residual_multiplier": 0.4, "rms_norm_eps": 1e-06,
         "rope_scaling": None, "rope_theta": 10000.0, "router_aux_loss_coef": 0.001, "tie_word_embeddings": True,
         "torch_dtype": "float32", "transformers_version": "4.46.0", "use_cache": True, "vocab_size": 50}
    c.update(over)
    return dict(sorted(c.items()))


CASES = [
    ("hf_olmoe", "olmoe 2 layers, H 4, H_kv 2, D 4, q_norm (16,) and k_norm (8,) across the heads, 6 experts of 8 "
                 "units, top 2 not renormalised (norm_topk_prob false), untied",
     olmoe_config(), [2, 17, 33, 5, 41, 12, 12, 29, 8], 20261301),
    ("hf_qwen3_moe", "qwen3_moe 2 layers, H 4, H_kv 2, head_dim 8 (H*D = 32 != hidden 16), q_norm / k_norm per head, "
                     "layer 0 6 experts of 8 units, top 2 renormalised (norm_topk_prob true), layer 1 dense "
                     "(mlp_only_layers [1], intermediate 24), untied",
     qwen3_moe_config(), [48, 35, 2, 18, 43, 35, 10, 27, 6], 20261311),
    ("hf_granitemoe", "granitemoe 2 layers, H 4, H_kv 2, D 4, no Q/K norm, embedding_multiplier 3, attention_multiplier "
                      "0.3, residual_multiplier 0.4, logits_scaling 4, 6 experts of 8 units packed in input_linear "
                      "(6, 16, 16) and output_linear (6, 16, 8), softmax over the top 2 logits, tied",
     granitemoe_config(), [48, 21, 7, 33, 12, 40, 21, 5, 16], 20261321),
]


class Arch:
    def __init__(self, cfg):
        self.family = cfg["model_type"]
        self.C, self.H = cfg["hidden_size"], cfg["num_attention_heads"]
        self.Hkv = cfg.get("num_key_value_heads") or self.H
        # Qwen3MoeConfig: head_dim if given; OlmoeAttention: hidden_size // num_heads
        self.D = (cfg.get("head_dim") if self.family == "qwen3_moe" else None) or self.C // self.H
        self.L, self.V, self.eps = cfg["num_hidden_layers"], cfg["vocab_size"], cfg["rms_norm_eps"]
        self.E, self.k = cfg.get("num_experts") or cfg.get("num_local_experts"), cfg["num_experts_per_tok"]
        # GraniteMoeTopKGating: a softmax over the top k logits, the same as the top k of the softmax renormalised
        self.norm_topk = cfg.get("norm_topk_prob", False) or self.family == "granitemoe"
        self.F_expert = cfg["moe_intermediate_size"] if self.family == "qwen3_moe" else cfg["intermediate_size"]
        self.F_dense = cfg["intermediate_size"]
        self.theta = cfg.get("rope_theta", 10000.0)
        self.tied = cfg.get("tie_word_embeddings", False)
        self.pad = cfg.get("pad_token_id")
        sparse_step = cfg.get("decoder_sparse_step", 1)
        mlp_only = cfg.get("mlp_only_layers", [])
        # Qwen3MoeDecoderLayer: experts where not mlp_only and (i + 1) % decoder_sparse_step == 0; OLMoE: every layer
        self.moe = [i not in mlp_only and (i + 1) % sparse_step == 0 for i in range(self.L)]
        # GraniteMoeConfig's constant multipliers (1 elsewhere)
        self.m_emb = cfg.get("embedding_multiplier", 1.0)
        self.m_res = cfg.get("residual_multiplier", 1.0)
        self.m_att = cfg.get("attention_multiplier", 1.0)
        self.logits_scaling = cfg.get("logits_scaling", 1.0)


def make_weights(a, seed):
    if a.family == "granitemoe":
        return make_granite_weights(a, seed)
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    C, H, Hkv, D, V = a.C, a.H, a.Hkv, a.D, a.V
    w = {"model.embed_tokens.weight": randn(V, C)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = 1 + randn(C, scale=0.2)
        w[p + "self_attn.q_proj.weight"] = randn(H * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * D, C, scale=1 / math.sqrt(C))
        w[p + "self_attn.o_proj.weight"] = randn(C, H * D, scale=1 / math.sqrt(H * D))
        across = a.family == "olmoe"  # OlmoeRMSNorm(hidden_size) and ((hidden / heads) * kv_heads)
        w[p + "self_attn.q_norm.weight"] = 1 + randn(H * D if across else D, scale=0.2)
        w[p + "self_attn.k_norm.weight"] = 1 + randn(Hkv * D if across else D, scale=0.2)
        w[p + "post_attention_layernorm.weight"] = 1 + randn(C, scale=0.2)
        if a.moe[i]:
            F = a.F_expert
            w[p + "mlp.gate.weight"] = randn(a.E, C, scale=2 / math.sqrt(C))
            for e in range(a.E):
                x = p + f"mlp.experts.{e}."
                w[x + "gate_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
                w[x + "up_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
                w[x + "down_proj.weight"] = randn(C, F, scale=1 / math.sqrt(F))
        else:
            F = a.F_dense
            w[p + "mlp.gate_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
            w[p + "mlp.up_proj.weight"] = randn(F, C, scale=1 / math.sqrt(C))
            w[p + "mlp.down_proj.weight"] = randn(C, F, scale=1 / math.sqrt(F))
    w["model.norm.weight"] = 1 + randn(C, scale=0.2)
    if not a.tied:
        w["lm_head.weight"] = randn(V, C, scale=1 / math.sqrt(C))
    return {n: t.float().double() for n, t in w.items()}


def make_granite_weights(a, seed):
    """GraniteMoeForCausalLM's tensors: block_sparse_moe.router.layer (E, C), input_linear (E, 2F, C), output_linear
    (E, C, F); tied, so no lm_head.weight (save_pretrained leaves the tied copy out)."""
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    C, H, Hkv, D, V, E, F = a.C, a.H, a.Hkv, a.D, a.V, a.E, a.F_expert
    w = {"model.embed_tokens.weight": randn(V, C, scale=0.5)}
    for i in range(a.L):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = 1 + randn(C, scale=0.2)
        w[p + "self_attn.q_proj.weight"] = randn(H * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.k_proj.weight"] = randn(Hkv * D, C, scale=1.2 / math.sqrt(C))
        w[p + "self_attn.v_proj.weight"] = randn(Hkv * D, C, scale=1 / math.sqrt(C))
        w[p + "self_attn.o_proj.weight"] = randn(C, H * D, scale=1 / math.sqrt(H * D))
        w[p + "post_attention_layernorm.weight"] = 1 + randn(C, scale=0.2)
        w[p + "block_sparse_moe.router.layer.weight"] = randn(E, C, scale=2 / math.sqrt(C))
        w[p + "block_sparse_moe.input_linear.weight"] = randn(E, 2 * F, C, scale=1 / math.sqrt(C))
        w[p + "block_sparse_moe.output_linear.weight"] = randn(E, C, F, scale=1 / math.sqrt(F))
    w["model.norm.weight"] = 1 + randn(C, scale=0.2)
    return {n: t.float().double() for n, t in w.items()}


# ----------------------------------------------------------------------------
# the reference: modeling_olmoe.py / modeling_qwen3_moe.py, function by function
# ----------------------------------------------------------------------------

def hf_forward(a, w, ids, cos, sin):
    out = {}

    def rms_norm(x, weight):  # OlmoeRMSNorm / Qwen3MoeRMSNorm
        variance = x.pow(2).mean(-1, keepdim=True)
        return weight * (x * torch.rsqrt(variance + a.eps))

    def linear(x, name):
        return x @ w[name + ".weight"].T

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def repeat_kv(x, n_rep):
        Hkv, T, D = x.shape
        return x if n_rep == 1 else x[:, None].expand(Hkv, n_rep, T, D).reshape(Hkv * n_rep, T, D)

    def mlp(x, prefix):  # OlmoeMLP / Qwen3MoeMLP: down(act(gate(x)) * up(x))
        return linear(torch.nn.functional.silu(linear(x, prefix + "gate_proj")) * linear(x, prefix + "up_proj"),
                      prefix + "down_proj")

    T = len(ids)
    x = w["model.embed_tokens.weight"][ids]
    out["tgt.embed"] = x
    causal = torch.triu(torch.full((T, T), torch.finfo(x.dtype).min, dtype=x.dtype), diagonal=1)
    for i in range(a.L):
        p, s = f"model.layers.{i}.", f"decoder.layers.{i}."
        n = rms_norm(x, w[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        q_proj, k_proj = linear(n, p + "self_attn.q_proj"), linear(n, p + "self_attn.k_proj")
        v = linear(n, p + "self_attn.v_proj").view(T, -1, a.D).transpose(0, 1)
        out[s + "self_attn.v"] = v
        if a.family == "olmoe":  # OlmoeAttention: q_norm(q_proj(x)), k_norm(k_proj(x)), then the heads
            out[s + "self_attn.q"] = q_proj.view(T, -1, a.D).transpose(0, 1)
            out[s + "self_attn.k"] = k_proj.view(T, -1, a.D).transpose(0, 1)
            qn = rms_norm(out[s + "self_attn.q"].transpose(0, 1).reshape(T, -1), w[p + "self_attn.q_norm.weight"])
            kn = rms_norm(out[s + "self_attn.k"].transpose(0, 1).reshape(T, -1), w[p + "self_attn.k_norm.weight"])
            out[s + "self_attn.q_norm"] = qn.view(T, -1, a.D).transpose(0, 1)
            out[s + "self_attn.k_norm"] = kn.view(T, -1, a.D).transpose(0, 1)
        else:  # Qwen3MoeAttention: q_norm(q_proj(x).view(hidden_shape)), over head_dim
            out[s + "self_attn.q"] = q_proj.view(T, -1, a.D).transpose(0, 1)
            out[s + "self_attn.k"] = k_proj.view(T, -1, a.D).transpose(0, 1)
            out[s + "self_attn.q_norm"] = rms_norm(out[s + "self_attn.q"], w[p + "self_attn.q_norm.weight"])
            out[s + "self_attn.k_norm"] = rms_norm(out[s + "self_attn.k"], w[p + "self_attn.k_norm.weight"])
        q, k = out[s + "self_attn.q_norm"], out[s + "self_attn.k_norm"]
        q = q * cos + rotate_half(q) * sin  # apply_rotary_pos_emb
        k = k * cos + rotate_half(k) * sin
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        n_rep = a.H // a.Hkv
        scores = torch.matmul(q, repeat_kv(k, n_rep).transpose(1, 2)) / math.sqrt(a.D)
        weights = torch.softmax(scores + causal, dim=-1)
        out[s + "self_attn.weights"] = weights
        context = torch.matmul(weights, repeat_kv(v, n_rep)).transpose(0, 1).reshape(T, -1)
        attn = linear(context, p + "self_attn.o_proj")
        out[s + "self_attn.out"] = attn
        h = x + attn
        out[s + "residual1"] = h
        n = rms_norm(h, w[p + "post_attention_layernorm.weight"])
        out[s + "norm2"] = n
        if a.moe[i]:  # OlmoeSparseMoeBlock / Qwen3MoeSparseMoeBlock
            router_logits = linear(n, p + "mlp.gate")
            routing_weights = torch.softmax(router_logits, dim=1)
            routing_weights, selected = torch.topk(routing_weights, a.k, dim=-1)
            if a.norm_topk:
                routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
            routing = torch.zeros(T, a.E, dtype=n.dtype).scatter(1, selected, routing_weights)
            out[s + "ffn.router"], out[s + "ffn.routing"] = router_logits, routing
            final = torch.zeros_like(n)
            for e in range(a.E):
                top_x = [t for t in range(T) if e in selected[t].tolist()]
                if not top_x:
                    continue
                y = mlp(n[top_x], p + f"mlp.experts.{e}.") * routing[top_x, e, None]
                final = final.index_add(0, torch.tensor(top_x), y)
            ffn = final
        else:
            ffn = mlp(n, p + "mlp.")
        out[s + "ffn.out"] = ffn
        x = h + ffn
        out[s + "residual2"] = x
    x = rms_norm(x, w["model.norm.weight"])
    out["decoder.output"] = x
    out["logits"] = x @ (w["model.embed_tokens.weight"] if a.tied else w["lm_head.weight"]).T
    return out


# ----------------------------------------------------------------------------
# the reference: modeling_granitemoe.py, function by function
# ----------------------------------------------------------------------------

def granite_forward(a, w, ids, cos, sin):
    out = {}

    def rms_norm(x, weight):  # GraniteMoeRMSNorm
        variance = x.pow(2).mean(-1, keepdim=True)
        return weight * (x * torch.rsqrt(variance + a.eps))

    def linear(x, name):
        return x @ w[name + ".weight"].T

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def repeat_kv(x, n_rep):
        Hkv, T, D = x.shape
        return x if n_rep == 1 else x[:, None].expand(Hkv, n_rep, T, D).reshape(Hkv * n_rep, T, D)

    def moe(n, p):  # GraniteMoeMoE: router, top-k of the logits, softmax over them, the packed experts
        T = n.shape[0]
        router_logits = n @ w[p + "block_sparse_moe.router.layer.weight"].T  # GraniteMoeTopKGating.layer
        top_k_logits, top_k_indices = router_logits.topk(a.k, dim=1)
        top_k_gates = torch.softmax(top_k_logits, dim=1)
        routing = torch.zeros(T, a.E, dtype=n.dtype).scatter(1, top_k_indices, top_k_gates)
        w_in = w[p + "block_sparse_moe.input_linear.weight"]    # (E, 2F, C)
        w_out = w[p + "block_sparse_moe.output_linear.weight"]  # (E, C, F)
        final = torch.zeros_like(n)
        for e in range(a.E):  # GraniteMoeParallelExperts: expert e's rows of the grouped tokens
            rows = [t for t in range(T) if e in top_k_indices[t].tolist()]
            if not rows:
                continue
            hidden = n[rows] @ w_in[e].T  # (n, 2F)
            chunked = hidden.chunk(2, dim=-1)
            hidden = torch.nn.functional.silu(chunked[0]) * chunked[1]
            y = (hidden @ w_out[e].T) * routing[rows, e, None]
            final = final.index_add(0, torch.tensor(rows), y)
        return router_logits, routing, final

    T = len(ids)
    x = w["model.embed_tokens.weight"][ids] * a.m_emb  # inputs_embeds * embedding_multiplier
    out["tgt.embed"] = x
    causal = torch.triu(torch.full((T, T), torch.finfo(x.dtype).min, dtype=x.dtype), diagonal=1)
    for i in range(a.L):
        p, s = f"model.layers.{i}.", f"decoder.layers.{i}."
        n = rms_norm(x, w[p + "input_layernorm.weight"])
        out[s + "norm1"] = n
        q = linear(n, p + "self_attn.q_proj").view(T, -1, a.D).transpose(0, 1)
        k = linear(n, p + "self_attn.k_proj").view(T, -1, a.D).transpose(0, 1)
        v = linear(n, p + "self_attn.v_proj").view(T, -1, a.D).transpose(0, 1)
        out[s + "self_attn.q"], out[s + "self_attn.k"], out[s + "self_attn.v"] = q, k, v
        q = q * cos + rotate_half(q) * sin  # apply_rotary_pos_emb
        k = k * cos + rotate_half(k) * sin
        out[s + "self_attn.q_rot"], out[s + "self_attn.k_rot"] = q, k
        n_rep = a.H // a.Hkv
        scores = torch.matmul(q, repeat_kv(k, n_rep).transpose(1, 2)) * a.m_att  # eager_attention_forward's scaling
        out[s + "self_attn.scaled"] = scores
        weights = torch.softmax(scores + causal, dim=-1)
        out[s + "self_attn.weights"] = weights
        context = torch.matmul(weights, repeat_kv(v, n_rep)).transpose(0, 1).reshape(T, -1)
        attn = linear(context, p + "self_attn.o_proj")
        out[s + "self_attn.out"] = attn
        h = x + attn * a.m_res  # residual + hidden_states * residual_multiplier
        out[s + "residual1"] = h
        n = rms_norm(h, w[p + "post_attention_layernorm.weight"])
        out[s + "norm2"] = n
        out[s + "ffn.router"], out[s + "ffn.routing"], ffn = moe(n, p)
        out[s + "ffn.out"] = ffn
        x = h + ffn * a.m_res
        out[s + "residual2"] = x
    x = rms_norm(x, w["model.norm.weight"])
    out["decoder.output"] = x
    out["logits"] = (x @ w["model.embed_tokens.weight"].T) / a.logits_scaling  # tied lm_head, / logits_scaling
    return out


def model_forward(a, w, ids, cos, sin):
    return (granite_forward if a.family == "granitemoe" else hf_forward)(a, w, ids, cos, sin)


def router_gaps(a, w, ids, cos, sin):
    """At each MoE layer and token: the k-th largest router logit minus the (k+1)-th."""
    with torch.no_grad():
        out = model_forward(a, w, ids, cos, sin)
    gaps = []
    for i in range(a.L):
        if a.moe[i]:
            top = torch.sort(out[f"decoder.layers.{i}.ffn.router"], dim=-1, descending=True).values
            gaps += (top[:, a.k - 1] - top[:, a.k]).tolist()
    return gaps


# ----------------------------------------------------------------------------
# the independent implementation (numpy, loops over tokens and their experts)
# ----------------------------------------------------------------------------

def expert_weights(a, W, p, e):
    """Expert e's gate, up and down (F, C), (F, C), (C, F): Granite's rows of its packed input_linear and
    output_linear, the others' own tensors."""
    if a.family == "granitemoe":
        w_in = W[p + "block_sparse_moe.input_linear.weight"][e]
        return w_in[: a.F_expert], w_in[a.F_expert:], W[p + "block_sparse_moe.output_linear.weight"][e]
    x = f"{p}mlp.experts.{e}."
    return W[x + "gate_proj.weight"], W[x + "up_proj.weight"], W[x + "down_proj.weight"]


def independent_ffn(a, W, n, p):
    """The mixture for one layer, token by token: router, softmax over all E, the k largest, their experts."""
    T = n.shape[0]
    router = n @ W[p + ("block_sparse_moe.router.layer.weight" if a.family == "granitemoe" else "mlp.gate.weight")].T
    routing = np.zeros((T, a.E))
    out = np.zeros_like(n)
    for t in range(T):
        e_x = np.exp(router[t] - router[t].max())
        prob = e_x / e_x.sum()
        chosen = sorted(range(a.E), key=lambda e: -router[t, e])[: a.k]
        total = sum(prob[e] for e in chosen) if a.norm_topk else 1.0
        for e in chosen:
            routing[t, e] = prob[e] / total
            gate, up, down = expert_weights(a, W, p, e)
            g = gate @ n[t]
            hidden = g / (1 + np.exp(-g)) * (up @ n[t])
            out[t] += routing[t, e] * (down @ hidden)
    return router, routing, out


# ----------------------------------------------------------------------------
# gradients (make_grad_golden.py's format)
# ----------------------------------------------------------------------------

def next_token_loss(logits, ids, pad):
    rows = [t for t in range(len(ids) - 1) if pad is None or ids[t + 1] != pad]
    lp = torch.log_softmax(logits[rows], dim=-1)
    return -torch.stack([lp[n, ids[t + 1]] for n, t in enumerate(rows)]).mean()


def gradients(a, w, ids, cos, sin, order):
    p = {n: t.clone().requires_grad_(True) for n, t in w.items()}
    out = model_forward(a, p, ids, cos, sin)
    steps = {k: out[k] for k in order}
    for t in steps.values():
        t.retain_grad()
    loss = next_token_loss(out["logits"], ids, a.pad)
    loss.backward()
    grads = {k: (t.grad if t.grad is not None else torch.zeros_like(t)).detach() for k, t in steps.items()}
    params = {n: t.grad.detach() for n, t in p.items() if t.grad is not None}
    return loss.detach(), grads, params


def check_finite_differences(a, w, ids, cos, sin, params, errors):
    names = [n for n in params if ".mlp.gate.weight" in n or ".experts.0." in n or "q_norm" in n or
             "block_sparse_moe" in n or n == "model.embed_tokens.weight"][:7]
    for name in names:
        flat_index = int(torch.argmax(params[name].abs()))
        q = {n: t.clone() for n, t in w.items()}

        def loss_at(delta):
            q[name].view(-1)[flat_index] = w[name].view(-1)[flat_index] + delta
            with torch.no_grad():
                return float(next_token_loss(model_forward(a, q, ids, cos, sin)["logits"], ids, a.pad))
        fd = (loss_at(FD_H) - loss_at(-FD_H)) / (2 * FD_H)
        ad = float(params[name].view(-1)[flat_index])
        if abs(fd - ad) > FD_TOL * max(abs(ad), 1e-3):
            errors.append(f"finite difference {name}[{flat_index}]: {fd!r} vs autograd {ad!r}")


def write_case(name, description, cfg, ids, base_seed):
    torch.set_default_dtype(torch.float64)
    a = Arch(cfg)
    inv_freq = llama.hf_inv_freq(torch, a.theta, a.D, None)
    cos, sin = llama.hf_rope_table(torch, inv_freq, len(ids))
    for seed in range(base_seed, base_seed + 200):
        w = make_weights(a, seed)
        if min(router_gaps(a, w, ids, cos, sin)) >= TIE_MARGIN:
            break
    else:
        raise RuntimeError(f"{name}: no seed without a near-tie in the router")
    with torch.no_grad():
        out = model_forward(a, w, ids, cos, sin)
    errors = []
    W = {k: v.numpy() for k, v in w.items()}
    for i in range(a.L):
        if a.moe[i]:
            s = f"decoder.layers.{i}."
            got = independent_ffn(a, W, out[s + "norm2"].numpy(), f"model.layers.{i}.")
            for key, want in zip(("ffn.router", "ffn.routing", "ffn.out"), got):
                d = llama.rel_diff(out[s + key].numpy(), want)
                if d > CROSS_CHECK_TOL:
                    errors.append(f"{s}{key}: the two implementations differ by {d:.3g}")
    order = sorted(out)
    loss, grads, params = gradients(a, w, ids, cos, sin, order)
    check_finite_differences(a, w, ids, cos, sin, params, errors)
    if errors:
        for e in errors:
            print(f"FAIL {name}: {e}", file=sys.stderr)
        return False

    folder = os.path.join(FIXTURES, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    llama.write_config(folder, cfg)
    llama.write_safetensors(os.path.join(folder, "model.safetensors"),
                            [(n,) + llama.whole_f32(t.numpy()) for n, t in w.items()])
    meta = {"tgt_ids": json.dumps(ids), "src_ids": "[]", "case": name, "description": description}
    size = llama.write_safetensors(os.path.join(folder, "expected.safetensors"),
                                   [(k,) + llama.whole_f32(out[k].numpy()) for k in order], meta)
    tensors = [("loss", loss.reshape(1))] + [("grad." + k, grads[k]) for k in order if k in grads]
    tensors += [("param." + n, params[n]) for n in w if n in params]
    forward_name = "granite_forward" if a.family == "granitemoe" else "hf_forward"
    gmeta = {"loss": "next-token", "loss_value": repr(float(loss)), "src_ids": "[]", "tgt_ids": json.dumps(ids),
             "case": name, "description": f"d loss / d step (grad.*) and d loss / d parameter (param.*) for the loss "
                                          f"next-token, float64 autograd through make_hf_moe_golden.{forward_name} from "
                                          f"the F32 weights, stored F32"}
    gsize = llama.write_safetensors(os.path.join(folder, "grads.safetensors"),
                                    [(k,) + llama.whole_f32(v.numpy()) for k, v in tensors], gmeta)
    gaps = router_gaps(a, w, ids, cos, sin)
    print(f"{name}: seed {seed}, smallest router gap {min(gaps):.3f}; expected {size} B ({len(order)} tensors), "
          f"grads {gsize} B, loss {float(loss):.6f}")
    return True


def main():
    chosen = [case for case in CASES if not sys.argv[1:] or case[0] in sys.argv[1:]]
    ok = bool(chosen) and all([write_case(*case) for case in chosen])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
