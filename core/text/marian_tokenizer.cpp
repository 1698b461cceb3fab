// MarianTokenizer's steps around its two SentencePiece models: special tokens, language codes, vocab.json
// ids, </s>; and convert_tokens_to_string for decoding.
#include "text/marian_tokenizer.h"

#include "text/unicode_category.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

// Every match of ">>.+<<" in `text`, as Python's re finds them left to right: at the first ">>" from
// which one can be made, the longest (up to the last "<<" before a newline, at least one character after
// the ">>").
std::vector<TextSpan> language_codes(std::string_view text) {
    std::vector<TextSpan> found;
    for (size_t from = 0;;) {
        const size_t open = text.find(">>", from);
        if (open == std::string_view::npos) break;
        const size_t line_end = std::min(text.find('\n', open + 2), text.size());
        const size_t close = line_end >= open + 5 ? text.rfind("<<", line_end - 2) : std::string_view::npos;
        if (close == std::string_view::npos || close < open + 3) {
            from = open + 1;
            continue;
        }
        found.push_back({open, close + 2});
        from = close + 2;
    }
    return found;
}

// Python's str.isspace: White_Space, and U+001C..U+001F.
bool is_python_space(char32_t c) { return is_white_space(c) || (c >= 0x1C && c <= 0x1F); }

// Python's str.strip() of valid UTF-8.
std::string_view strip(std::string_view s) {
    size_t begin = 0;
    while (begin < s.size()) {
        size_t next = begin;
        if (!is_python_space(next_code_point(s, &next))) break;
        begin = next;
    }
    size_t end = s.size();
    while (end > begin) {
        size_t start = end - 1;
        while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        size_t at = start;
        if (!is_python_space(next_code_point(s, &at))) break;
        end = start;
    }
    return s.substr(begin, end - begin);
}

// vocab.json: {"piece": id, ...}, the ids 0..V-1 each once.
Result<Vocab> read_vocab_json(const TokenizerFile& file) {
    const std::string name(file.name);
    const nlohmann::json doc = nlohmann::json::parse(file.text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object() || doc.empty())
        return Error{name + ": not a JSON object of tokens and their ids"};
    std::vector<std::string> tokens(doc.size());
    for (const auto& [token, value] : doc.items()) {
        const std::string shown = nlohmann::json(token).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (!value.is_number_unsigned() || value.get<uint64_t>() >= doc.size())
            return Error{name + ": the id of " + shown + " is " +
                         value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                         "; expected a whole number in 0.." + std::to_string(doc.size() - 1)};
        std::string& slot = tokens[value.get<size_t>()];
        if (!slot.empty())
            return Error{name + ": " + shown + " and " + nlohmann::json(slot).dump() + " have the same id " +
                         std::to_string(value.get<size_t>())};
        slot = token;
    }
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    if (!vocab) return Error{name + ": " + vocab.error().message};
    return vocab;
}

}  // namespace

struct MarianTokenizer::Tables {
    SentencePieceModel source, target;
    Vocab vocab;
    std::string source_name, target_name;  // name()
    int eos = 0, unk = 0, pad = 0;
    std::vector<SpecialToken> specials;  // </s>, <unk>, <pad>, matched in the text
};

MarianTokenizer::MarianTokenizer(std::shared_ptr<const Tables> tables, bool target)
    : tables_(std::move(tables)), target_(target) {}

Result<MarianTokenizer> MarianTokenizer::from_files(const TokenizerFile& source_spm, const TokenizerFile& target_spm,
                                                    const TokenizerFile& vocab_json) {
    Result<SentencePieceModel> source = SentencePieceModel::from_bytes(source_spm);
    if (!source) return source.error();
    Result<SentencePieceModel> target = SentencePieceModel::from_bytes(target_spm);
    if (!target) return target.error();
    Result<Vocab> vocab = read_vocab_json(vocab_json);
    if (!vocab) return vocab.error();
    int ids[3] = {};
    const char* names[3] = {"</s>", "<unk>", "<pad>"};
    for (int k = 0; k < 3; ++k) {
        const std::optional<int> id = vocab->find(names[k]);
        if (!id) return Error{std::string(vocab_json.name) + ": has no " + names[k] + ", which Marian needs"};
        ids[k] = *id;
    }
    auto tables = std::make_shared<Tables>(Tables{std::move(*source),
                                                  std::move(*target),
                                                  std::move(*vocab),
                                                  "SentencePiece (source.spm + vocab.json)",
                                                  "SentencePiece (target.spm + vocab.json)",
                                                  ids[0],
                                                  ids[1],
                                                  ids[2],
                                                  {}});
    for (int k = 0; k < 3; ++k) tables->specials.push_back({names[k], ids[k]});
    return MarianTokenizer(std::move(tables), false);
}

