// Masked-token batches for an encoder-only model (BERT's masked language modelling), cut from a token stream's
// windows (train/token_windows.h). Row b of batch k is window order(k·B + b)'s first S = seq_len ids, masked by
// BERT's recipe (Devlin et al. 2019, §3.1 and appendix A.1; google-research/bert create_pretraining_data.py, whose
// count this follows; Hugging Face's DataCollatorForLanguageModeling draws the same 15% / 80-10-10 per position):
//   eligible  = positions whose id is not special ([PAD] [UNK] [CLS] [SEP] [MASK] and the config's pad_id, as
//               Hugging Face's get_special_tokens_mask(already_has_special_tokens=True) leaves them out)
//   chosen    = n = max(1, ⌊(15·|eligible| + 50) / 100⌋) of them (15%, halves rounded up; none when no position is
//               eligible): the first n of a seeded shuffle of the eligible positions
//   each chosen position, by one draw r in 0 … 9:  r < 8: [MASK];  r = 8: a random ordinary id (uniform over the
//               tokenizer's ids that are not special);  r = 9: kept as it is
//   src[b]     = the masked row                                      (B, S)
//   tgt_out[b] = the original id at chosen positions, −1 elsewhere   (B, S); T = 0, no tgt_in; pad_id = −1, so the
//                loss counts the chosen positions only and no key is masked.
// Row (k, b)'s draws come from std::mt19937_64 seeded with std::seed_seq{seed mod 2^32, seed / 2^32, k mod 2^32,
// k / 2^32, b} through train/task_random.h, so they are the same on every standard library.
#pragma once

#include "model.h"
#include "result.h"
#include "train/sequence_batches.h"
#include "train/token_windows.h"

#include <memory>
#include <vector>

namespace attnlab {

// The ids masking needs from a model's tokenizer.
struct MaskTokens {
    int mask_id = -1;
    std::vector<int> special;  // never chosen, never drawn as a random replacement (sorted)
    int n_tokens = 0;          // the tokenizer's ids 0 … n_tokens − 1; random replacements are drawn from them
};

// Errors (one line): a model that is not encoder-only, has no output head (a BERT file without its MLM head), or
// whose vocabulary has no [MASK] token.
Result<MaskTokens> mask_tokens(const Model& model);

struct MaskedRow {
    std::vector<int> input;    // (S) the row as the encoder reads it
    std::vector<int> targets;  // (S) the original id at chosen positions, −1 elsewhere
};

// One row of the recipe above: `ids` (S) masked with the draws of batch k, row b.
MaskedRow mask_row(const std::vector<int>& ids, const MaskTokens& tokens, uint64_t seed, int64_t k, int b);

class MaskedBatches final : public SequenceBatches {
public:
    MaskedBatches(TokenWindows windows, MaskTokens tokens, uint64_t seed)
        : windows_(std::move(windows)), tokens_(std::move(tokens)), seed_(seed) {}
    // mask_tokens(model), then the batches.
    static Result<std::unique_ptr<MaskedBatches>> make(const Model& model, TokenWindows windows, uint64_t seed);

    Batch batch(int64_t k) override;
    Arch trains() const override { return Arch::encoder_only; }

private:
    TokenWindows windows_;
    MaskTokens tokens_;
    uint64_t seed_ = 0;
};

}  // namespace attnlab
