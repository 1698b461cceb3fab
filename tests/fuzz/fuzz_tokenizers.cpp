// libFuzzer target: every tokenizer and the Hugging Face tokenizer files.
// Input: the first byte's high nibble picks what is fuzzed (mod 8), the rest is the text or file:
//   0  word / char tokenizer (low bit 0: word, 1: char; bit 1: skip_special) over a small vocabulary
//   1  GPT-2 byte-level BPE encode/decode with fixed vocab.json + merges.txt
//   2  BERT WordPiece, lower-cased; 3  BERT WordPiece, cased
//   4  vocab.json and merges.txt parsed (split at the first NUL byte), then used
//   5  vocab.txt parsed (low bit: lower-case), then used
//   6  tokenizer.json parsed, then used
//   7  a fixed tokenizer.json (low nibble mod 7: the BPE layouts of Llama 3, Qwen2, GPT-2, SmolLM2, Llama 2,
//      Mistral, then T5's Unigram with byte fallback)
// Properties: errors only on invalid UTF-8 text or bad files, and then one line of valid UTF-8
// naming the file; ids in range; pieces are the text at their spans (an added token's own text at
// an empty span); spans are whole code points in order; GPT-2's decode(encode(x)) == x, and a
// byte-level tokenizer.json's without its template tokens; WordPiece's [CLS] first and [SEP] last;
// decode always returns valid UTF-8.
#include "fuzz_common.h"
#include "fuzz_subword_checks.h"
#include "text/byte_level.h"
#include "text/byte_level_bpe.h"
#include "text/json_bpe.h"
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocab.h"
#include "text/wordpiece.h"

#include <nlohmann/json.hpp>

#include <array>
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

