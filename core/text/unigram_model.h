// A Unigram language model over subword pieces (SentencePiece's, as tokenizer.json's model.type "Unigram"
// writes it for T5 and Flan-T5), run as Hugging Face's tokenizers runs it (unigram/model.rs, encode_optimized):
//   - a word's segmentation is the one whose pieces' log-probabilities add up highest (Viterbi over the
//     pieces that start at each character, found in a byte trie of all pieces);
//   - a character no piece starting there covers alone is unknown: it scores the lowest piece score
//     minus 10 and becomes unk_id; consecutive unknown characters fuse into one unknown token;
//   - with byte_fallback, an unknown token whose every byte has a <0xXX> piece becomes those pieces.
#pragma once

#include "result.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct UnigramPiece {
    std::string piece;  // not empty
    double score = 0;   // log-probability, finite
};

// One token of a word: its id and how many bytes of the word it covers (a byte-fallback token covers 1).
struct UnigramToken {
    int id = 0;
    uint32_t n_bytes = 0;
};

class UnigramModel {
public:
    // `pieces` in id order. `byte_ids`: the id of each <0xXX> piece, or -1 (only read with byte_fallback).
    // Errors (one line, no file name): no pieces, an empty piece, a score that is not finite, unk_id
    // outside the pieces.
    static Result<UnigramModel> build(std::vector<UnigramPiece> pieces, int unk_id, bool byte_fallback,
                                      const std::array<int, 256>& byte_ids);

    // The best segmentation of `word` (valid UTF-8); an empty word gives none.
    std::vector<UnigramToken> encode(std::string_view word) const;

    int size() const { return static_cast<int>(pieces_.size()); }
    int unk_id() const { return unk_id_; }
    bool byte_fallback() const { return byte_fallback_; }

private:
    struct TrieNode {
        std::vector<std::pair<uint8_t, int32_t>> children;  // sorted by byte
        int32_t piece = -1;                                 // the id of the piece ending here, or -1
    };
    UnigramModel() = default;
    int32_t child(int32_t node, uint8_t byte) const;
    int find(std::string_view piece) const;  // id, or -1

    std::vector<UnigramPiece> pieces_;
    std::vector<TrieNode> trie_;  // node 0 is the root
    int unk_id_ = 0;
    bool byte_fallback_ = false;
    std::array<int, 256> byte_ids_{};
    double unk_score_ = 0;  // the lowest score minus 10
};

}  // namespace attnlab
