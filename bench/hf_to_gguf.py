#!/usr/bin/python3
"""A Hugging Face llama folder (config.json and model.safetensors or its shards) as one GGUF v3 file for llama.cpp,
every tensor F32, the same values: the folder bench/compare_llamacpp.sh times attnlab on, in the form llama.cpp reads.

Written with numpy and struct (the gguf package is not in Debian 12), as llama.cpp's convert_hf_to_gguf.py writes a
LlamaForCausalLM:
  - metadata: general.architecture = "llama", general.file_type 0 (all F32), llama.context_length,
    embedding_length, block_count, feed_forward_length, rope.dimension_count, rope.freq_base,
    attention.head_count, attention.head_count_kv, attention.layer_norm_rms_epsilon, vocab_size;
  - a tokenizer, which llama.cpp needs to load a llama model although the benchmark feeds it ids: a
    SentencePiece-style ("llama") vocabulary of V pieces, <unk> <s> </s>, the 256 byte pieces <0x00>..<0xFF>
    (llama.cpp looks up <0x0A> for the line feed) and "<tN>" for the rest, scores -N, bos 1, eos 2, no BOS added;
  - the tensors under ggml's names (token_embd, blk.N.attn_norm / attn_q / attn_k / attn_v / attn_output /
    ffn_norm / ffn_gate / ffn_up / ffn_down, output_norm, output; no output.weight when the embeddings are tied:
    llama.cpp then reads token_embd), each dimension list innermost first (a (out, in) weight is ne = [in, out]),
    the data 32-byte aligned;
  - q_proj and k_proj rows permuted as LlamaModel.permute does (per head, the two halves [0, D/2) and [D/2, D)
    that Hugging Face's rotate_half pairs are interleaved into the (2i, 2i+1) pairs ggml's RoPE rotates; k_proj
    with the KV head count).

    /usr/bin/python3 bench/hf_to_gguf.py DIR OUT.gguf
"""
import argparse
import json
import os
import struct

import numpy as np

ALIGN = 32
# GGUF metadata value types
UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY, UINT64 = 4, 5, 6, 7, 8, 9, 10
GGML_F32 = 0
# llama.cpp's token types
NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6


def gguf_string(text):
    b = text.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def kv(key, vtype, value):
    """One metadata pair: the key, the value type, the value (an ARRAY's value is (element type, list))."""
    out = gguf_string(key) + struct.pack("<I", vtype)
    if vtype == ARRAY:
        etype, items = value
        out += struct.pack("<IQ", etype, len(items))
        if etype == STRING:
            return out + b"".join(gguf_string(s) for s in items)
        return out + np.asarray(items, dtype={INT32: "<i4", FLOAT32: "<f4"}[etype]).tobytes()
    if vtype == STRING:
        return out + gguf_string(value)
    return out + struct.pack({UINT32: "<I", INT32: "<i", FLOAT32: "<f", BOOL: "<?", UINT64: "<Q"}[vtype], value)


def read_folder(folder):
    """name -> float32 array (F32: a view of the memory-mapped file; BF16: widened), of model.safetensors or the
    shards model.safetensors.index.json names."""
    index = os.path.join(folder, "model.safetensors.index.json")
    files = sorted(set(json.load(open(index))["weight_map"].values())) if os.path.exists(index) else ["model.safetensors"]
    tensors = {}
    for fname in files:
        path = os.path.join(folder, fname)
        with open(path, "rb") as f:
            (n,) = struct.unpack("<Q", f.read(8))
            header = json.loads(f.read(n))
        raw = np.memmap(path, dtype=np.uint8, mode="r")
        for name, e in header.items():
            if name == "__metadata__":
                continue
            b, end = e["data_offsets"]
            data = raw[8 + n + b:8 + n + end]
            if e["dtype"] == "F32":
                values = data.view("<f4")
            elif e["dtype"] == "BF16":
                values = (data.view("<u2").astype(np.uint32) << 16).view("<f4")
            else:
                continue  # e.g. old checkpoints' I64 rotary buffers
            tensors[name] = values.reshape(e["shape"])
    return tensors