MarianTokenizer MarianTokenizer::target_side() const { return MarianTokenizer(tables_, true); }

const SentencePieceModel& MarianTokenizer::encoder() const { return target_ ? tables_->target : tables_->source; }

Result<SubwordEncoding> MarianTokenizer::encode(std::string_view text) const {
    if (!is_valid_utf8(text)) return split_code_points(text).error();  // names the offset
    const Tables& t = *tables_;
    SubwordEncoding out;
    // A token vocab.json may lack: <unk>'s id then, and listed as unknown.
    const auto append_token = [&](const std::string& token, TextSpan span) {
        const std::optional<int> id = t.vocab.find(token);
        if (!id) out.tokens.unknown.push_back(static_cast<int>(out.tokens.ids.size()));
        if (span.begin == span.end) {
            out.append_added(token, id.value_or(t.unk), span.begin);
        } else {
            out.append(text, id.value_or(t.unk), span);
        }
    };
    for (const TextSegment& segment : split_special_tokens(text, t.specials)) {
        if (segment.special_id) {
            out.append(text, *segment.special_id, segment.span);
            continue;
        }
        const std::string_view piece = text.substr(segment.span.begin, segment.span.end - segment.span.begin);
        const std::vector<TextSpan> codes = language_codes(piece);
        if (!codes.empty() && codes.front().begin == 0)
            append_token(std::string(piece.substr(0, codes.front().end)),
                         {segment.span.begin, segment.span.begin + codes.front().end});
        // The piece without its codes, and where in the text each of its bytes (and its end) was.
        std::string kept;
        std::vector<size_t> source_of;
        size_t from = 0;
        const auto keep = [&](size_t end) {
            kept.append(piece.substr(from, end - from));
            for (size_t b = from; b < end; ++b) source_of.push_back(segment.span.begin + b);
        };
        for (const TextSpan& code : codes) {
            keep(code.begin);
            from = code.end;
        }
        keep(piece.size());
        source_of.push_back(segment.span.end);
        for (const SentencePiece& p : encoder().encode(kept)) {
            const size_t begin = source_of[p.span.begin];
            append_token(p.piece, {begin, p.span.end > p.span.begin ? source_of[p.span.end - 1] + 1 : begin});
        }
    }
    out.append_added(t.vocab.token(t.eos), t.eos, text.size());
    return out;
}

std::string MarianTokenizer::decode(const std::vector<int>& ids, bool skip_special) const {
    const Tables& t = *tables_;
    std::string out;
    std::vector<std::string> run;  // tokens not yet decoded
    for (int id : ids) {
        const bool special = id == t.eos || id == t.unk || id == t.pad;
        if (skip_special && special) continue;
        if (id >= 0 && id < t.vocab.size() && !special) {
            run.push_back(t.vocab.token(id));
            continue;
        }
        out += t.target.decode(run) + (special ? t.vocab.token(id) : "<?" + std::to_string(id) + ">") + " ";
        run.clear();
    }
    out += t.target.decode(run);
    return std::string(strip(out));
}

const Vocab& MarianTokenizer::vocab() const { return tables_->vocab; }

const char* MarianTokenizer::name() const {
    return target_ ? tables_->target_name.c_str() : tables_->source_name.c_str();
}

int MarianTokenizer::eos_id() const { return tables_->eos; }
int MarianTokenizer::unk_id() const { return tables_->unk; }
int MarianTokenizer::pad_id() const { return tables_->pad; }

}  // namespace attnlab
