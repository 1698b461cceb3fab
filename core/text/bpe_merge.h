// Byte-pair encoding of one word: the merge table (pairs of token ids, ranked by their line in
// merges.txt) and GPT-2's merge loop over a word's symbols.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace attnlab {

class BpeMergeTable {
public:
    struct Merge {
        int rank;    // 0 merges first
        int merged;  // the id of the joined symbol
    };

    // `left` + `right` -> `merged`, ranked after every merge added before. A pair added again
    // takes its new rank, as the dict that GPT-2 builds from merges.txt keeps the last line.
    void add(int left, int right, int merged);
    std::optional<Merge> find(int left, int right) const;

private:
    static uint64_t key(int left, int right);

    std::unordered_map<uint64_t, Merge> merges_;
    int n_added_ = 0;
};

struct BpeSymbol {
    int id;
    uint32_t n_bytes;  // of the word
    bool operator==(const BpeSymbol&) const = default;
};

// GPT-2's loop: while two neighbouring symbols have a merge, take the pair with the lowest rank
// and join every occurrence of it, left to right (in "a a a" the first two join). Symbols made
// in one pass wait for the next. Returns the symbols, covering the same bytes in order.
std::vector<BpeSymbol> bpe_merge(const std::vector<BpeSymbol>& symbols, const BpeMergeTable& merges);

}  // namespace attnlab
