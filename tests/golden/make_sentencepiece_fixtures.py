#!/usr/bin/env python3
"""Writes tests/fixtures/tokenizers/sentencepiece/: tiny SentencePiece models in the layouts of the hub's
Hugging Face folders, and oracle.json, what the SentencePiece library and transformers' tokenizers around
it make of a list of texts with them.

- llama/tokenizer.model: BPE with byte fallback, trained as Llama 2's was (identity normalization, extra
  white space kept, digits split, a dummy prefix "▁"), with a tokenizer_config.json that asks for BOS.
- marian/source.spm (English) and marian/target.spm (Korean): unigram models with SentencePiece's default
  nmt_nfkc normalization, as Marian's opus-mt models have them, and vocab.json as convert_marian_to_pytorch
  writes it: Marian's vocabulary ("</s>" 0, "<unk>" 1, then the pieces) with "<pad>" after the last id.
  Two language codes (">>eng<<", ">>kor<<") are in it, as in a multilingual model's; a few pieces of
  source.spm are left out of it (Marian's vocabulary holds the pieces its training data used), so they
  become <unk>.

The reference is Debian's python3-sentencepiece (the same library, 0.1.97, that the C++ code links), and for
what transformers adds around it this script follows transformers' own code (v4 releases):
- LlamaTokenizer (slow, legacy=True): the text is cut at the special tokens it spells (<s>, </s>, <unk>:
  PreTrainedTokenizer.tokenize, no white space stripped around them), each piece between is
  sp.encode(piece); <s> first when add_bos_token, </s> last when add_eos_token.
- MarianTokenizer (tokenization_marian.py): the same cut at </s>, <unk>, <pad>; in each piece between,
  remove_language_code (language_code_re = re.compile(">>.+<<"): a match at the start is kept as one token,
  and every match is removed from the text) and source.spm's (or target.spm's) encode; each token's id from
  vocab.json, <unk>'s id for a token not in it; </s> appended (build_inputs_with_special_tokens). Decoding:
  ids to tokens through vocab.json, skip_special_tokens dropping </s>, <unk>, <pad>, and
  convert_tokens_to_string with target.spm (each special token written after the decoded run before it,
  followed by a space; the result stripped).

Training is deterministic (one thread, no sampling or shuffling of the input): re-running writes the same
files byte for byte.

Usage (needs Debian's python3-sentencepiece; CI reads only the written files):
    /usr/bin/python3 tests/golden/make_sentencepiece_fixtures.py
"""
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import sentencepiece as spm

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "tokenizers" / "sentencepiece"

# ---------------------------------------------------------------- corpora

ENGLISH = """The quick brown fox jumps over the lazy dog.
Attention is all you need: the Transformer reads the whole sentence at once.
Each head attends to the other tokens of the sentence, and the model adds what they say.
The cat sat on the mat. The dog sat on the log. The cats and the dogs are friends.
In 2017 the paper had 8 heads, 6 layers and 512 dimensions; 1234 and 5678 are numbers too.
Hello, world! Hello again, world. Say hello to the model, and the model says hello back.
I am a student. You are a teacher. We read the book together in the morning.
She reads, he writes, they listen: the words become tokens and the tokens become vectors.
Numbers: 0 1 2 3 4 5 6 7 8 9 10 20 30 100 2024 3.14 1,000 42.
Emoji 😀 and 👍 in a chat: that is fun, that is nice, that is great!
The   spaces   between   words   are   kept   in   this   line.
"""

KOREAN = """안녕하세요 세계! 모델은 문장을 한 번에 읽습니다.
모델은 토큰을 읽습니다. 토큰은 모델의 입력입니다. 한국어 문장입니다.
고양이가 책 위에 앉았습니다. 개가 책 위에 앉았습니다. 고양이와 개는 친구입니다.
저는 학생입니다. 우리는 함께 책을 읽습니다. 학생은 문장을 읽습니다.
2017년에 모델은 8개의 헤드와 6개의 층을 가졌습니다. 숫자 1234 와 5678 도 있습니다.
안녕하세요, 세계! 다시 안녕하세요. 모델에게 안녕하세요 하면 모델도 안녕하세요 합니다.
고양이는 읽고, 개는 듣습니다: 문장은 토큰이 되고 토큰은 모델의 입력이 됩니다.
이모지 😀 와 👍 는 좋습니다. 좋습니다, 아주 좋습니다!
"""

