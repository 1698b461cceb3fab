// Viterbi over a byte trie of the pieces, as Hugging Face's encode_optimized walks it: each character
// position keeps the best path ending there; ties keep the path found first.
#include "text/unigram_model.h"

#include "text/utf8.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr double kUnknownPenalty = 10.0;  // Hugging Face's K_UNK_PENALTY

size_t code_point_length(uint8_t lead) {  // of valid UTF-8
    return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

}  // namespace

Result<UnigramModel> UnigramModel::build(std::vector<UnigramPiece> pieces, int unk_id, bool byte_fallback,
                                         const std::array<int, 256>& byte_ids) {
    if (pieces.empty()) return Error{"the model has no pieces"};
    if (unk_id < 0 || static_cast<size_t>(unk_id) >= pieces.size())
        return Error{"unk_id " + std::to_string(unk_id) + " is not one of the " + std::to_string(pieces.size()) +
                     " pieces"};
    UnigramModel m;
    m.trie_.emplace_back();
    double min_score = std::numeric_limits<double>::infinity();
    for (size_t id = 0; id < pieces.size(); ++id) {
        const UnigramPiece& p = pieces[id];
        if (p.piece.empty()) return Error{"piece " + std::to_string(id) + " is empty"};
        if (!std::isfinite(p.score)) return Error{"piece " + std::to_string(id) + " has a score that is not finite"};
        min_score = std::min(min_score, p.score);
        int32_t node = 0;
        for (char c : p.piece) {
            const auto b = static_cast<uint8_t>(c);
            int32_t next = m.child(node, b);
            if (next < 0) {
                next = static_cast<int32_t>(m.trie_.size());
                auto& kids = m.trie_[static_cast<size_t>(node)].children;
                kids.insert(std::upper_bound(kids.begin(), kids.end(), std::pair<uint8_t, int32_t>{b, -1}), {b, next});
                m.trie_.emplace_back();
            }
            node = next;
        }
        m.trie_[static_cast<size_t>(node)].piece = static_cast<int32_t>(id);  // a repeated piece: the last id
    }
    m.pieces_ = std::move(pieces);
    m.unk_id_ = unk_id;
    m.byte_fallback_ = byte_fallback;
    m.byte_ids_ = byte_ids;
    m.unk_score_ = min_score - kUnknownPenalty;
    return m;
}

int32_t UnigramModel::child(int32_t node, uint8_t byte) const {
    const auto& kids = trie_[static_cast<size_t>(node)].children;
    const auto it = std::lower_bound(kids.begin(), kids.end(), byte,
                                     [](const std::pair<uint8_t, int32_t>& k, uint8_t b) { return k.first < b; });
    return it != kids.end() && it->first == byte ? it->second : -1;
}

int UnigramModel::find(std::string_view piece) const {
    int32_t node = 0;
    for (char c : piece) {
        node = child(node, static_cast<uint8_t>(c));
        if (node < 0) return -1;
    }
    return trie_[static_cast<size_t>(node)].piece;
}

std::vector<UnigramToken> UnigramModel::encode(std::string_view word) const {
    struct Best {
        int id = -1;
        double score = 0;
        size_t starts_at = std::string_view::npos;  // npos: no path ends here yet
    };
    const size_t n = word.size();
    std::vector<Best> best(n + 1);
    best[0].starts_at = 0;
    const auto offer = [&](size_t end, size_t begin, int id, double score) {
        Best& b = best[end];
        if (b.starts_at == std::string_view::npos || score > b.score) b = {id, score, begin};
    };
    for (size_t begin = 0; begin < n;) {
        const double here = best[begin].score;
        const size_t char_len = std::min(code_point_length(static_cast<uint8_t>(word[begin])), n - begin);
        bool single_char_piece = false;
        int32_t node = 0;
        for (size_t end = begin; end < n;) {
            node = child(node, static_cast<uint8_t>(word[end++]));
            if (node < 0) break;
            const int32_t id = trie_[static_cast<size_t>(node)].piece;
            if (id < 0) continue;
            offer(end, begin, id, here + pieces_[static_cast<size_t>(id)].score);
            if (end - begin == char_len) single_char_piece = true;
        }
        if (!single_char_piece) offer(begin + char_len, begin, unk_id_, here + unk_score_);
        begin += char_len;
    }

    // Back from the end; a run of unknown tokens is one, its text looked up again as a whole.
    std::vector<std::pair<size_t, size_t>> spans;  // (begin, end), last first
    bool after_unknown = false;
    for (size_t end = n; end > 0;) {
        const Best& b = best[end];
        const bool unknown = b.id == unk_id_;
        if (unknown && after_unknown) {
            spans.back().first = b.starts_at;
        } else {
            spans.push_back({b.starts_at, end});
        }
        after_unknown = unknown;
        end = b.starts_at;
    }
    std::reverse(spans.begin(), spans.end());

    std::vector<UnigramToken> out;
    for (const auto& [begin, end] : spans) {
        const std::string_view text = word.substr(begin, end - begin);
        const int id = find(text);
        if (id >= 0) {
            out.push_back({id, static_cast<uint32_t>(text.size())});
            continue;
        }
        if (byte_fallback_ &&
            std::all_of(text.begin(), text.end(), [&](char c) { return byte_ids_[static_cast<uint8_t>(c)] >= 0; })) {
            for (char c : text) out.push_back({byte_ids_[static_cast<uint8_t>(c)], 1});
            continue;
        }
        out.push_back({unk_id_, static_cast<uint32_t>(text.size())});
    }
    return out;
}

}  // namespace attnlab
