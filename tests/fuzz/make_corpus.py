#!/usr/bin/env python3
"""Regenerate the seed corpora in tests/fuzz/corpus/<target>/ (small, hand-made, deterministic).

Usage: python3 tests/fuzz/make_corpus.py   (from anywhere; standard library only; the trace seeds are written by
the native build's attnlab-cli, build/attnlab-cli or $ATTNLAB_CLI)
"""
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = HERE / "corpus"


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data.encode() if isinstance(data, str) else data)


# ---------------------------------------------------------------- safetensors
DTYPE_FMT = {"F32": ("<f", 4), "F16": ("<e", 2)}


def pack(values, dtype):
    if dtype == "BF16":  # the high half of each F32
        return b"".join(struct.pack("<f", v)[2:] for v in values)
    fmt, _ = DTYPE_FMT[dtype]
    return b"".join(struct.pack(fmt, v) for v in values)


def safetensors(tensors, metadata=None, dtype="F32", pad=True):
    """tensors: list of (name, shape, values); offsets in list order."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, shape, values in tensors:
        blob = pack(values, dtype)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    if pad:
        text += b" " * (-(8 + len(text)) % 8)
    return struct.pack("<Q", len(text)) + text + data


def raw(header_text, data=b""):
    h = header_text.encode() if isinstance(header_text, str) else header_text
    return struct.pack("<Q", len(h)) + h + data


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def tiny_model(dtype="F32", with_vocab=False, src_vocab=None):
    """The golden no_pe_h1 fixture's tensor names with C=2, F=3, V_src=5, V_tgt=4."""
    fixture = (ROOT / "tests/golden/fixtures/no_pe_h1.model.safetensors").read_bytes()
    n = struct.unpack("<Q", fixture[:8])[0]
    header = json.loads(fixture[8:8 + n])
    config = json.loads(header["__metadata__"]["config"])
    config.update(d_model=2, n_heads=1, d_ff=3, src_vocab_size=5, tgt_vocab_size=4, max_len=8)
    dim_map = {16: 2, 48: 6, 32: 3, 13: 5, 11: 4}
    tensors = []
    for i, name in enumerate(sorted(k for k in header if k != "__metadata__")):
        shape = [dim_map[d] for d in header[name]["shape"]]
        values = [((i * 7 + j * 3) % 11 - 5) / 8.0 for j in range(numel(shape))]
        tensors.append((name, shape, values))
    metadata = {"config": json.dumps(config, separators=(",", ":"))}
    if with_vocab:
        metadata["src_vocab"] = json.dumps(["<pad>", "<sos>", "<eos>", "<unk>", "사과"], ensure_ascii=False)
        metadata["tgt_vocab"] = json.dumps(["<pad>", "<sos>", "<eos>", "<unk>"])
        metadata["tokenizer"] = "word"
    if src_vocab is not None:
        metadata["src_vocab"] = src_vocab
    return safetensors(tensors, metadata, dtype)