# Llama's corpus: English and a little Korean, so the BPE learns English and some Hangul merges, and falls
# back on bytes for the syllables it saw too rarely (as Llama 2 does for most of Hangul).
LLAMA = ENGLISH + "\n".join(KOREAN.split("\n")[:2]) + """def attention(q, k, v):
    return softmax(q @ k.T) @ v
tabs\tand\tnewlines and    runs of     spaces.
"""

# ---------------------------------------------------------------- the texts the oracle records

TEXTS = [
    "",
    " ",
    "   ",
    "\t",
    "\n",
    " \n ",
    "a",
    "The",
    "the cat",
    "The cat sat on the mat.",
    "Hello, world!",
    "hello hello hello",
    "Attention is all you need.",
    "The quick brown fox jumps over the lazy dog.",
    "  leading spaces",
    "trailing spaces   ",
    "two  spaces",
    "many      spaces      here",
    "tabs\tand\ttabs",
    "line one\nline two",
    "\n\nblank lines\n\n",
    "mixed \t\n white \u3000 space",
    "0",
    "7",
    "42",
    "2024",
    "1234567890",
    "3.14159",
    "1,000,000",
    "room 101 and 202",
    "x2 y3 z10",
    "안녕하세요",
    "안녕하세요 세계",
    "안녕하세요 세계!",
    "트랜스포머는 문장 전체를 한 번에 읽습니다.",
    "고양이가 매트 위에 앉았습니다.",
    "저는 학생입니다.",
    "한국어 텍스트입니다",
    "2017년에 논문은 8개의 헤드",
    "모델은  토큰을   읽습니다",
    "똠방각하 뷁 쀍",
    "\u1112\u1161\u11ab\u1100\u1173\u11af",
    "Hello 세계",
    "the 고양이 and the 개",
    "한국어 and English 123",
    "😀",
    "😀😀",
    "hello 😀",
    "👍 good",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "family: 👨\u200d👩\u200d👧\u200d👦!",
    "🏳\ufe0f\u200d🌈 flag",
    "❤\ufe0f",
    "🇰🇷🇺🇸",
    "이모지 😀 와 👍",
    "Café naïve résumé",
    "Ελληνικά",
    "Русский текст",
    "中文字符",
    "日本語のテキスト",
    "עברית",
    "العربية",
    "हिन्दी",
    "ﬁ ligature",
    "full\uff37idth \uff21\uff22\uff23",
    "①②③",
    "x\u00a0y",
    "zero\u200bwidth",
    "e\u0301 combining",
    "<s>",
    "</s>",
    "<unk>",
    "<pad>",
    "<s>hello",
    "hello</s>",
    "hello </s> world",
    "a<unk>b",
    "<pad><pad>",
    "<s> </s>",
    "<<s>>",
    "</s></s>",
    "< s >",
    "<S>",
    ">>kor<< 안녕하세요",
    ">>kor<<안녕하세요 세계",
    ">>eng<< The cat",
    ">>fra<< Bonjour",
    ">>kor<<",
    "hello >>kor<< world",
    ">>kor<< a >>eng<< b",
    ">><<",
    ">>x<< y << z",
    ">>kor<<\nnext line",
    "<unk>>>kor<< 안녕",
    "▁",
    "▁▁hello",
    "a▁b",
    "\u2581 leading",
    "punctuation!?.,;:'\"()[]{}",
    "a-b_c/d\\e|f",
    "@#$%^&*~`",
    "email@example.com",
    "https://example.com/path?q=1",
    "CamelCaseWords",
    "ALL CAPS TEXT",
    "don't can't won't",
    "It's 5 o'clock.",
    "The 2 cats sat on 3 mats.",
    "model 모델 model 모델",
    "토큰 token 토큰 token",
    "\x00null",
    "bell\x07",
    "\u00ff\u0100",
    "\U0001F600\U0001F601\U0001F602",
    "\U00010348 gothic",
    "a" * 60,
    "hello" * 12,
    "안녕" * 15,
    "The cat sat on the mat. " * 4,
]


# ---------------------------------------------------------------- training

# tokenizer.model: the 259 meta and byte pieces, the characters of 98% of LLAMA (the least that SentencePiece
# allows), and merges up to 384 pieces.
LLAMA_VOCAB = 384
LLAMA_COVERAGE = 0.98


def train(sentences, **options):
    """A model trained on `sentences` in one thread, from all of them, unshuffled: the same bytes every run."""
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=model, num_threads=1, input_sentence_size=0,
        shuffle_input_sentence=False, minloglevel=2, **options)
    return model.getvalue()