def permute(w, n_head):
    """LlamaModel.permute: (n_head * D, C) rows, per head [half 0 | half 1] -> interleaved (h0[0], h1[0], ...)."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_tensors(cfg, hf):
    """(ggml name, float32 array) in file order."""
    H, Hkv = cfg["num_attention_heads"], cfg.get("num_key_value_heads") or cfg["num_attention_heads"]
    out = [("token_embd.weight", hf["model.embed_tokens.weight"])]                          # (V, C)
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out += [(f"blk.{i}.attn_norm.weight", hf[p + "input_layernorm.weight"]),            # (C,)
                (f"blk.{i}.attn_q.weight", permute(hf[p + "self_attn.q_proj.weight"], H)),  # (H*D, C)
                (f"blk.{i}.attn_k.weight", permute(hf[p + "self_attn.k_proj.weight"], Hkv)),  # (Hkv*D, C)
                (f"blk.{i}.attn_v.weight", hf[p + "self_attn.v_proj.weight"]),              # (Hkv*D, C)
                (f"blk.{i}.attn_output.weight", hf[p + "self_attn.o_proj.weight"]),         # (C, H*D)
                (f"blk.{i}.ffn_norm.weight", hf[p + "post_attention_layernorm.weight"]),    # (C,)
                (f"blk.{i}.ffn_gate.weight", hf[p + "mlp.gate_proj.weight"]),               # (F, C)
                (f"blk.{i}.ffn_up.weight", hf[p + "mlp.up_proj.weight"]),                   # (F, C)
                (f"blk.{i}.ffn_down.weight", hf[p + "mlp.down_proj.weight"])]               # (C, F)
    out.append(("output_norm.weight", hf["model.norm.weight"]))
    if not cfg.get("tie_word_embeddings", False):
        out.append(("output.weight", hf["lm_head.weight"]))                                 # (V, C)
    return out


def metadata(cfg, name):
    assert cfg["model_type"] == "llama" and not cfg.get("attention_bias") and not cfg.get("mlp_bias")
    assert cfg.get("rope_scaling") is None, "rope_scaling is not written"
    C, H, V = cfg["hidden_size"], cfg["num_attention_heads"], cfg["vocab_size"]
    D = cfg.get("head_dim") or C // H
    pieces = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    pieces += [f"<t{i}>" for i in range(len(pieces), V)]
    types = [UNKNOWN, CONTROL, CONTROL] + [BYTE] * 256 + [NORMAL] * (V - 259)
    return [
        kv("general.architecture", STRING, "llama"),
        kv("general.name", STRING, name),
        kv("general.file_type", UINT32, 0),
        kv("llama.context_length", UINT32, cfg["max_position_embeddings"]),
        kv("llama.embedding_length", UINT32, C),
        kv("llama.block_count", UINT32, cfg["num_hidden_layers"]),
        kv("llama.feed_forward_length", UINT32, cfg["intermediate_size"]),
        kv("llama.rope.dimension_count", UINT32, D),
        kv("llama.rope.freq_base", FLOAT32, float(cfg.get("rope_theta", 10000.0))),
        kv("llama.attention.head_count", UINT32, H),
        kv("llama.attention.head_count_kv", UINT32, cfg.get("num_key_value_heads") or H),
        kv("llama.attention.layer_norm_rms_epsilon", FLOAT32, cfg["rms_norm_eps"]),
        kv("llama.attention.key_length", UINT32, D),
        kv("llama.attention.value_length", UINT32, D),
        kv("llama.vocab_size", UINT32, V),
        kv("general.alignment", UINT32, ALIGN),
        kv("tokenizer.ggml.model", STRING, "llama"),
        kv("tokenizer.ggml.tokens", ARRAY, (STRING, pieces)),
        kv("tokenizer.ggml.scores", ARRAY, (FLOAT32, [-float(i) for i in range(V)])),
        kv("tokenizer.ggml.token_type", ARRAY, (INT32, types)),
        kv("tokenizer.ggml.unknown_token_id", UINT32, 0),
        kv("tokenizer.ggml.bos_token_id", UINT32, 1),
        kv("tokenizer.ggml.eos_token_id", UINT32, 2),
        kv("tokenizer.ggml.add_bos_token", BOOL, False),
        kv("tokenizer.ggml.add_eos_token", BOOL, False),
    ]


def write_gguf(folder, out_path):
    cfg = json.load(open(os.path.join(folder, "config.json")))
    tensors = gguf_tensors(cfg, read_folder(folder))
    kvs = metadata(cfg, "attnlab random " + os.path.basename(os.path.normpath(folder)))
    infos, offset = [], 0
    for name, a in tensors:
        offset += -offset % ALIGN
        ne = list(reversed(a.shape))  # innermost first
        infos.append(gguf_string(name) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}Q", *ne)
                     + struct.pack("<IQ", GGML_F32, offset))
        offset += a.size * 4
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs) + b"".join(infos)
    with open(out_path, "wb") as f:
        f.write(head + b"\0" * (-len(head) % ALIGN))
        start = f.tell()
        for name, a in tensors:
            f.write(b"\0" * (-(f.tell() - start) % ALIGN))
            for r in range(0, a.shape[0], 4096):  # rows a few MB at a time: the file is never whole in memory
                f.write(np.ascontiguousarray(a[r:r + 4096], dtype="<f4").tobytes())
    print(f"{out_path}: GGUF v3, {len(tensors)} F32 tensors, {os.path.getsize(out_path) / 2**20:.0f} MiB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("out")
    args = ap.parse_args()
    write_gguf(args.folder, args.out)


if __name__ == "__main__":
    main()