def make_safetensors():
    t = "fuzz_safetensors"
    write(t, "golden_no_pe_h1.safetensors", (ROOT / "tests/golden/fixtures/no_pe_h1.model.safetensors").read_bytes())
    write(t, "model_tiny_f32", tiny_model())
    write(t, "model_tiny_vocab", tiny_model(with_vocab=True))
    write(t, "model_tiny_f16", tiny_model("F16"))
    write(t, "model_tiny_bf16", tiny_model("BF16"))
    write(t, "empty_header", raw("{}"))
    write(t, "metadata_only", safetensors([], {"note": "사과 apple", "x": ""}))
    write(t, "one_f32", safetensors([("w", [2, 3], [0.5, -1.0, 2.0, 0.0, -0.0, 1e-38])]))
    write(t, "scalar_and_empty", safetensors([("s", [], [3.0]), ("z", [0, 4], [])]))
    write(t, "one_f16", safetensors([("h", [4], [1.0, -2.0, 65504.0, 6e-8])], dtype="F16"))
    write(t, "one_bf16", safetensors([("b", [3], [1.0, -3.5, 1e30])], dtype="BF16"))
    write(t, "unpadded", safetensors([("a", [1], [1.0])], pad=False))
    nan_inf = struct.pack("<fff", float("nan"), float("inf"), float("-inf"))
    write(t, "nan_inf", raw('{"n":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}}', nan_inf))
    # Hand-broken variants.
    good = safetensors([("w", [2, 2], [1.0, 2.0, 3.0, 4.0])])
    write(t, "bad_truncated_data", good[:-3])
    write(t, "bad_truncated_length", good[:5])
    write(t, "bad_header_length_huge", struct.pack("<Q", 1 << 62) + good[8:])
    write(t, "bad_header_length_past_end", struct.pack("<Q", len(good)) + good[8:])
    write(t, "bad_json", raw('{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]', b"\0" * 4))
    write(t, "bad_json_not_object", raw("[1,2,3]"))
    write(t, "bad_json_invalid_utf8", raw(b'{"\xc3\x28":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_duplicate_key", raw('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                                      '"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_dtype_i64", raw('{"w":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}', b"\0" * 8))
    write(t, "bad_dtype_number", raw('{"w":{"dtype":4,"shape":[1],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_overlap", raw('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                                '"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', b"\0" * 12))
    write(t, "bad_gap", raw('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                            '"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}', b"\0" * 12))
    write(t, "bad_offsets_reversed", raw('{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}}', b"\0" * 4))
    write(t, "bad_offsets_past_end", raw('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', b"\0" * 8))
    write(t, "bad_shape_mismatch", raw('{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}', b"\0" * 8))
    write(t, "bad_shape_negative", raw('{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_shape_overflow", raw('{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_shape_float", raw('{"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}}', b"\0" * 4))
    write(t, "bad_metadata_not_string", raw('{"__metadata__":{"config":{"d_model":2}}}'))
    write(t, "bad_model_config", safetensors([("w", [1], [1.0])], {"config": '{"arch":"encoder_decoder"}'}))
    write(t, "bad_model_vocab", tiny_model(src_vocab='["<pad>","<sos>","<eos>","<unk>","<unk>"]'))


# ---------------------------------------------------------------- config JSON
def make_config():
    t = "fuzz_config_json"
    valid = {"arch": "encoder_decoder", "d_model": 16, "n_heads": 1, "n_encoder_layers": 1, "n_decoder_layers": 1,
             "d_ff": 32, "activation": "relu", "norm_first": False, "final_norm": True, "positional": "none",
             "max_len": 16, "scale_embedding": True, "tie_embeddings": False, "layer_norm_eps": 1e-05,
             "src_vocab_size": 13, "tgt_vocab_size": 11, "pad_id": 0, "sos_id": 1, "eos_id": 2, "unk_id": 3}
    write(t, "valid_no_pe_h1", json.dumps(valid))
    write(t, "valid_decoder_only", json.dumps(dict(valid, arch="decoder_only", n_encoder_layers=0, activation="gelu",
                                                   positional="learned", norm_first=True, tie_embeddings=True)))
    write(t, "valid_encoder_only", json.dumps(dict(valid, arch="encoder_only", n_decoder_layers=0,
                                                   activation="gelu_tanh", positional="sinusoidal", n_heads=4)))
    write(t, "bad_missing_field", json.dumps({k: v for k, v in valid.items() if k != "d_ff"}))
    write(t, "bad_unknown_field", json.dumps(dict(valid, d_fff=3)))
    write(t, "bad_heads_divide", json.dumps(dict(valid, n_heads=3)))
    write(t, "bad_types", json.dumps(dict(valid, d_model="16", norm_first=1)))
    write(t, "bad_huge_numbers", json.dumps(dict(valid, d_model=1 << 40, layer_norm_eps=1e308)))
    write(t, "bad_negative_eps", json.dumps(dict(valid, layer_norm_eps=-1.0)))
    write(t, "bad_arch", json.dumps(dict(valid, arch="rnn")))
    write(t, "bad_not_object", "[1, 2, 3]")
    write(t, "bad_truncated", json.dumps(valid)[:57])
    write(t, "bad_empty", "")


# ---------------------------------------------------------------- vocab
def make_vocab():
    t = "fuzz_vocab"
    write(t, "array_ascii", '["<pad>","<sos>","<eos>","<unk>","the","cat"," ","."]')
    write(t, "array_hangul", json.dumps(["<pad>", "<sos>", "<eos>", "<unk>", "나는", "사과를", "좋아한다"], ensure_ascii=False))
    write(t, "array_escaped", '["\\u00e9","\\ud55c","\\n","\\"","\\\\"]')
    write(t, "lines_lf", "<pad>\n<sos>\n<eos>\n<unk>\nthe\ncat\n \n")
    write(t, "lines_crlf_hangul_bom", "\ufeff<pad>\r\n<sos>\r\n<eos>\r\n<unk>\r\n사과\r\n\r\n고양이\r\n")
    write(t, "bad_duplicate", '["a","b","a"]')
    write(t, "bad_empty_token", '["a",""]')
    write(t, "bad_not_strings", '["a",1,null]')
    write(t, "bad_empty_array", "[]")
    write(t, "bad_utf8_lines", b"ok\n\xc3\x28\n\xed\xa0\x80\n\xf4\x90\x80\x80\n\xe0\x80\xaf\n")
    write(t, "bad_utf8_json", b'["\xff\xfe"]')
    write(t, "bad_lone_surrogate_escape", '["\\ud800"]')
    write(t, "bad_lines_dup_crlf", "a\r\na\n")


# ---------------------------------------------------------------- tokenizers
# The first byte's high nibble picks the mode (see fuzz_tokenizers.cpp): 0 word/char, 1 GPT-2 BPE,
# 2 WordPiece lower-cased, 3 WordPiece cased, 4 vocab.json NUL merges.txt, 5 vocab.txt,
# 6 tokenizer.json, 7 a fixed tokenizer.json (low nibble: the layout, in JSON_BPE_LAYOUTS' order, then 6: T5's
# Unigram).
MODE_BPE, MODE_UNCASED, MODE_CASED, MODE_BPE_FILES, MODE_VOCAB_TXT = 0x10, 0x20, 0x30, 0x40, 0x50
MODE_TOKENIZER_JSON, MODE_JSON_BPE = 0x60, 0x70
JSON_BPE_LAYOUTS = ("llama3", "qwen2", "gpt2", "smollm2", "llama2", "mistral")
UNIGRAM_LAYOUTS = ("t5", "t5_strip", "t5_bytes")
TOKENIZER_FIXTURES = ROOT / "tests/fixtures/tokenizers"


def make_tokenizers():
    t = "fuzz_tokenizers"
    sentences = {
        "en": "The cat sat on the mat. I like apples!",
        "en_punct": 'Hello, "world" (again); really? yes: no.',
        "ko": "나는 사과를 좋아한다.",
        "ko_ideographic_space": "나는\u3000고양이 사과",
        "mixed_tabs": "  the\tcat\r\n사과  ",
        "empty": "",
    }
    for name, text in sentences.items():
        write(t, f"word_{name}", b"\x00" + text.encode())
        write(t, f"char_{name}", b"\x01" + text.encode())
    write(t, "skip_special_word", b"\x02<pad> <sos> the <eos>")
    write(t, "bad_utf8_truncated", b"\x00abc \xea\xb0")
    write(t, "bad_utf8_overlong", b"\x01\xc0\xaf x")
    write(t, "bad_utf8_surrogate", b"\x01\xed\xa0\x80")
    write(t, "bad_utf8_too_big", b"\x00\xf4\x90\x80\x80 cat")

    subword_texts = {
        "spaces": "  the   cat  \n\n end  ",
        "contractions": "it's they're IT'S we'll I'd 'sa",
        "digits_punct": "2023 and 42!!! ...? $5+a «the»",
        "accents_case": "Café CAFE\u0301 İ ΟΔΟΣ naïve",
        "hangul_cjk": "한국어 中文 안녕 세계",
        "emoji": "hi 😀! 👨\u200d👩\u200d👧 x",
        "controls": "a\x00b\ufffdc\u00adD\u200be\x0bf\x85g\u2028h",
        "specials": "<|endoftext|>a [MASK] b[SEP] [mask] <|endoftext |>",
        "long_word": "a" * 101 + " " + "한" * 34,
    }
    for name, text in subword_texts.items():
        for mode, prefix in ((MODE_BPE, "bpe"), (MODE_UNCASED, "wordpiece_uncased"), (MODE_CASED, "wordpiece_cased")):
            write(t, f"{prefix}_{name}", bytes([mode]) + text.encode())
    write(t, "bpe_bad_utf8", bytes([MODE_BPE]) + b"ok \xc3")
    write(t, "wordpiece_bad_utf8", bytes([MODE_UNCASED]) + b"the \xed\xa0\x80")

    vocab_json = (TOKENIZER_FIXTURES / "gpt2/vocab.json").read_bytes()
    merges_txt = (TOKENIZER_FIXTURES / "gpt2/merges.txt").read_bytes()
    files = bytes([MODE_BPE_FILES])
    write(t, "bpe_files_fixture", files + vocab_json + b"\0" + merges_txt)
    write(t, "bpe_files_no_merges", files + vocab_json)
    write(t, "bpe_files_bad_merge_line", files + vocab_json + b"\0#version: 0.2\nl l\nH  e\n")
    write(t, "bpe_files_merge_not_in_vocab", files + vocab_json + b"\0l l\nq z\n")
    write(t, "bpe_files_bad_json", files + vocab_json[:40] + b"\0" + merges_txt)
    write(t, "bpe_files_missing_byte", files + b'{"a": 0, "b": 1, "ab": 2}\0a b\n')
    write(t, "bpe_files_bad_ids", files + b'{"a": 0, "b": 5, "c": "x"}\0')
    write(t, "bpe_files_bad_utf8", files + vocab_json + b"\0l \xc3\n")

    vocab_txt = (TOKENIZER_FIXTURES / "bert/vocab.txt").read_bytes()
    write(t, "vocab_txt_fixture_uncased", bytes([MODE_VOCAB_TXT | 1]) + vocab_txt)
    write(t, "vocab_txt_fixture_cased", bytes([MODE_VOCAB_TXT]) + vocab_txt)
    write(t, "vocab_txt_crlf", bytes([MODE_VOCAB_TXT | 1]) + b"[UNK]\r\n[CLS]\r\n[SEP]\r\nthe\r\n##s\r\n")
    write(t, "vocab_txt_empty_line", bytes([MODE_VOCAB_TXT]) + b"[UNK]\n\n[CLS]\n[SEP]\n")
    write(t, "vocab_txt_duplicate", bytes([MODE_VOCAB_TXT]) + b"[UNK]\n[CLS]\n[SEP]\nthe\nthe\n")
    write(t, "vocab_txt_no_cls", bytes([MODE_VOCAB_TXT]) + b"[UNK]\n[SEP]\n")
    write(t, "vocab_txt_bad_utf8", bytes([MODE_VOCAB_TXT]) + b"[UNK]\n[CLS]\n[SEP]\nx\xc3\n")

    for k, layout in enumerate(JSON_BPE_LAYOUTS):
        tokenizer_json = (TOKENIZER_FIXTURES / f"json_bpe/{layout}.json").read_bytes()
        write(t, f"tokenizer_json_{layout}", bytes([MODE_TOKENIZER_JSON]) + tokenizer_json)
        for name, text in subword_texts.items():
            write(t, f"json_bpe_{layout}_{name}", bytes([MODE_JSON_BPE | k]) + text.encode())
    write(t, "tokenizer_json_truncated", bytes([MODE_TOKENIZER_JSON]) + tokenizer_json[:300])
    write(t, "tokenizer_json_wordpiece", bytes([MODE_TOKENIZER_JSON]) + b'{"model": {"type": "WordPiece", "vocab": {}}}')
    write(t, "json_bpe_bad_utf8", bytes([MODE_JSON_BPE]) + b"ok \xc3")
    for layout in UNIGRAM_LAYOUTS:
        write(t, f"tokenizer_json_{layout}",
              bytes([MODE_TOKENIZER_JSON]) + (TOKENIZER_FIXTURES / f"unigram/{layout}.json").read_bytes())
    for name, text in subword_texts.items():
        write(t, f"json_unigram_{name}", bytes([MODE_JSON_BPE | len(JSON_BPE_LAYOUTS)]) + text.encode())


# ---------------------------------------------------------------- Hugging Face folders
def hf_input(config, model_bytes):
    """fuzz_hf_folder's input: config.json's length (4 bytes, little-endian), config.json, model.safetensors."""
    text = (json.dumps(config, indent=1) if isinstance(config, dict) else config).encode()
    return struct.pack("<I", len(text)) + text + model_bytes


def ramp(n, scale=0.05):
    return [((i * 7919) % 23 - 11) * scale for i in range(n)]


def gpt2_tensors(C=8, P=4, V=10, layers=1, prefix=""):
    shapes = [("wte.weight", [V, C]), ("wpe.weight", [P, C])]
    for i in range(layers):
        h = f"h.{i}."
        shapes += [(h + "ln_1.weight", [C]), (h + "ln_1.bias", [C]),
                   (h + "attn.c_attn.weight", [C, 3 * C]), (h + "attn.c_attn.bias", [3 * C]),
                   (h + "attn.c_proj.weight", [C, C]), (h + "attn.c_proj.bias", [C]),
                   (h + "ln_2.weight", [C]), (h + "ln_2.bias", [C]),
                   (h + "mlp.c_fc.weight", [C, 4 * C]), (h + "mlp.c_fc.bias", [4 * C]),
                   (h + "mlp.c_proj.weight", [4 * C, C]), (h + "mlp.c_proj.bias", [C])]
    shapes += [("ln_f.weight", [C]), ("ln_f.bias", [C])]
    return [(prefix + name, shape, ramp(numel(shape))) for name, shape in shapes]


def bert_tensors(C=8, P=4, V=10, F=16, layers=1, gamma=False):
    ln = (".gamma", ".beta") if gamma else (".weight", ".bias")
    e = "embeddings."
    shapes = [(e + "word_embeddings.weight", [V, C]), (e + "position_embeddings.weight", [P, C]),
              (e + "token_type_embeddings.weight", [2, C]), (e + "LayerNorm" + ln[0], [C]), (e + "LayerNorm" + ln[1], [C])]
    for i in range(layers):
        l = f"encoder.layer.{i}."
        for part in ("query", "key", "value"):
            shapes += [(l + f"attention.self.{part}.weight", [C, C]), (l + f"attention.self.{part}.bias", [C])]
        shapes += [(l + "attention.output.dense.weight", [C, C]), (l + "attention.output.dense.bias", [C]),
                   (l + "attention.output.LayerNorm" + ln[0], [C]), (l + "attention.output.LayerNorm" + ln[1], [C]),
                   (l + "intermediate.dense.weight", [F, C]), (l + "intermediate.dense.bias", [F]),
                   (l + "output.dense.weight", [C, F]), (l + "output.dense.bias", [C]),
                   (l + "output.LayerNorm" + ln[0], [C]), (l + "output.LayerNorm" + ln[1], [C])]
    return [(name, shape, ramp(numel(shape))) for name, shape in shapes]


GPT2_CONFIG = {"model_type": "gpt2", "n_embd": 8, "n_head": 2, "n_layer": 1, "n_positions": 4, "vocab_size": 10}
BERT_CONFIG = {"model_type": "bert", "hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 1,
               "intermediate_size": 16, "max_position_embeddings": 4, "vocab_size": 10, "type_vocab_size": 2}


def make_hf_folder():
    t = "fuzz_hf_folder"
    gpt2 = safetensors(gpt2_tensors())
    bert = safetensors(bert_tensors())
    write(t, "gpt2_tiny", hf_input(GPT2_CONFIG, gpt2))
    write(t, "gpt2_tiny_transformer_prefix", hf_input(GPT2_CONFIG, safetensors(gpt2_tensors(prefix="transformer."))))
    write(t, "gpt2_tiny_f16", hf_input(GPT2_CONFIG, safetensors(gpt2_tensors(), dtype="F16")))
    write(t, "bert_tiny", hf_input(BERT_CONFIG, bert))
    write(t, "bert_tiny_gamma_beta", hf_input(BERT_CONFIG, safetensors(bert_tensors(gamma=True))))
    write(t, "bad_model_type", hf_input(dict(GPT2_CONFIG, model_type="t5"), gpt2))
    write(t, "bad_missing_field", hf_input({k: v for k, v in GPT2_CONFIG.items() if k != "n_head"}, gpt2))
    write(t, "bad_heads_divide", hf_input(dict(GPT2_CONFIG, n_head=3), gpt2))
    write(t, "bad_config_json", hf_input('{"model_type": "gpt2", "n_embd": ', gpt2))
    write(t, "bad_shape_for_config", hf_input(dict(GPT2_CONFIG, n_embd=4), gpt2))
    write(t, "bad_missing_tensor", hf_input(GPT2_CONFIG, safetensors(gpt2_tensors()[:-1])))
    write(t, "bad_truncated_weights", hf_input(BERT_CONFIG, bert[:-5]))
    write(t, "bad_empty_weights", hf_input(BERT_CONFIG, b""))
    write(t, "bad_empty", b"")


SHARDS = ["model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors", "model-00003-of-00003.safetensors"]


def sharded_input(index, shards):
    """fuzz_sharded_index's input: the index, then up to three shards, each but the last after its 4-byte length."""
    text = (json.dumps(index, indent=1) if isinstance(index, dict) else index)
    parts = [text.encode() if isinstance(text, str) else text] + list(shards)
    out = b""
    for i, part in enumerate(parts):
        out += part if i == 3 else struct.pack("<I", len(part)) + part
    return out


def split_index(tensors, groups, file_of=None):
    """The shards holding `groups` (lists of tensor positions) and the index naming them (or file_of's files)."""
    shards, weight_map = [], {}
    for g, positions in enumerate(groups):
        shards.append(safetensors([tensors[i] for i in positions]))
        for i in positions:
            weight_map[tensors[i][0]] = SHARDS[g]
    if file_of:
        weight_map.update(file_of)
    size = sum(4 * numel(shape) for _, shape, _ in tensors)
    return {"metadata": {"total_size": size}, "weight_map": weight_map}, shards


def make_sharded_index():
    t = "fuzz_sharded_index"
    g = gpt2_tensors()  # fuzz_sharded_index's config.json is GPT2_CONFIG
    n = len(g)
    three = [list(range(0, 5)), list(range(5, 10)), list(range(10, n))]
    index, shards = split_index(g, three)
    write(t, "gpt2_three_shards", sharded_input(index, shards))
    index2, shards2 = split_index(g, [list(range(0, 7)), list(range(7, n))])
    write(t, "gpt2_two_shards", sharded_input(index2, shards2))
    index1, shards1 = split_index(g, [list(range(n))])
    write(t, "gpt2_one_shard", sharded_input(index1, shards1))
    f16 = [safetensors([g[i] for i in grp], dtype="F16") for grp in three]
    write(t, "gpt2_three_shards_f16", sharded_input(index, f16))
    write(t, "gpt2_prefixed_names", sharded_input(*split_index(gpt2_tensors(prefix="transformer."), three)))
    extra = safetensors([g[i] for i in three[2]] + [("unlisted", [2], [1.0, 2.0])])
    write(t, "extra_tensor_not_in_index", sharded_input(index, shards[:2] + [extra]))
    write(t, "bad_missing_shard", sharded_input(index, shards[:2]))
    write(t, "bad_truncated_shard", sharded_input(index, [shards[0], shards[1][:-5], shards[2]]))
    wrong = split_index(g, three, {g[0][0]: SHARDS[1]})[0]
    write(t, "bad_tensor_in_wrong_shard", sharded_input(wrong, shards))
    twice = [shards[0], safetensors([g[i] for i in three[1]] + [g[0]]), shards[2]]
    write(t, "bad_tensor_in_two_shards", sharded_input(index, twice))
    write(t, "bad_path_out_of_folder", sharded_input(split_index(g, three, {g[1][0]: "../" + SHARDS[0]})[0], shards))
    write(t, "bad_names_index_itself", sharded_input(split_index(g, three, {g[1][0]: "model.safetensors.index.json"})[0],
                                                     shards))
    write(t, "bad_file_not_string", sharded_input(split_index(g, three, {g[2][0]: 3})[0], shards))
    write(t, "bad_missing_tensor", sharded_input(split_index(g, [three[0], three[1], three[2][:-1]])[0],
                                                 [shards[0], shards[1], safetensors([g[i] for i in three[2][:-1]])]))
    write(t, "bad_index_no_weight_map", sharded_input({"metadata": {}}, shards))
    write(t, "bad_index_empty_weight_map", sharded_input({"weight_map": {}}, shards))
    write(t, "bad_index_not_object", sharded_input("[1, 2]", shards))
    write(t, "bad_index_truncated", sharded_input(json.dumps(index)[:40], shards))
    write(t, "bad_empty", b"")


# ---------------------------------------------------------------- SentencePiece .model files
SP_FIXTURES = ROOT / "tests/fixtures/tokenizers/sentencepiece"
SP_TEXT_MARK = b"\0\0TEXT\0\0"  # fuzz_sentencepiece.cpp: the model's bytes end here, the text follows


def sentencepiece_charsmap(model):
    """Where normalizer_spec.precompiled_charsmap starts in a .model file, and its trie's number of 4-byte units."""
    def varint(at):
        value, shift = 0, 0
        while True:
            value |= (model[at] & 0x7F) << shift
            shift += 7
            at += 1
            if model[at - 1] < 0x80:
                return value, at

    def length_delimited(begin, end, wanted):
        at = begin
        while at < end:
            key, at = varint(at)
            if key & 7 == 0:
                at = varint(at)[1]
            elif key & 7 == 2:
                n, at = varint(at)
                if key >> 3 == wanted:
                    return at, n
                at += n
            else:
                at += 8 if key & 7 == 1 else 4
        raise ValueError(f"field {wanted} not found")

    spec_at, spec_n = length_delimited(0, len(model), 3)  # ModelProto.normalizer_spec
    charsmap_at, _ = length_delimited(spec_at, spec_at + spec_n, 2)  # NormalizerSpec.precompiled_charsmap
    return charsmap_at, struct.unpack("<I", model[charsmap_at:charsmap_at + 4])[0] // 4


def make_sentencepiece():
    t = "fuzz_sentencepiece"
    llama = (SP_FIXTURES / "llama/tokenizer.model").read_bytes()
    source = (SP_FIXTURES / "marian/source.spm").read_bytes()
    target = (SP_FIXTURES / "marian/target.spm").read_bytes()
    # First byte: bit 0 add_bos, bit 1 add_eos.
    write(t, "llama_bos", b"\x01" + llama)
    write(t, "llama_bos_eos_text", b"\x03" + llama + SP_TEXT_MARK + "The cat <s> sat </s> 사과 😀 <unk>!".encode())
    write(t, "llama_plain_bytes_text", b"\x00" + llama + SP_TEXT_MARK + "  two  spaces\n\u00e9 \x7f".encode())
    write(t, "marian_source_text", b"\x00" + source + SP_TEXT_MARK + b">>kor<< I like apples.")
    write(t, "marian_target", b"\x00" + target)
    write(t, "bad_marian_source_bos", b"\x01" + source)  # Marian's models have no <s>
    # The normalization rules' trie broken in place (found by this target: libsentencepiece read outside the
    # model): the root's block far past the trie's end, or every replacement past the strings' end.
    charsmap_at, trie_units = sentencepiece_charsmap(source)
    root = bytearray(source)
    root[charsmap_at + 4:charsmap_at + 8] = struct.pack("<I", 0x7FFFFC00)
    write(t, "bad_charsmap_root_outside_trie", b"\x00" + bytes(root) + SP_TEXT_MARK + b"ABC WXYZ")
    leaves = bytearray(source)
    for u in range(trie_units):
        at = charsmap_at + 4 + 4 * u
        if struct.unpack("<I", leaves[at:at + 4])[0] >> 31:
            leaves[at:at + 4] = struct.pack("<I", 0xFFFFFFFF)
    write(t, "bad_charsmap_replacement_past_end", b"\x00" + bytes(leaves) + SP_TEXT_MARK + b"ABC WXYZ")
    # A model without the "▁" piece (Marian's has no byte fallback): the library gives "▁" at <unk>'s id with an
    # empty span (found by this target).
    no_space = source.replace(b"\x0a\x03\xe2\x96\x81\x15", b"\x0a\x03_x_\x15")
    assert len(no_space) == len(source) and no_space != source
    write(t, "marian_without_space_piece", b"\x00" + no_space + SP_TEXT_MARK + b"a b </s> c")
    # Marian's unigram model with its "▁" piece starting with a NUL byte: libsentencepiece's trie builder reads it as
    # an empty C string and throws (found by this target).
    nul_piece = source.replace(b"\x0a\x03\xe2\x96\x81\x15", b"\x0a\x03\x00\x96\x81\x15")
    assert len(nul_piece) == len(source) and nul_piece != source
    write(t, "bad_unigram_piece_nul", b"\x00" + nul_piece)
    write(t, "bad_truncated", b"\x01" + llama[: len(llama) // 2])
    write(t, "bad_text_not_model", b"\x01" + "▁the ▁cat\n".encode())
    write(t, "bad_empty", b"\x00")


# ---------------------------------------------------------------- tokenizer.json, read and used
JSON_BPE_FIXTURES = ROOT / "tests/fixtures/tokenizers/json_bpe"


def make_tokenizer_json():
    t = "fuzz_tokenizer_json"
    text = "Hello, world! it's 2023 — café 한국어 😀\n\n  <|endoftext|> <s>".encode()
    for layout in ["gpt2", "llama2", "llama3", "mistral", "qwen2", "smollm2"]:
        write(t, f"{layout}_text", (JSON_BPE_FIXTURES / f"{layout}.json").read_bytes() + b"\0" + text)
    for layout in ("t5", "t5_strip", "t5_bytes"):
        write(t, f"{layout}_text", (ROOT / f"tests/fixtures/tokenizers/unigram/{layout}.json").read_bytes() + b"\0" + text)
    gpt2 = json.loads((JSON_BPE_FIXTURES / "gpt2.json").read_text())
    write(t, "gpt2_bad_utf8_text", json.dumps(gpt2).encode() + b"\0abc \xea\xb0")
    write(t, "bad_model_unigram", json.dumps(dict(gpt2, model=dict(gpt2["model"], type="Unigram"))))
    added = dict(gpt2, added_tokens=[{"id": 0, "content": "<|endoftext|>", "special": True}])
    write(t, "bad_added_token_id_taken", json.dumps(added))
    write(t, "bad_truncated", json.dumps(gpt2)[:300])
    write(t, "bad_not_object", "[1, 2, 3]")


# ---------------------------------------------------------------- settings.json
def make_settings():
    t = "fuzz_settings"
    write(t, "current", json.dumps({
        "settings": {"korean": True, "dark_theme": False, "font_scale": 1.5, "recent_files": ["/tmp/a.safetensors"]},
        "tab": "attention", "attention": {"family": "cross", "stage": "weights", "layer": 1, "head": 2},
        "analysis": {"tool": "circuits"}, "playground": {"preset": "look_ahead"}}, indent=2))
    write(t, "flat_of_before", json.dumps({"analysis_tool": 1, "layer": 2, "cell": [1, 3], "korean": True}))
    write(t, "bad_types", json.dumps({"settings": {"korean": "yes", "font_scale": "big", "recent_files": [1, None]},
                                      "tab": 7, "attention": [], "playground": {"focus": [1]}}))
    write(t, "bad_out_of_range", json.dumps({"settings": {"font_scale": 1e300}, "attention": {"layer": -5,
                                             "head": 1e20}, "train": {"experiment_keys": 1000000}}))
    write(t, "bad_truncated", '{"settings": {"korean": tr')
    write(t, "bad_empty", "")


# ---------------------------------------------------------------- a file of token ids
def make_token_ids():
    t = "fuzz_token_ids"
    write(t, "spaced", "5 1 4 1 5 9 2 6 5 3 5 8 9 7 9\n")
    write(t, "json_array", "[3, 1, 4, 1, 5, 9, 2, 6]")
    write(t, "csv_lines", "1,2,3,\r\n4,5,6\r\n,7,,8\n")
    write(t, "edges", "  [ 007 0 2147483647 ]\n")
    write(t, "long", " ".join(str(i * 7919 % 50257) for i in range(2000)))
    write(t, "bad_float", "1 2.5 3")
    write(t, "bad_nested", "[[1, 2], [3]]")
    write(t, "bad_unclosed", "[1, 2")
    write(t, "bad_too_big", "1 2147483648")
    write(t, "bad_hangul", "1 사과\n")


# ---------------------------------------------------------------- (source, target) pairs, a TSV
def make_token_pairs():
    t = "fuzz_token_pairs"
    # First byte: the batch size, 1 + byte % 4; the TSV follows. The model's max_len is 12: a side holds at most 11
    # characters besides its <eos> (source) or <sos> (target).
    write(t, "three_pairs_b2", b"\x01" + b"hello\tbonjour\ncat\tchat\nI like it.\tJ'aime.\n")
    write(t, "one_pair_b4", b"\x03" + b"a\tb")
    write(t, "crlf_and_blank_lines_b3", b"\x02" + b"ab\tcd\r\n\r\n\nx y\tz\r\n\n")
    write(t, "longest_sides_b2", b"\x01" + b"abcdefghijk\tlmnopqrstuv\nq\tr\n")
    write(t, "unknown_chars_b1", b"\x00" + "사과\tapple\n\x00\x7f\t\u00e9t\u00e9\n".encode())
    write(t, "bad_no_tab", b"\x00" + b"a\tb\nno tab here\n")
    write(t, "bad_two_tabs", b"\x00" + b"a\tb\tc\n")
    write(t, "bad_empty_source", b"\x00" + b"\tb\n")
    write(t, "bad_blank_target", b"\x00" + b"a\t  \r\n")
    write(t, "bad_source_too_long", b"\x00" + b"abcdefghijkl\tb\n")
    write(t, "bad_target_too_long", b"\x00" + b"a\tabcdefghijkl\n")
    write(t, "bad_invalid_utf8", b"\x00" + b"a\t\xea\xb0\n")
    write(t, "bad_no_pairs", b"\x00" + b"\n\r\n\n")
    write(t, "bad_empty", b"\x00")


# ---------------------------------------------------------------- tour.json
def make_tour():
    t = "fuzz_tour"
    tour = json.loads((ROOT / "assets/tour/tour.json").read_text())
    write(t, "assets_tour", json.dumps(tour, ensure_ascii=False))
    chapters = tour["chapters"]
    write(t, "first_two_chapters", json.dumps(dict(tour, chapters=chapters[:2]), ensure_ascii=False))
    with_part = [c for c in chapters if "part" in c]
    if with_part:
        write(t, "one_part_chapter", json.dumps(dict(tour, chapters=with_part[:1]), ensure_ascii=False))
    one = dict(chapters[0])
    write(t, "bad_unknown_task", json.dumps({"chapters": [dict(one, task="dance")]}, ensure_ascii=False))
    write(t, "bad_duplicate_id", json.dumps({"chapters": [one, one]}, ensure_ascii=False))
    write(t, "bad_no_korean", json.dumps({"chapters": [{k: v for k, v in one.items() if k != "ko"}]},
                                         ensure_ascii=False))
    write(t, "bad_unknown_part", json.dumps({"chapters": [dict(one, part="nowhere")]}, ensure_ascii=False))
    write(t, "bad_empty_chapters", '{"chapters": []}')
    write(t, "bad_truncated", json.dumps(tour, ensure_ascii=False)[:500])


# ---------------------------------------------------------------- trace and gradient files opened as models
GOLDEN = ROOT / "tests/golden/fixtures"


def attnlab_cli(*args):
    """Runs the native build's attnlab-cli (ATTNLAB_CLI, or build/attnlab-cli), which writes real trace files."""
    cli = os.environ.get("ATTNLAB_CLI", str(ROOT / "build/attnlab-cli"))
    if not os.access(cli, os.X_OK):
        sys.exit(f"make_corpus.py: {cli} is missing; build attnlab-cli first (the trace seeds are its output)")
    subprocess.run([cli, *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def make_trace():
    t = "fuzz_trace"
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        attnlab_cli("trace", GOLDEN / "decoder_only.model.safetensors", "--tgt-ids", "1,5,7", "--out", out / "dec")
        attnlab_cli("trace", GOLDEN / "no_pe_h1.model.safetensors", "--src-ids", "1,5", "--tgt-ids", "1,5",
                    "--out", out / "encdec")
        attnlab_cli("grad", GOLDEN / "decoder_only.model.safetensors", "--tgt-ids", "1,5,7", "--out", out / "grad")
        dec = (out / "dec").read_bytes()
        write(t, "trace_decoder_only", dec)
        write(t, "trace_encoder_decoder", (out / "encdec").read_bytes())
        write(t, "gradients_decoder_only", (out / "grad").read_bytes())
    write(t, "golden_expected_outputs", (GOLDEN / "no_pe_h1.expected.safetensors").read_bytes())
    write(t, "bad_truncated_trace", dec[: len(dec) // 2])
    write(t, "bad_header_only", dec[:8 + struct.unpack("<Q", dec[:8])[0]])
    write(t, "bad_png", b"\x89PNG\r\n\x1a\n" + bytes(24))
    write(t, "bad_text", "step,value\nembed,1.0\n")
    write(t, "bad_empty", b"")


# ---------------------------------------------------------------- training history
def parse_safetensors(blob):
    """bytes -> (list of (name, shape, values) in offset order, metadata); F32 only."""
    n = struct.unpack("<Q", blob[:8])[0]
    header = json.loads(blob[8:8 + n])
    metadata = header.pop("__metadata__", {})
    data = blob[8 + n:]
    tensors = []
    for name, h in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        a, b = h["data_offsets"]
        tensors.append((name, h["shape"], list(struct.unpack(f"<{(b - a) // 4}f", data[a:b]))))
    return tensors, metadata


def training_history(steps=(0, 5), induction=0.5, drop=None):
    """tiny_model's weights as every checkpoint of a history (train/training_history_file.h), L = 3."""
    tensors, metadata = parse_safetensors(tiny_model())
    config = json.loads(metadata["config"])
    layers = config["n_encoder_layers"] * (config["arch"] != "decoder_only") + \
        config["n_decoder_layers"] * (config["arch"] != "encoder_only")
    n, heads = len(steps), config["n_heads"]
    out = [(f"checkpoint.{i}.{name}", shape, values) for i in range(n) for name, shape, values in tensors
           if (i, name) != drop]
    out += [("history.step", [n], list(steps)), ("history.loss", [n], [float("nan")] + [2.5] * (n - 1)),
            ("history.first_copy", [n], [3.0] * n), ("history.second_copy", [n], [1.0] * n)]
    for name, value in (("induction", induction), ("previous_token", 0.25), ("duplicate_token", 0.0)):
        out.append((f"history.{name}", [n, layers, heads], [value] * (n * layers * heads)))
    metadata["history"] = json.dumps({"format": 1, "detect_length": 3})
    return safetensors(out, metadata)


def make_training_history():
    t = "fuzz_training_history"
    write(t, "two_checkpoints", training_history())
    write(t, "one_checkpoint", training_history(steps=(0,)))
    write(t, "bad_steps_out_of_order", training_history(steps=(5, 5)))
    write(t, "bad_score_above_1", training_history(induction=1.5))
    write(t, "bad_missing_weight", training_history(drop=(1, "generator.weight")))
    write(t, "bad_model_file", tiny_model())


if __name__ == "__main__":
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    make_safetensors()
    make_config()
    make_vocab()
    make_tokenizers()
    make_hf_folder()
    make_sharded_index()
    make_sentencepiece()
    make_tokenizer_json()
    make_settings()
    make_tour()
    make_token_ids()
    make_token_pairs()
    make_trace()
    make_training_history()
    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    print(f"{sum(1 for p in CORPUS.rglob('*') if p.is_file())} files, {total} bytes in {CORPUS}")
