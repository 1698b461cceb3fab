// The tokenizer.json BPE pipeline: added tokens, normalizer, pre-tokenizer, merges, template; and the
// decoder steps. Every token keeps the span of the original text it came from (text/normalized_text.h).
#include "text/json_bpe.h"

#include "text/bloom_pretokenizer.h"
#include "text/bpe_merge.h"
#include "text/bpe_word_cache.h"
#include "text/byte_level.h"
#include "text/gpt2_pretokenizer.h"
#include "text/llama3_pretokenizer.h"
#include "text/normalized_text.h"
#include "text/precompiled_charsmap.h"
#include "text/special_token_split.h"
#include "text/tokenizer_json.h"
#include "text/unicode_category.h"
#include "text/unigram_model.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace attnlab {

namespace {

bool is_continuation(char b) { return (static_cast<uint8_t>(b) & 0xC0) == 0x80; }

// Where the run of white space that ends at byte `end` of valid UTF-8 `text` starts, not before `limit`.
size_t white_space_start(std::string_view text, size_t end, size_t limit) {
    while (end > limit) {
        size_t begin = end - 1;
        while (begin > limit && is_continuation(text[begin])) --begin;
        size_t i = begin;
        if (!is_white_space(next_code_point(text, &i))) break;
        end = begin;
    }
    return end;
}

// Where the run of white space that starts at byte `begin` ends, not after `limit`.
size_t white_space_end(std::string_view text, size_t begin, size_t limit) {
    while (begin < limit) {
        size_t next = begin;
        if (!is_white_space(next_code_point(text, &next))) break;
        begin = next;
    }
    return begin;
}

// The text cut at `tokens` (leftmost-longest, text/special_token_split.h), each token widened over the
// white space before it (lstrip) and after it (rstrip) as far as the plain text around it goes.
std::vector<TextSegment> split_added(std::string_view text, const std::vector<SpecialToken>& tokens,
                                     const std::vector<const JsonAddedToken*>& added_by_id) {
    std::vector<TextSegment> segments = split_special_tokens(text, tokens);
    for (size_t k = 0; k < segments.size(); ++k) {
        if (!segments[k].special_id) continue;
        const JsonAddedToken& token = *added_by_id[static_cast<size_t>(*segments[k].special_id)];
        TextSpan& span = segments[k].span;
        if (token.lstrip && k > 0 && !segments[k - 1].special_id) {
            span.begin = white_space_start(text, span.begin, segments[k - 1].span.begin);
            segments[k - 1].span.end = span.begin;
        }
        if (token.rstrip && k + 1 < segments.size() && !segments[k + 1].special_id) {
            span.end = white_space_end(text, span.end, segments[k + 1].span.end);
            segments[k + 1].span.begin = span.end;
        }
    }
    std::erase_if(segments, [](const TextSegment& s) { return s.span.begin == s.span.end; });
    return segments;
}

// Strip: the white space at the start and/or at the end of the text goes.
NormalizedText strip(const NormalizedText& in, bool left, bool right) {
    const size_t begin = left ? white_space_end(in.text, 0, in.text.size()) : 0;
    const size_t end = right ? white_space_start(in.text, in.text.size(), begin) : in.text.size();
    return in.slice({begin, end});
}

// Replace(Regex " {2,}", to): each run of two or more spaces becomes `to`, standing for the run.
NormalizedText collapse_spaces(const NormalizedText& in, std::string_view to) {
    NormalizedText out;
    for (size_t i = 0; i < in.text.size();) {
        size_t end = i;
        while (end < in.text.size() && in.text[end] == ' ') ++end;
        if (end - i >= 2) {
            out.text += to;
            out.source.insert(out.source.end(), to.size(), in.source_of({i, end}));
            i = end;
        } else {
            out.text += in.text[i];
            out.source.push_back(in.source[i]);
            ++i;
        }
    }
    return out;
}

NormalizedText normalize(NormalizedText text, const std::vector<NormalizerStep>& steps) {
    for (const NormalizerStep& step : steps) {
        switch (step.kind) {
            case NormalizerStep::Kind::nfc: text = nfc(text); break;
            case NormalizerStep::Kind::prepend: text = prepend(text, step.content); break;
            case NormalizerStep::Kind::replace: text = replace_all(text, step.pattern, step.content); break;
            case NormalizerStep::Kind::precompiled: text = precompiled_normalize(text, *step.charsmap); break;
            case NormalizerStep::Kind::strip: text = strip(text, step.strip_left, step.strip_right); break;
            case NormalizerStep::Kind::collapse_spaces: text = collapse_spaces(text, step.content); break;
        }
    }
    return text;
}

// WhitespaceSplit: the runs of characters between white space.
std::vector<TextSpan> split_at_white_space(std::string_view text) {
    std::vector<TextSpan> spans;
    for (size_t i = 0; i < text.size();) {
        const size_t begin = white_space_end(text, i, text.size());
        size_t end = begin;
        while (end < text.size()) {
            size_t next = end;
            if (is_white_space(next_code_point(text, &next))) break;
            end = next;
        }
        if (end > begin) spans.push_back({begin, end});
        i = end;
    }
    return spans;
}

// Digits: each run of numbers (\p{N}), or each number alone, a word; the text between them too.
std::vector<TextSpan> digits_split(std::string_view text, bool single) {
    std::vector<TextSpan> spans;
    bool last_was_number = false;
    for (size_t i = 0; i < text.size();) {
        const size_t begin = i;
        const bool number = char_category(next_code_point(text, &i)) == CharCategory::number;
        if (spans.empty() || number != last_was_number || (number && single)) {
            spans.push_back({begin, i});
        } else {
            spans.back().end = i;
        }
        last_was_number = number;
    }
    return spans;
}

// Metaspace's split: a new word starts at each `mark` ("▁Hey▁friend" -> "▁Hey", "▁friend").
std::vector<TextSpan> split_before(std::string_view text, std::string_view mark) {
    std::vector<TextSpan> spans;
    size_t begin = 0;
    for (size_t at = text.find(mark, 1); at != std::string_view::npos; at = text.find(mark, at + mark.size())) {
        spans.push_back({begin, at});
        begin = at;
    }
    if (begin < text.size()) spans.push_back({begin, text.size()});
    return spans;
}

std::vector<TextSpan> split_words(std::string_view text, WordSplit split) {
    switch (split) {
        case WordSplit::gpt2: return gpt2_pretokenize(text);
        case WordSplit::llama3: return llama3_pretokenize(text, 3);
        case WordSplit::qwen2: return llama3_pretokenize(text, 1);
        case WordSplit::bloom: return bloom_pretokenize(text);
        case WordSplit::digits: return digits_split(text, false);
        case WordSplit::single_digits: return digits_split(text, true);
    }
    return {};
}

std::string replace_in(std::string s, std::string_view from, std::string_view to) {  // every `from` made `to`
    for (size_t at = s.find(from); !from.empty() && at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::optional<uint8_t> byte_fallback_value(std::string_view token) {  // "<0x41>" -> 0x41
    if (token.size() != 6 || !token.starts_with("<0x") || token.back() != '>') return std::nullopt;
    int value = 0;
    for (char c : token.substr(3, 2)) {
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                 : -1;
        if (digit < 0) return std::nullopt;
        value = value * 16 + digit;
    }
    return static_cast<uint8_t>(value);
}

// One decoder step over the tokens' strings, as Hugging Face's decode_chain runs it.
std::vector<std::string> decoder_step(const DecoderStep& step, std::vector<std::string> tokens) {
    std::vector<std::string> out;
    switch (step.kind) {
        case DecoderStep::Kind::metaspace:  // every replacement a space, or nothing in the first token
            for (size_t i = 0; i < tokens.size(); ++i)
                out.push_back(replace_in(std::move(tokens[i]), step.content, i == 0 && step.start == 1 ? "" : " "));
            break;
        case DecoderStep::Kind::byte_level: {  // a token outside the byte alphabet stands for its own UTF-8
            std::string bytes;
            for (const std::string& t : tokens) bytes += symbols_to_bytes(t).value_or(t);
            out.push_back(replace_invalid_utf8(bytes));
            break;
        }
        case DecoderStep::Kind::replace:
            for (std::string& t : tokens) out.push_back(replace_in(std::move(t), step.pattern, step.content));
            break;
        case DecoderStep::Kind::byte_fallback: {  // a run of <0xXX> is its bytes, or one U+FFFD each if not UTF-8
            std::string run;
            size_t run_tokens = 0;
            const auto flush = [&] {
                if (run_tokens == 0) return;
                if (is_valid_utf8(run)) {
                    out.push_back(run);
                } else {
                    out.insert(out.end(), run_tokens, "\xEF\xBF\xBD");
                }
                run.clear();
                run_tokens = 0;
            };
            for (std::string& t : tokens) {
                if (const std::optional<uint8_t> b = byte_fallback_value(t)) {
                    run += static_cast<char>(*b);
                    ++run_tokens;
                } else {
                    flush();
                    out.push_back(std::move(t));
                }
            }
            flush();
            break;
        }
        case DecoderStep::Kind::fuse: {
            std::string joined;
            for (const std::string& t : tokens) joined += t;
            out.push_back(std::move(joined));
            break;
        }
        case DecoderStep::Kind::strip:
            for (std::string& t : tokens) {
                std::string_view kept = t;
                for (int n = 0; n < step.start && kept.starts_with(step.content); ++n)
                    kept.remove_prefix(step.content.size());
                for (int n = 0; n < step.stop && kept.ends_with(step.content); ++n)
                    kept.remove_suffix(step.content.size());
                out.emplace_back(kept);
            }
            break;
    }
    return out;
}

}  // namespace

struct JsonBpeTokenizer::Tables {
    TokenizerJson json;
    std::vector<SpecialToken> raw_added;             // added tokens matched in the raw text
    std::vector<SpecialToken> normalized_added;      // ... and in the normalized text
    std::vector<const JsonAddedToken*> added_by_id;  // (V): each id's added token, or nullptr

    bool byte_level() const { return !json.unigram && json.layout == BpeLayout::byte_level; }
};

JsonBpeTokenizer::JsonBpeTokenizer(std::shared_ptr<const Tables> tables)
    : tables_(std::move(tables)), cache_(std::make_shared<BpeWordCache>()) {}

Result<JsonBpeTokenizer> JsonBpeTokenizer::from_json(const TokenizerFile& tokenizer_json) {
    Result<TokenizerJson> json = read_tokenizer_json(tokenizer_json);
    if (!json) return json.error();
    auto tables = std::make_shared<Tables>();
    tables->json = std::move(*json);
    const Vocab& vocab = tables->json.vocab;
    tables->added_by_id.assign(static_cast<size_t>(vocab.size()), nullptr);
    for (const JsonAddedToken& t : tables->json.added_tokens) {
        if (t.normalized) {  // Hugging Face would match it as the normalizer writes it, and decode it so too
            const std::string_view content = t.content;
            const std::string normalized =
                normalize(NormalizedText::identity(content, {0, content.size()}), tables->json.normalizer).text;
            if (normalized != content)
                return Error{std::string(tokenizer_json.name) + ": added token " + nlohmann::json(t.content).dump() +
                             " is normalized (\"normalized\": true) and the normalizer makes it " +
                             nlohmann::json(normalized).dump() + "; not supported"};
        }
        tables->added_by_id[static_cast<size_t>(t.id)] = &t;
        (t.normalized ? tables->normalized_added : tables->raw_added).push_back({t.content, t.id});
    }
    return JsonBpeTokenizer(std::move(tables));
}

// A word's symbols after merging: one per token, with the bytes of the word it covers.
std::vector<BpeSymbol> JsonBpeTokenizer::word_symbols(std::string_view word) const {
    const Tables& t = *tables_;
    const Vocab& vocab = t.json.vocab;
    if (t.json.ignore_merges) {
        std::string as_token;  // the word as the vocabulary writes it
        if (t.byte_level()) {
            for (char b : word) append_utf8(byte_to_symbol(static_cast<uint8_t>(b)), as_token);
        } else {
            as_token = word;
        }
        if (const std::optional<int> id = vocab.find(as_token)) return {{*id, static_cast<uint32_t>(word.size())}};
    }
    if (std::optional<std::vector<BpeSymbol>> cached = cache_->find(word)) return std::move(*cached);

    std::vector<BpeSymbol> symbols;
    if (t.json.unigram) {
        for (const UnigramToken& token : t.json.unigram->encode(word)) symbols.push_back({token.id, token.n_bytes});
        cache_->insert(word, symbols);
        return symbols;
    }
    symbols.reserve(word.size());
    for (size_t i = 0; i < word.size();) {
        const size_t begin = i;
        if (t.byte_level()) {
            ++i;
        } else {
            next_code_point(word, &i);
            if (const std::optional<int> id = vocab.find(word.substr(begin, i - begin))) {
                symbols.push_back({*id, static_cast<uint32_t>(i - begin)});
                continue;
            }
        }
        for (size_t b = begin; b < i; ++b) symbols.push_back({t.json.byte_ids[static_cast<uint8_t>(word[b])], 1});
    }
    symbols = bpe_merge(symbols, t.json.merges);
    cache_->insert(word, symbols);
    return symbols;
}

Result<SubwordEncoding> JsonBpeTokenizer::encode(std::string_view text) const {
    if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
    const Tables& t = *tables_;
    SubwordEncoding out;
    // A token of normalized text: its span is the original text it came from, or, when a normalizer
    // made it up (a lone prepended "▁"), empty with the token itself as its piece.
    const auto append = [&](const NormalizedText& from, int id, TextSpan span) {
        const TextSpan source = from.source_of(span);
        if (source.begin == source.end) {
            out.append_added(t.json.vocab.token(id), id, source.begin);
        } else {
            out.append(text, id, source);
        }
    };
    // The words of one piece between added tokens, each merged into tokens.
    // A word of WhitespaceSplit (or the whole piece) through Metaspace and the splits, each word merged.
    const auto encode_chunk = [&](NormalizedText piece, bool starts_text) {
        if (const std::optional<MetaspaceStep>& m = t.json.metaspace) {
            piece = replace_all(piece, " ", m->replacement);
            const bool prepend_here = m->prepend == MetaspaceStep::Prepend::always ||
                                      (m->prepend == MetaspaceStep::Prepend::first && starts_text);
            if (prepend_here && !piece.text.starts_with(m->replacement)) piece = prepend(piece, m->replacement);
        }
        std::vector<TextSpan> words = {{0, piece.text.size()}};
        if (t.json.metaspace && t.json.metaspace->split)
            words = split_before(piece.text, t.json.metaspace->replacement);
        for (const WordSplit split : t.json.splits) {
            std::vector<TextSpan> finer;
            for (const TextSpan& w : words) {
                for (const TextSpan& s :
                     split_words(std::string_view(piece.text).substr(w.begin, w.end - w.begin), split))
                    finer.push_back({w.begin + s.begin, w.begin + s.end});
            }
            words = std::move(finer);
        }
        for (const TextSpan& w : words) {
            size_t at = w.begin;
            for (const BpeSymbol& s : word_symbols(std::string_view(piece.text).substr(w.begin, w.end - w.begin))) {
                if (t.json.unigram && s.id == t.json.unigram->unk_id())  // characters no piece covers
                    out.tokens.unknown.push_back(static_cast<int>(out.tokens.ids.size()));
                append(piece, s.id, {at, at + s.n_bytes});
                at += s.n_bytes;
            }
        }
    };
    const auto encode_piece = [&](const NormalizedText& piece, bool starts_text) {
        if (!t.json.whitespace_split) return encode_chunk(piece, starts_text);
        for (const TextSpan& w : split_at_white_space(piece.text))
            encode_chunk(piece.slice(w), starts_text && w.begin == 0);
    };

    for (const TemplateToken& added : t.json.before_text) out.append_added(added.token, added.id, 0);
    for (const TextSegment& raw : split_added(text, t.raw_added, t.added_by_id)) {
        if (raw.special_id) {
            out.append(text, *raw.special_id, raw.span);
            continue;
        }
        const NormalizedText normalized = normalize(NormalizedText::identity(text, raw.span), t.json.normalizer);
        for (const TextSegment& part : split_added(normalized.text, t.normalized_added, t.added_by_id)) {
            if (part.special_id) {
                append(normalized, *part.special_id, part.span);
            } else {
                encode_piece(normalized.slice(part.span), raw.span.begin == 0 && part.span.begin == 0);
            }
        }
    }
    for (const TemplateToken& added : t.json.after_text) out.append_added(added.token, added.id, text.size());
    return out;
}

std::string JsonBpeTokenizer::decode(const std::vector<int>& ids, bool skip_special) const {
    const Tables& t = *tables_;
    std::vector<std::string> tokens;
    for (int id : ids) {
        if (id < 0 || id >= t.json.vocab.size()) {
            tokens.push_back("<?" + std::to_string(id) + ">");
        } else if (const JsonAddedToken* added = t.added_by_id[static_cast<size_t>(id)];
                   !(skip_special && added != nullptr && added->special)) {
            tokens.push_back(t.json.vocab.token(id));
        }
    }
    for (const DecoderStep& step : t.json.decoder) tokens = decoder_step(step, std::move(tokens));
    std::string out;
    for (const std::string& token : tokens) out += token;
    return replace_invalid_utf8(out);
}

const Vocab& JsonBpeTokenizer::vocab() const { return tables_->json.vocab; }

const char* JsonBpeTokenizer::name() const {
    if (tables_->json.unigram) return "Unigram (tokenizer.json)";
    return tables_->byte_level() ? "byte-level BPE (tokenizer.json)" : "BPE with byte fallback (tokenizer.json)";
}

std::optional<int> JsonBpeTokenizer::bos_id() const {
    if (tables_->json.before_text.empty()) return std::nullopt;
    return tables_->json.before_text.front().id;
}

}  // namespace attnlab
