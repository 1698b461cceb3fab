// The induction task (Olsson et al., 2022): sequences of L random tokens, each repeated, so that the second copy
// can be predicted by copying what followed the same token in the first. A model learns it with an induction head,
// in a sudden drop of the loss on the second copy.
//   sequence  = <bos>, r_1 … r_P, x_0 … x_{L−1}, x_0 … x_{L−1}, <pad> × P   (P = L_max − L filler tokens r; r and x
//               uniform over the vocabulary's ordinary tokens, head_detectors.h's repeated_random_tokens; 2·L_max + 1
//               ids)
//   inputs    = sequence[0 … N − 2],  targets = sequence[1 … N − 1]   (T = 2·L_max; a <pad> target counts for nothing)
//   first-copy loss  = mean cross-entropy of predicting x_1 … x_{L−1} in the first copy
//   second-copy loss = the same for x_1 … x_{L−1} in the second copy (x_0 of either copy cannot be predicted)
// L varies from row to row, in [L_max / 2, L_max]: with one L for every row, "attend L − 1 places back" would
// copy without reading a single token (a positional head), and no induction head would form. The filler moves the
// copies away from the <bos> by as many places as the padding after them: with the first copy always right after
// the <bos>, models copied (second-copy loss 0.2) from where they stood, with no head attending as an induction
// head does (the "induction" model below: best induction score 0.01 after 1500 steps; 0.7 with the filler).
#pragma once

#include "config.h"
#include "result.h"
#include "text/vocab.h"
#include "train/sequence_batches.h"
#include "weights.h"

#include <cstdint>
#include <vector>

namespace attnlab {

struct InductionTask {
    int vocab_size = 0;         // V, the specials included
    int min_length = 0;         // L's range
    int length = 0;             // L_max
    int bos = 1;                // the sequence's first id (<sos>)
    int pad = 0;                // after the second copy
    std::vector<int> excluded;  // ids never drawn (the specials)
};

// The task over a vocabulary of <pad> <sos> <eos> <unk> and `ordinary` tokens named t0, t1, …, with sequences of
// L_max / 2 … L_max tokens (at least 2) repeated.
InductionTask make_induction_task(int ordinary, int length);
Vocab induction_vocab(int ordinary);

// The model the task trains, for its vocabulary of V ids and sequences of up to L_max tokens (max_len 2·L_max + 1):
//   "induction"  a two-layer decoder-only model of the Llama template, C = 32, H = 2, F = 64: RoPE, so a
//                previous-token head needs only a relative offset and no absolute position offers a shortcut
//                (with our family's sinusoids, layer 0 learnt to attend about halfway back, and layer 1 copied
//                from there without an induction head); it shows its induction head within 1000 steps
//                (assets/models/README.md, "Induction")
//   "tiny", "base"  that preset of our family (preset_config), decoder-only and pre-LN
// Errors: an unknown preset.
Result<ModelConfig> induction_config(const std::string& preset, int vocab_size, int length);

// Row b of batch k draws its length and tokens from the seed (seed, k, b): every batch is new, and the same on every
// machine.
class InductionBatches final : public SequenceBatches {
public:
    InductionBatches(InductionTask task, int batch_size, uint64_t seed)
        : task_(std::move(task)), batch_size_(batch_size), seed_(seed) {}
    Batch batch(int64_t k) override;

private:
    InductionTask task_;
    int batch_size_;
    uint64_t seed_;
};

struct CopyLosses {
    double first = 0.0, second = 0.0;
};
// The two losses of a batch of the task (as InductionBatches makes them), from the model's logits (B·T, V). Each
// row's P is its count of <pad> targets, and L = L_max − P.
CopyLosses copy_losses(const InductionTask& task, const Batch& batch, const Tensor& logits);

}  // namespace attnlab