// The tokenizer.json layouts of tests/fixtures/tokenizers/json_bpe (0 Llama 3, 1 Qwen2, 2 GPT-2,
// 3 SmolLM2, 4 Llama 2, 5 Mistral), each with a few merges over English, spaces, Hangul and emoji
// bytes (byte-level) or characters (byte fallback), and three added tokens.
std::string make_tokenizer_json(int layout) {
    using nlohmann::json;
    const bool byte_level = layout < 4;
    std::vector<std::string> tokens;
    if (byte_level) {
        for (int b = 0; b < 256; ++b) tokens.push_back(symbol_of(static_cast<uint8_t>(b)));
    } else {
        tokens = {"<unk>", "<s>", "</s>"};
        const char* hex = "0123456789ABCDEF";
        for (int b = 0; b < 256; ++b) tokens.push_back(std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">");
        for (const char* c : {"▁", "t", "h", "e", "l", "o", "한", "국", "1", "2"}) tokens.emplace_back(c);
    }
    const std::vector<std::pair<std::string, std::string>> merges =
        byte_level ? std::vector<std::pair<std::string, std::string>>{{"Ġ", "t"}, {"Ġt", "h"}, {"Ġth", "e"}, {"t", "h"},
                                                                      {"Ċ", "Ċ"}, {"ì", "ķ"},  {"1", "2"},   {"ð", "Ł"}}
                   : std::vector<std::pair<std::string, std::string>>{
                         {"▁", "t"}, {"▁t", "h"}, {"▁th", "e"}, {"h", "e"}, {"l", "l"}, {"한", "국"}, {"1", "2"}};
    json vocab = json::object();
    for (size_t i = 0; i < tokens.size(); ++i) vocab[tokens[i]] = i;
    json merge_list = json::array();
    for (const auto& [a, b] : merges) {
        if (!vocab.contains(a + b)) vocab[a + b] = vocab.size();
        merge_list.push_back(a + " " + b);
    }
    const int first_added = static_cast<int>(vocab.size());
    const std::string llama3 =
        R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
    const json byte_level_step = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}};
    json file = {
        {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merge_list}, {"byte_fallback", !byte_level}}},
        // Tokens that take white space (rstrip, lstrip) only where decode does not give the text back anyway.
        {"added_tokens",
         json::array(
             {{{"id", first_added}, {"content", "<|endoftext|>"}, {"special", true}},
              {{"id", first_added + 1}, {"content", "<|im_start|>"}, {"normalized", false}, {"rstrip", !byte_level}},
              {{"id", first_added + 2}, {"content", "[MASK]"}, {"normalized", byte_level}, {"lstrip", !byte_level}}})},
        {"decoder", {{"type", "ByteLevel"}}}};
    switch (layout) {
        case 0:  // Llama 3: Split + ByteLevel, ignore_merges, <|endoftext|> first
            file["pre_tokenizer"] = {
                {"type", "Sequence"},
                {"pretokenizers",
                 {{{"type", "Split"}, {"pattern", {{"Regex", llama3}}}, {"behavior", "Isolated"}}, byte_level_step}}};
            file["model"]["ignore_merges"] = true;
            file["post_processor"] = {
                {"type", "TemplateProcessing"},
                {"single", {{{"SpecialToken", {{"id", "<|endoftext|>"}}}}, {{"Sequence", {{"id", "A"}}}}}},
                {"special_tokens", {{"<|endoftext|>", {{"ids", {first_added}}, {"tokens", {"<|endoftext|>"}}}}}}};
            break;
        case 1:  // Qwen2: NFC, Split with single digits
            file["normalizer"] = {{"type", "NFC"}};
            file["pre_tokenizer"] = {
                {"type", "Sequence"},
                {"pretokenizers",
                 {{{"type", "Split"},
                   {"pattern", {{"Regex", std::string(llama3).replace(llama3.find("{1,3}"), 5, "")}}},
                   {"behavior", "Isolated"}},
                  byte_level_step}}};
            break;
        case 2: file["pre_tokenizer"] = {{"type", "ByteLevel"}, {"add_prefix_space", false}}; break;  // GPT-2
        case 3:  // SmolLM2: Digits + ByteLevel with GPT-2's regex
            file["pre_tokenizer"] = {{"type", "Sequence"},
                                     {"pretokenizers",
                                      {{{"type", "Digits"}, {"individual_digits", true}},
                                       {{"type", "ByteLevel"}, {"add_prefix_space", false}}}}};
            break;
        default:  // Llama 2 (Prepend + Replace) or Mistral (Metaspace), <s> first
            if (layout == 4) {
                file["normalizer"] = {{"type", "Sequence"},
                                      {"normalizers",
                                       {{{"type", "Prepend"}, {"prepend", "▁"}},
                                        {{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", "▁"}}}}};
            } else {
                file["pre_tokenizer"] = {
                    {"type", "Metaspace"}, {"replacement", "▁"}, {"prepend_scheme", "first"}, {"split", false}};
            }
            file["decoder"] = {{"type", "Sequence"},
                               {"decoders",
                                {{{"type", "Replace"}, {"pattern", {{"String", "▁"}}}, {"content", " "}},
                                 {{"type", "ByteFallback"}},
                                 {{"type", "Fuse"}},
                                 {{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}}}};
            file["post_processor"] = {{"type", "TemplateProcessing"},
                                      {"single", {{{"SpecialToken", {{"id", "<s>"}}}}, {{"Sequence", {{"id", "A"}}}}}},
                                      {"special_tokens", {{"<s>", {{"ids", {1}}, {"tokens", {"<s>"}}}}}}};
            break;
    }
    return file.dump();
}

// T5's Unigram layout (tests/fixtures/tokenizers/unigram/t5.json without its charsmap): scored pieces over
// English, Hangul and digits, <0xXX> pieces for byte fallback, WhitespaceSplit then Metaspace, "$A </s>".
std::string make_unigram_json() {
    using nlohmann::json;
    json pieces = json::array({json::array({"<pad>", 0.0}), json::array({"</s>", 0.0}), json::array({"<unk>", 0.0})});
    for (const auto& [piece, score] : std::vector<std::pair<std::string, double>>{{"▁", -2.0},
                                                                                  {"▁the", -3.0},
                                                                                  {"▁t", -3.5},
                                                                                  {"t", -4.0},
                                                                                  {"h", -4.0},
                                                                                  {"e", -4.0},
                                                                                  {"he", -4.5},
                                                                                  {"한", -5.0},
                                                                                  {"국", -5.0},
                                                                                  {"한국", -6.0},
                                                                                  {"1", -5.0},
                                                                                  {"12", -6.0},
                                                                                  {"▁a", -4.0},
                                                                                  {"a", -4.5}})
        pieces.push_back(json::array({piece, score}));
    const char* hex = "0123456789ABCDEF";
    for (int b = 0; b < 256; b += 3)  // every third byte: a run with a byte missing stays <unk>
        pieces.push_back(json::array({std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">", -8.0}));
    const json metaspace = {{"type", "Metaspace"}, {"replacement", "▁"}, {"prepend_scheme", "always"}, {"split", true}};
    const json file = {
        {"model", {{"type", "Unigram"}, {"unk_id", 2}, {"vocab", pieces}, {"byte_fallback", true}}},
        {"added_tokens", json::array({{{"id", 0}, {"content", "<pad>"}, {"special", true}},
                                      {{"id", 1}, {"content", "</s>"}, {"special", true}},
                                      {{"id", 2}, {"content", "<unk>"}, {"special", true}}})},
        {"normalizer",
         {{"type", "Sequence"},
          {"normalizers",
           {{{"type", "Strip"}, {"strip_left", false}, {"strip_right", true}},
            {{"type", "Replace"}, {"pattern", {{"Regex", " {2,}"}}}, {"content", "▁"}}}}}},
        {"pre_tokenizer", {{"type", "Sequence"}, {"pretokenizers", {{{"type", "WhitespaceSplit"}}, metaspace}}}},
        {"post_processor",
         {{"type", "TemplateProcessing"},
          {"single", {{{"Sequence", {{"id", "A"}}}}, {{"SpecialToken", {{"id", "</s>"}}}}}},
          {"special_tokens", {{"</s>", {{"ids", {1}}, {"tokens", {"</s>"}}}}}}}},
        {"decoder", metaspace}};
    return file.dump();
}

JsonBpeTokenizer make_json_bpe(int layout) {
    const std::string file = layout == 6 ? make_unigram_json() : make_tokenizer_json(layout);
    auto t = JsonBpeTokenizer::from_json({"tokenizer.json", file});
    if (!t) {
        std::fprintf(stderr, "fuzz_tokenizers: fixed tokenizer.json %d rejected: %s\n", layout,
                     t.error().message.c_str());
        std::abort();
    }
    return std::move(*t);
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

void fuzz_bpe(const ByteLevelBpeTokenizer& t, std::string_view text) {
    const auto e = encode_checked(t, text, "BPE");
    if (!e) return;
    const std::vector<int>& ids = e->tokens.ids;
    FUZZ_CHECK(t.decode(ids, false) == text, "BPE decode(encode(x)) != x");
    FUZZ_CHECK(e->tokens.unknown.empty(), "byte-level BPE reported an unknown token");
}

// Byte-level layouts without a normalizer give the text back, less the template's tokens.
void fuzz_json_bpe(const JsonBpeTokenizer& t, std::string_view text, bool round_trips) {
    const auto e = encode_checked(t, text, "tokenizer.json");
    if (!e) return;
    const std::vector<int>& ids = e->tokens.ids;
    for (int u : e->tokens.unknown)  // only a Unigram model's characters no piece covers
        FUZZ_CHECK(t.vocab().token(ids[static_cast<size_t>(u)]) == "<unk>", "an unknown token is not <unk>");
    if (round_trips) {
        std::vector<int> plain;  // without the template's <|endoftext|>, whose span is empty
        for (size_t i = 0; i < ids.size(); ++i)
            if (e->spans[i].begin < e->spans[i].end || t.vocab().token(ids[i]) != "<|endoftext|>")
                plain.push_back(ids[i]);
        FUZZ_CHECK(t.decode(plain, false) == text, "tokenizer.json decode(encode(x)) != x");
    }
}

void fuzz_wordpiece(const WordPieceTokenizer& t, std::string_view text) {
    const auto e = encode_checked(t, text, "WordPiece");
    if (!e) return;
    const std::vector<int>& ids = e->tokens.ids;
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

void fuzz_tokenizer_json(std::string_view input) {
    auto t = JsonBpeTokenizer::from_json({"tokenizer.json", input});
    if (!t) {
        check_error(t.error(), "tokenizer.json: ");
        return;
    }
    fuzz_json_bpe(*t, kSample, false);
    fuzz_json_bpe(*t, input.substr(0, 256), false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    // Harness only (core keeps no statics): built once, shared by every input.
    static const Vocab vocab = make_vocab();
    static const ByteLevelBpeTokenizer bpe = make_bpe();
    static const WordPieceTokenizer uncased = make_wordpiece(true);
    static const WordPieceTokenizer cased = make_wordpiece(false);
    static const std::array<JsonBpeTokenizer, 7> json_bpe = {make_json_bpe(0), make_json_bpe(1), make_json_bpe(2),
                                                             make_json_bpe(3), make_json_bpe(4), make_json_bpe(5),
                                                             make_json_bpe(6)};
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    switch ((data[0] >> 4) % 8) {
        case 0: fuzz_word_or_char(vocab, data[0], rest); break;
        case 1: fuzz_bpe(bpe, rest); break;
        case 2: fuzz_wordpiece(uncased, rest); break;
        case 3: fuzz_wordpiece(cased, rest); break;
        case 4: fuzz_bpe_files(rest); break;
        case 5: fuzz_wordpiece_file(data[0], rest); break;
        case 6: fuzz_tokenizer_json(rest); break;
        default: {
            const int layout = (data[0] & 0x0F) % 7;
            fuzz_json_bpe(json_bpe[static_cast<size_t>(layout)], rest, layout <= 3 && layout != 1);
            break;
        }
    }
    return 0;
}
