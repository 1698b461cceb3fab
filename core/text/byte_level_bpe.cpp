// GPT-2's byte-level BPE: the tables built from the two files, encode and decode.
#include "text/byte_level_bpe.h"

#include "text/bpe_files.h"
#include "text/bpe_word_cache.h"
#include "text/byte_level.h"
#include "text/gpt2_pretokenizer.h"
#include "text/special_token_split.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <array>

namespace attnlab {

namespace {

constexpr std::string_view kEndOfText = "<|endoftext|>";

// The span widened to whole code points of valid UTF-8 `text`.
TextSpan whole_code_points(std::string_view text, TextSpan span) {
    const auto is_continuation = [&](size_t i) { return (static_cast<uint8_t>(text[i]) & 0xC0) == 0x80; };
    while (span.begin > 0 && is_continuation(span.begin)) --span.begin;
    while (span.end < text.size() && is_continuation(span.end)) ++span.end;
    return span;
}

}  // namespace

struct ByteLevelBpeTokenizer::Tables {
    Vocab vocab;
    BpeMergeTable merges;
    std::array<int, 256> byte_ids;         // the token of each single byte
    std::vector<std::string> token_bytes;  // id -> the bytes it stands for
    std::vector<SpecialToken> specials;    // <|endoftext|>, if present
};

ByteLevelBpeTokenizer::ByteLevelBpeTokenizer(std::shared_ptr<const Tables> tables)
    : tables_(std::move(tables)), cache_(std::make_shared<BpeWordCache>()) {}

Result<ByteLevelBpeTokenizer> ByteLevelBpeTokenizer::from_files(const TokenizerFile& vocab_json,
                                                                const TokenizerFile& merges_txt) {
    Result<Vocab> vocab = parse_bpe_vocab(vocab_json);
    if (!vocab) return vocab.error();
    Result<BpeMergeTable> merges = parse_bpe_merges(merges_txt, *vocab, vocab_json.name);
    if (!merges) return merges.error();

    auto tables = std::make_shared<Tables>(Tables{std::move(vocab).value(), std::move(merges).value(), {}, {}, {}});
    for (int b = 0; b < 256; ++b) {
        std::string symbol;
        append_utf8(byte_to_symbol(static_cast<uint8_t>(b)), symbol);
        const std::optional<int> id = tables->vocab.find(symbol);
        if (!id) {
            const char* hex = "0123456789ABCDEF";
            return Error{std::string(vocab_json.name) + ": no token for byte 0x" + hex[b >> 4] + hex[b & 15] + " (" +
                         nlohmann::json(symbol).dump() + "); byte-level BPE needs all 256 bytes"};
        }
        tables->byte_ids[b] = *id;
    }
    tables->token_bytes.reserve(static_cast<size_t>(tables->vocab.size()));
    for (const std::string& token : tables->vocab.tokens()) {
        // A token outside the byte alphabet (none in GPT-2) stands for its own UTF-8, as in Hugging Face's decoder.
        tables->token_bytes.push_back(symbols_to_bytes(token).value_or(token));
    }
    if (const std::optional<int> id = tables->vocab.find(kEndOfText)) {
        tables->specials.push_back({std::string(kEndOfText), *id});
    }
    return ByteLevelBpeTokenizer(std::move(tables));
}

Result<SubwordEncoding> ByteLevelBpeTokenizer::encode(std::string_view text) const {
    if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
    SubwordEncoding out;
    for (const TextSegment& segment : split_special_tokens(text, tables_->specials)) {
        if (segment.special_id) {
            out.append(text, *segment.special_id, segment.span);
            continue;
        }
        const std::string_view plain = text.substr(segment.span.begin, segment.span.end - segment.span.begin);
        for (const TextSpan& word_span : gpt2_pretokenize(plain)) {
            const std::string_view word = plain.substr(word_span.begin, word_span.end - word_span.begin);
            std::optional<std::vector<BpeSymbol>> symbols = cache_->find(word);
            if (!symbols) {
                std::vector<BpeSymbol> bytes;
                bytes.reserve(word.size());
                for (char b : word) bytes.push_back({tables_->byte_ids[static_cast<uint8_t>(b)], 1});
                symbols = bpe_merge(bytes, tables_->merges);
                cache_->insert(word, *symbols);
            }
            size_t at = segment.span.begin + word_span.begin;
            for (const BpeSymbol& s : *symbols) {
                out.append(text, s.id, whole_code_points(text, {at, at + s.n_bytes}));
                at += s.n_bytes;
            }
        }
    }
    return out;
}

std::string ByteLevelBpeTokenizer::decode(const std::vector<int>& ids, bool skip_special) const {
    std::string bytes;
    for (int id : ids) {
        if (id < 0 || id >= tables_->vocab.size()) {
            bytes += "<?" + std::to_string(id) + ">";
        } else if (!(skip_special && id == end_of_text_id())) {
            bytes += tables_->token_bytes[static_cast<size_t>(id)];
        }
    }
    return replace_invalid_utf8(bytes);
}

const Vocab& ByteLevelBpeTokenizer::vocab() const { return tables_->vocab; }

std::optional<int> ByteLevelBpeTokenizer::end_of_text_id() const {
    if (tables_->specials.empty()) return std::nullopt;
    return tables_->specials.front().id;
}

}  // namespace attnlab
