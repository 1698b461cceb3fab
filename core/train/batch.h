// A batch of (source, target) pairs, padded into the layout training and batched decoding use.
// B pairs, S source positions, T target positions; ids are row-major (B, S) / (B, T).
// A decoder-only batch has S = 0 and no src; an encoder-only (masked-token) batch has T = 0, no tgt_in, and
// tgt_out (B, S): the id each source position must predict, pad_id where no loss counts.
#pragma once

#include "config.h"

#include <vector>

namespace attnlab {

// One training pair as bare token ids, without <sos>/<eos>.
struct TokenPair {
    std::vector<int> src, tgt;
};

struct Batch {
    int B = 0, S = 0, T = 0;
    int pad_id = 0;
    std::vector<int> src;      // (B, S): tokens, <eos>, then <pad>
    std::vector<int> tgt_in;   // (B, T): <sos>, tokens, then <pad>   (the decoder's input)
    std::vector<int> tgt_out;  // (B, T): tokens, <eos>, then <pad>   (what it must predict); (B, S) when T = 0

    int target_width() const { return T > 0 ? T : S; }  // the columns of tgt_out

    int64_t n_target_tokens() const;  // non-pad entries of tgt_out
};

Batch make_batch(const std::vector<TokenPair>& pairs, const ModelConfig& config);

// Sequences [begin, end) of a batch, with its S, T and pad_id.
Batch batch_rows(const Batch& batch, int begin, int end);

}  // namespace attnlab
