// BERT's WordPiece: greedy longest-match-first over the normalized words, with the source span
// of every token.
#include "text/wordpiece.h"

#include "text/bert_basic_tokenizer.h"
#include "text/special_token_split.h"
#include "text/utf8.h"
#include "text/wordpiece_vocab.h"

#include <algorithm>
#include <array>

namespace attnlab {

namespace {

constexpr std::string_view kContinuation = "##";

// Hugging Face's clean_up_tokenization, in its order.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kCleanUps = {{
    {" .", "."},
    {" ?", "?"},
    {" !", "!"},
    {" ,", ","},
    {" ' ", "'"},
    {" n't", "n't"},
    {" 'm", "'m"},
    {" 's", "'s"},
    {" 've", "'ve"},
    {" 're", "'re"},
}};

void replace_all(std::string& s, std::string_view from, std::string_view to) {
    std::string out;
    size_t done = 0;
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, done)) {
        out.append(s, done, at - done);
        out += to;
        done = at + from.size();
    }
    out.append(s, done);
    s = std::move(out);
}

struct Piece {
    int id;
    size_t first_char, end_char;  // code points of the word
};

// Greedy longest-match-first; empty when some position has no match.
std::vector<Piece> split_word(const BertWord& word, const Vocab& vocab) {
    const auto byte_at = [&](size_t k) { return k == 0 ? size_t{0} : word.char_ends[k - 1]; };
    std::vector<Piece> pieces;
    std::string candidate;
    const size_t n = word.char_ends.size();
    for (size_t start = 0; start < n;) {
        std::optional<int> id;
        size_t end = n;
        for (; end > start; --end) {
            candidate = start > 0 ? kContinuation : "";
            candidate.append(word.text, byte_at(start), byte_at(end) - byte_at(start));
            if ((id = vocab.find(candidate))) break;
        }
        if (!id) return {};
        pieces.push_back({*id, start, end});
        start = end;
    }
    return pieces;
}

// The original text of code points [first, end) of the word: normalization may reorder them.
TextSpan source_of(const BertWord& word, size_t first, size_t end) {
    TextSpan span = word.sources[first];
    for (size_t k = first + 1; k < end; ++k) {
        span.begin = std::min(span.begin, word.sources[k].begin);
        span.end = std::max(span.end, word.sources[k].end);
    }
    return span;
}

}  // namespace

struct WordPieceTokenizer::State {
    Vocab vocab;
    BertNormalization normalization;
    int unk, cls, sep;
    std::optional<int> pad, mask;
    std::vector<SpecialToken> specials;  // those of the five in the vocabulary
};

WordPieceTokenizer::WordPieceTokenizer(std::shared_ptr<const State> state) : state_(std::move(state)) {}

Result<WordPieceTokenizer> WordPieceTokenizer::from_file(const TokenizerFile& vocab_txt,
                                                         const WordPieceOptions& options) {
    Result<Vocab> vocab = parse_wordpiece_vocab(vocab_txt);
    if (!vocab) return vocab.error();
    std::array<std::optional<int>, 5> ids;
    const std::array<std::string_view, 5> names = {"[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"};
    std::vector<SpecialToken> specials;
    for (size_t k = 0; k < names.size(); ++k) {
        ids[k] = vocab->find(names[k]);
        if (ids[k])
            specials.push_back({std::string(names[k]), *ids[k]});
        else if (k < 3)
            return Error{std::string(vocab_txt.name) + ": no " + std::string(names[k]) + " token"};
    }
    const BertNormalization normalization{options.lower_case, options.strip_accents.value_or(options.lower_case)};
    return WordPieceTokenizer(std::make_shared<const State>(State{
        std::move(vocab).value(), normalization, *ids[0], *ids[1], *ids[2], ids[3], ids[4], std::move(specials)}));
}

Result<SubwordEncoding> WordPieceTokenizer::encode(std::string_view text) const {
    if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
    const State& s = *state_;
    SubwordEncoding out;
    out.append_added("[CLS]", s.cls, 0);
    for (const TextSegment& segment : split_special_tokens(text, s.specials)) {
        if (segment.special_id) {
            out.append(text, *segment.special_id, segment.span);
            continue;
        }
        for (const BertWord& word : bert_basic_tokenize(text, segment.span, s.normalization)) {
            const size_t n = word.char_ends.size();
            const std::vector<Piece> pieces = n > kMaxWordChars ? std::vector<Piece>{} : split_word(word, s.vocab);
            if (pieces.empty()) {
                out.tokens.unknown.push_back(static_cast<int>(out.tokens.ids.size()));
                out.append(text, s.unk, source_of(word, 0, n));
            }
            for (const Piece& p : pieces) out.append(text, p.id, source_of(word, p.first_char, p.end_char));
        }
    }
    out.append_added("[SEP]", s.sep, text.size());
    return out;
}

std::string WordPieceTokenizer::decode(const std::vector<int>& ids, bool skip_special) const {
    const State& s = *state_;
    const auto is_special = [&](int id) {
        return id == s.unk || id == s.cls || id == s.sep || id == s.pad || id == s.mask;
    };
    std::string out;
    bool first = true;
    for (int id : ids) {
        const bool known = id >= 0 && id < s.vocab.size();
        if (known && skip_special && is_special(id)) continue;
        const std::string token = known ? s.vocab.token(id) : "<?" + std::to_string(id) + ">";
        if (!first && token.starts_with(kContinuation)) {
            out.append(token, kContinuation.size());
        } else {
            if (!first) out += ' ';
            out += token;
        }
        first = false;
    }
    for (const auto& [from, to] : kCleanUps) replace_all(out, from, to);
    return out;
}

const Vocab& WordPieceTokenizer::vocab() const { return state_->vocab; }
int WordPieceTokenizer::unk_id() const { return state_->unk; }
int WordPieceTokenizer::cls_id() const { return state_->cls; }
int WordPieceTokenizer::sep_id() const { return state_->sep; }
std::optional<int> WordPieceTokenizer::pad_id() const { return state_->pad; }
std::optional<int> WordPieceTokenizer::mask_id() const { return state_->mask; }

}  // namespace attnlab