# Marian's models normalize with nmt_nfkc, whose table takes 237 KB of each .spm file; these models carry a
# few of its rules instead (full-width Latin letters and digits, the ideographic space, no-break space, the
# "fi" ligature, circled digits), so the files stay small and the texts still meet a normalizer.
MARIAN_RULES = (
    [(0xFF21 + k, 0x41 + k) for k in range(26)] + [(0xFF41 + k, 0x61 + k) for k in range(26)] +
    [(0xFF10 + k, 0x30 + k) for k in range(10)] + [(0x2460 + k, 0x31 + k) for k in range(9)] +
    [(0x3000, 0x20), (0x00A0, 0x20), (0xFB01, (0x66, 0x69))])


def write_marian_rules():
    """Writes the rules to ./marian_rules.tsv; the models record that relative name, the same every run."""
    path = Path("marian_rules.tsv")
    path.write_text("".join(f"{a:X}\t{' '.join(f'{c:X}' for c in (b if isinstance(b, tuple) else (b,)))}\n"
                            for a, b in MARIAN_RULES))
    return str(path)


def lines(text):
    return [line for line in text.split("\n") if line.strip()]


# ---------------------------------------------------------------- transformers' logic around SentencePiece

def split_special(text, specials):
    """PreTrainedTokenizer.tokenize's cut (its Trie): the leftmost special token, the longest of those that
    start there; returns (piece, is_special) pairs, empty pieces left out."""
    out, begin, at = [], 0, 0
    while at < len(text):
        found = max((s for s in specials if text.startswith(s, at)), key=len, default=None)
        if found is None:
            at += 1
            continue
        if at > begin:
            out.append((text[begin:at], False))
        out.append((found, True))
        at += len(found)
        begin = at
    if begin < len(text):
        out.append((text[begin:], False))
    return out


LLAMA_SPECIALS = ["<s>", "</s>", "<unk>"]


def llama_encode(sp, text, add_bos, add_eos):
    pieces, ids = [], []
    for piece, special in split_special(text, LLAMA_SPECIALS):
        if special:
            pieces.append(piece)
            ids.append(sp.piece_to_id(piece))
        else:
            pieces += sp.encode(piece, out_type=str)
            ids += sp.encode(piece)
    if add_bos:
        pieces, ids = [sp.id_to_piece(sp.bos_id())] + pieces, [sp.bos_id()] + ids
    if add_eos:
        pieces, ids = pieces + [sp.id_to_piece(sp.eos_id())], ids + [sp.eos_id()]
    return pieces, ids


def llama_decode(sp, ids, skip_special):
    """Runs of ordinary ids as sp.decode writes them; a control or unknown id dropped (skip_special, as
    decode(skip_special_tokens=True) drops <s>, </s>, <unk>) or written as its piece."""
    out, run = "", []
    for i in ids:
        if sp.is_control(i) or sp.is_unknown(i):
            out += sp.decode(run) + ("" if skip_special else sp.id_to_piece(i))
            run = []
        else:
            run.append(i)
    return out + sp.decode(run)


MARIAN_SPECIALS = ["</s>", "<unk>", "<pad>"]  # eos, unk, pad: all_special_tokens
LANGUAGE_CODE = re.compile(">>.+<<")           # MarianTokenizer.language_code_re


def marian_tokenize(sp, text):
    tokens = []
    for piece, special in split_special(text, MARIAN_SPECIALS):
        if special:
            tokens.append(piece)
            continue
        match = LANGUAGE_CODE.match(piece)  # remove_language_code
        code = [match.group(0)] if match else []
        tokens += code + sp.encode(LANGUAGE_CODE.sub("", piece), out_type=str)
    return tokens


def marian_encode(sp, vocab, text):
    tokens = marian_tokenize(sp, text)
    return tokens, [vocab.get(t, vocab["<unk>"]) for t in tokens] + [vocab["</s>"]]


def marian_decode(target_sp, vocab, ids, skip_special):
    by_id = {i: t for t, i in vocab.items()}
    special_ids = {vocab[t] for t in MARIAN_SPECIALS}
    tokens = [by_id.get(i, "<unk>") for i in ids if not (skip_special and i in special_ids)]
    out, run = "", []
    for t in tokens:  # convert_tokens_to_string
        if t in MARIAN_SPECIALS:
            out += target_sp.decode_pieces(run) + t + " "
            run = []
        else:
            run.append(t)
    out += target_sp.decode_pieces(run)
    return out.strip()


