// libFuzzer target: every tokenizer and the Hugging Face tokenizer files.
// Input: the first byte's high nibble picks what is fuzzed (mod 6), the rest is the text or file:
//   0  word / char tokenizer (low bit 0: word, 1: char; bit 1: skip_special) over a small vocabulary
//   1  GPT-2 byte-level BPE encode/decode with fixed vocab.json + merges.txt
//   2  BERT WordPiece, lower-cased; 3  BERT WordPiece, cased
//   4  vocab.json and merges.txt parsed (split at the first NUL byte), then used
//   5  vocab.txt parsed (low bit: lower-case), then used
// Properties: errors only on invalid UTF-8 text or bad files, and then one line of valid UTF-8
// naming the file; ids in range; pieces are the text at their spans; spans are whole code points
// in order; GPT-2's decode(encode(x)) == x; WordPiece's [CLS] first and [SEP] last; decode
// always returns valid UTF-8.
#include "fuzz_common.h"
#include "text/byte_level.h"
#include "text/byte_level_bpe.h"
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocab.h"
#include "text/wordpiece.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace attnlab;

namespace {

// <pad> <sos> <eos> <unk>, some English and Hangul words and syllables, printable ASCII.
Vocab make_vocab() {
    std::vector<std::string> tokens = {kPadToken,  kSosToken, kEosToken, kUnkToken, "the",    "cat",  "sat",
                                       "on",       "mat",     "i",       "like",    "apples", "나는", "사과를",
                                       "좋아한다", "고양이",  "사",      "과",      "나",     "는",   "　"};
    for (char c = 32; c < 127; ++c) {
        std::string s(1, c);
        bool seen = false;
        for (const auto& t : tokens) seen = seen || t == s;
        if (!seen) tokens.push_back(s);
    }
    auto v = Vocab::from_tokens(std::move(tokens));
    if (!v) {
        std::fprintf(stderr, "fuzz_tokenizers: fixed vocab rejected: %s\n", v.error().message.c_str());
        std::abort();
    }
    return std::move(*v);
}

std::string symbol_of(uint8_t byte) {
    std::string s;
    append_utf8(byte_to_symbol(byte), s);
    return s;
}

// The 256 byte symbols, a few merges over English, spaces, newlines, Hangul and emoji bytes,
// and <|endoftext|>.
ByteLevelBpeTokenizer make_bpe() {
    const std::vector<std::pair<std::string, std::string>> merges = {
        {"Ġ", "t"},   {"Ġt", "h"}, {"Ġth", "e"}, {"t", "h"}, {"th", "e"}, {"e", "r"},  {"Ġ", "Ġ"},
        {"ĠĠ", "ĠĠ"}, {"Ċ", "Ċ"},  {"'", "s"},   {"!", "!"}, {"ì", "ķ"},  {"ìķ", "Ī"}, {"ð", "Ł"},
        {"ðŁ", "ĺ"},  {"Ã", "©"},  {"1", "2"},   {"Ġ", "1"}, {"Ġ1", "2"}};
    std::string vocab = "{";
    for (int b = 0; b < 256; ++b) {
        const std::string symbol = b == '"'    ? "\\\""
                                   : b == '\\' ? "\\\\"
                                               : symbol_of(static_cast<uint8_t>(b));  // JSON-escaped
        vocab += "\"" + symbol + "\":" + std::to_string(b) + ",";
    }
    std::string merges_txt = "#version: 0.2\n";
    int id = 256;
    for (const auto& [a, b] : merges) {
        vocab += "\"" + a + b + "\":" + std::to_string(id++) + ",";
        merges_txt += a + " " + b + "\n";
    }
    vocab += "\"<|endoftext|>\":" + std::to_string(id) + "}";
    auto t = ByteLevelBpeTokenizer::from_files({"vocab.json", vocab}, {"merges.txt", merges_txt});
    if (!t) {
        std::fprintf(stderr, "fuzz_tokenizers: fixed BPE files rejected: %s\n", t.error().message.c_str());
        std::abort();
    }
    return std::move(*t);
}

constexpr std::string_view kWordPieceVocab =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\nplay\n##ing\n##s\nun\n##aff\n##able\ncafe\n'\ns\n!\n.\n"
    "$\n5\n+\na\n##a\n한\n##국\nᄒ\n##ᅡ\n##ᆫ\n中\ni\nοδοσ\nCafé\n";

WordPieceTokenizer make_wordpiece(bool lower_case) {
    auto t =
        WordPieceTokenizer::from_file({"vocab.txt", kWordPieceVocab}, {.lower_case = lower_case, .strip_accents = {}});
    if (!t) {
        std::fprintf(stderr, "fuzz_tokenizers: fixed vocab.txt rejected: %s\n", t.error().message.c_str());
        std::abort();
    }
    return std::move(*t);
}

void check_error(const Error& e, std::string_view expected_start) {
    FUZZ_CHECK(is_one_line(e.message), "bad error message: " + e.message);
    FUZZ_CHECK(is_valid_utf8(e.message), "error message is not UTF-8");
    FUZZ_CHECK(std::string_view(e.message).starts_with(expected_start), "error does not name its source: " + e.message);
}

void fuzz_word_or_char(const Vocab& vocab, uint8_t mode, std::string_view text) {
    constexpr int unk_id = 3;
    const TokenizerKind kind = (mode & 1) ? TokenizerKind::character : TokenizerKind::word;
    const bool skip_special = (mode & 2) != 0;
    auto t = tokenize(vocab, kind, text, unk_id);
    if (!t) {
        FUZZ_CHECK(!is_valid_utf8(text), "tokenize failed on valid UTF-8: " + t.error().message);
        check_error(t.error(), "invalid UTF-8");
        return;
    }
    FUZZ_CHECK(is_valid_utf8(text), "tokenize accepted invalid UTF-8");
    FUZZ_CHECK(t->ids.size() == t->pieces.size(), "ids and pieces differ in size");
    for (size_t i = 0; i < t->ids.size(); ++i) {
        FUZZ_CHECK(t->ids[i] >= 0 && t->ids[i] < vocab.size(), "id out of range at " + std::to_string(i));
        FUZZ_CHECK(!t->pieces[i].empty(), "empty piece at " + std::to_string(i));
    }
    for (int u : t->unknown) {
        FUZZ_CHECK(u >= 0 && static_cast<size_t>(u) < t->ids.size(), "unknown index out of range");
        FUZZ_CHECK(t->ids[static_cast<size_t>(u)] == unk_id, "unknown index does not hold unk_id");
    }
    if (kind == TokenizerKind::character)
        FUZZ_CHECK(t->ids.size() == count_code_points(text), "char tokenizer: one token per code point");

    const std::string back = detokenize(vocab, kind, t->ids, skip_special);
    FUZZ_CHECK(is_valid_utf8(back), "detokenize produced invalid UTF-8");
    // Ids the vocabulary does not hold render as "<?id>", never crash.
    std::vector<int> odd = t->ids;
    odd.push_back(-1);
    odd.push_back(vocab.size());
    (void)detokenize(vocab, kind, odd, skip_special);
}

bool is_code_point_start(std::string_view text, size_t i) {
    return i == text.size() || (static_cast<uint8_t>(text[i]) & 0xC0) != 0x80;
}

// What every subword encoding of valid text must satisfy; returns the encoding's ids.
std::vector<int> check_encoding(const SubwordTokenizer& t, std::string_view text, const SubwordEncoding& e) {
    const Tokenized& tokens = e.tokens;
    FUZZ_CHECK(tokens.ids.size() == tokens.pieces.size() && tokens.ids.size() == e.spans.size(), "sizes differ");
    for (size_t i = 0; i < tokens.ids.size(); ++i) {
        const TextSpan s = e.spans[i];
        FUZZ_CHECK(tokens.ids[i] >= 0 && tokens.ids[i] < t.vocab().size(), "id out of range at " + std::to_string(i));
        FUZZ_CHECK(s.begin <= s.end && s.end <= text.size(), "span outside the text at " + std::to_string(i));
        FUZZ_CHECK(is_code_point_start(text, s.begin) && is_code_point_start(text, s.end), "span cuts a code point");
        if (i > 0) FUZZ_CHECK(s.begin >= e.spans[i - 1].begin, "spans go backwards at " + std::to_string(i));
        if (s.begin < s.end)
            FUZZ_CHECK(tokens.pieces[i] == text.substr(s.begin, s.end - s.begin), "piece is not the text at its span");
        else
            FUZZ_CHECK(tokens.pieces[i] == t.vocab().token(tokens.ids[i]), "an added token's piece is not the token");
    }
    for (int u : tokens.unknown)
        FUZZ_CHECK(u >= 0 && static_cast<size_t>(u) < tokens.ids.size(), "unknown index out of range");
    std::vector<int> odd = tokens.ids;
    odd.push_back(-1);
    odd.push_back(t.vocab().size());
    FUZZ_CHECK(is_valid_utf8(t.decode(odd, false)) && is_valid_utf8(t.decode(odd, true)),
               "decode produced invalid UTF-8");
    return tokens.ids;
}

void fuzz_bpe(const ByteLevelBpeTokenizer& t, std::string_view text) {
    auto e = t.encode(text);
    if (!e) {
        FUZZ_CHECK(!is_valid_utf8(text), "BPE encode failed on valid UTF-8: " + e.error().message);
        check_error(e.error(), "invalid UTF-8");
        return;
    }
    FUZZ_CHECK(is_valid_utf8(text), "BPE encode accepted invalid UTF-8");
    const std::vector<int> ids = check_encoding(t, text, *e);
    FUZZ_CHECK(t.decode(ids, false) == text, "BPE decode(encode(x)) != x");
    FUZZ_CHECK(e->tokens.unknown.empty(), "byte-level BPE reported an unknown token");
}

void fuzz_wordpiece(const WordPieceTokenizer& t, std::string_view text) {
    auto e = t.encode(text);
    if (!e) {
        FUZZ_CHECK(!is_valid_utf8(text), "WordPiece encode failed on valid UTF-8: " + e.error().message);
        check_error(e.error(), "invalid UTF-8");
        return;
    }
    FUZZ_CHECK(is_valid_utf8(text), "WordPiece encode accepted invalid UTF-8");
    const std::vector<int> ids = check_encoding(t, text, *e);
    FUZZ_CHECK(ids.size() >= 2 && ids.front() == t.cls_id() && ids.back() == t.sep_id(), "not [CLS] ... [SEP]");
    for (int u : e->tokens.unknown)
        FUZZ_CHECK(ids[static_cast<size_t>(u)] == t.unk_id(), "unknown index does not hold [UNK]");
}

constexpr std::string_view kSample = "Hello, world! it's 2023 — café 한국어 😀\n\n  <|endoftext|> [MASK]";

void fuzz_bpe_files(std::string_view input) {
    const size_t nul = input.find('\0');
    const std::string_view vocab = input.substr(0, nul);
    const std::string_view merges = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
    auto t = ByteLevelBpeTokenizer::from_files({"vocab.json", vocab}, {"merges.txt", merges});
    if (!t) {
        check_error(t.error(), t.error().message.starts_with("merges.txt") ? "merges.txt line " : "vocab.json: ");
        return;
    }
    fuzz_bpe(*t, kSample);
    fuzz_bpe(*t, vocab.substr(0, 256));
}

void fuzz_wordpiece_file(uint8_t mode, std::string_view input) {
    auto t = WordPieceTokenizer::from_file({"vocab.txt", input}, {.lower_case = (mode & 1) != 0, .strip_accents = {}});
    if (!t) {
        check_error(t.error(), "vocab.txt");
        return;
    }
    fuzz_wordpiece(*t, kSample);
    fuzz_wordpiece(*t, input.substr(0, 256));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    // Harness only (core keeps no statics): built once, shared by every input.
    static const Vocab vocab = make_vocab();
    static const ByteLevelBpeTokenizer bpe = make_bpe();
    static const WordPieceTokenizer uncased = make_wordpiece(true);
    static const WordPieceTokenizer cased = make_wordpiece(false);
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    switch ((data[0] >> 4) % 6) {
        case 0: fuzz_word_or_char(vocab, data[0], rest); break;
        case 1: fuzz_bpe(bpe, rest); break;
        case 2: fuzz_wordpiece(uncased, rest); break;
        case 3: fuzz_wordpiece(cased, rest); break;
        case 4: fuzz_bpe_files(rest); break;
        default: fuzz_wordpiece_file(data[0], rest); break;
    }
    return 0;
}