# ---------------------------------------------------------------- the fixtures

def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def dump(value):
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"


def main():
    llama_model = train(lines(LLAMA), model_type="bpe", vocab_size=LLAMA_VOCAB, byte_fallback=True,
                        normalization_rule_name="identity", remove_extra_whitespaces=False, split_digits=True,
                        allow_whitespace_only_pieces=True, character_coverage=LLAMA_COVERAGE, unk_surface=" \u2047 ")
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        rules = write_marian_rules()
        source_model = train(lines(ENGLISH), model_type="unigram", vocab_size=72, character_coverage=0.98,
                             normalization_rule_tsv=rules)
        target_model = train(lines(KOREAN), model_type="unigram", vocab_size=90, character_coverage=0.98,
                             normalization_rule_tsv=rules)
        os.chdir(here)
    llama = spm.SentencePieceProcessor(model_proto=llama_model)
    source = spm.SentencePieceProcessor(model_proto=source_model)
    target = spm.SentencePieceProcessor(model_proto=target_model)

    # Marian's vocabulary: </s>, <unk>, the pieces of both models (source first, in their own order), two
    # language codes, <pad> last. The source model's three last pieces are left out.
    def ordinary(sp):
        return [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not (sp.is_control(i) or sp.is_unknown(i))]
    left_out = ordinary(source)[-3:]
    tokens = ["</s>", "<unk>"]
    for piece in ordinary(source) + ordinary(target) + [">>eng<<", ">>kor<<"]:
        if piece not in tokens and piece not in left_out:
            tokens.append(piece)
    tokens.append("<pad>")
    vocab = {t: i for i, t in enumerate(tokens)}
    if len(vocab) > 200:
        sys.exit(f"vocab.json has {len(vocab)} tokens; keep it at most 200")
    if any(p in vocab for p in left_out):
        sys.exit("a left-out piece is also a target piece; pick others")

    llama_config = {"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
                    "unk_token": "<unk>", "legacy": True, "tokenizer_class": "LlamaTokenizer"}
    write(OUT / "llama" / "tokenizer.model", llama_model)
    write(OUT / "llama" / "tokenizer_config.json", dump(llama_config))
    write(OUT / "marian" / "source.spm", source_model)
    write(OUT / "marian" / "target.spm", target_model)
    write(OUT / "marian" / "vocab.json", dump(vocab))
    write(OUT / "marian" / "tokenizer_config.json", dump({"source_lang": "en", "target_lang": "ko"}))

    oracle = {
        "reference": f"sentencepiece {spm.__version__} (Debian python3-sentencepiece), with transformers' "
                     "LlamaTokenizer (legacy) and MarianTokenizer logic as make_sentencepiece_fixtures.py says",
        "texts": TEXTS,
        "llama": {"vocab_size": llama.get_piece_size(), "bos_id": llama.bos_id(), "pieces": [], "ids": [],
                  "decoded": [], "decoded_skip_special": []},
        "marian": {"vocab_size": len(vocab), "left_out": left_out,
                   "source": {"vocab_size": source.get_piece_size(), "pieces": [], "ids": []},
                   "target": {"vocab_size": target.get_piece_size(), "pieces": [], "ids": [], "decoded": [],
                              "decoded_skip_special": []}},
    }
    for text in TEXTS:
        pieces, ids = llama_encode(llama, text, add_bos=True, add_eos=False)
        record = oracle["llama"]
        record["pieces"].append(pieces)
        record["ids"].append(ids)
        record["decoded"].append(llama_decode(llama, ids, skip_special=False))
        record["decoded_skip_special"].append(llama_decode(llama, ids, skip_special=True))
        for side, sp in (("source", source), ("target", target)):
            pieces, ids = marian_encode(sp, vocab, text)
            record = oracle["marian"][side]
            record["pieces"].append(pieces)
            record["ids"].append(ids)
        record = oracle["marian"]["target"]
        record["decoded"].append(marian_decode(target, vocab, record["ids"][-1], skip_special=False))
        record["decoded_skip_special"].append(marian_decode(target, vocab, record["ids"][-1], skip_special=True))
    write(OUT / "oracle.json", dump(oracle))
    print(f"llama: {llama.get_piece_size()} pieces; marian: source {source.get_piece_size()}, "
          f"target {target.get_piece_size()}, vocab.json {len(vocab)}; {len(TEXTS)} texts")


if __name__ == "__main__":
    main()
