// (source, target) pairs for an encoder-decoder (ours or Marian), read from a TSV text: one "source<TAB>target" line
// per pair, each side through the model's own encode_source_text / encode_target_text (model.h), so
//   src     = the source's tokens and its end: <eos> for ours, </s> for Marian             (S_i ids)
//   tgt_in  = the decoder's start (<sos>; Marian's decoder_start_token_id, its <pad>), then the target's tokens
//   tgt_out = tgt_in shifted left by one, ending with eos_id (<eos>; Marian's </s>)       (T_i ids each)
// Batch k holds pairs (k·B + b) mod n_pairs, b = 0 … B − 1, padded as make_batch pads: S = max S_i, T = max T_i, every
// array filled with the config's pad_id, which is also batch.pad_id (no loss on padded targets; padded source keys
// are masked). Lines are split at "\n" (a "\r" before it is dropped); empty lines are skipped.
#pragma once

#include "model.h"
#include "result.h"
#include "train/sequence_batches.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct EncodedPair {
    std::vector<int> src;     // (S_i)
    std::vector<int> tgt_in;  // (T_i)
};

class PairBatches final : public SequenceBatches {
public:
    // Errors (one line, "<source_name>:<line>: …" where a line is at fault): a model that is not an encoder-decoder
    // or has no padding token, a line without a tab or with more than one, an empty (or blank) side, a side the
    // tokenizer refuses (invalid UTF-8), a side longer than max_len once encoded, no pairs at all, batch_size < 1.
    static Result<std::unique_ptr<PairBatches>> make(const Model& model, std::string_view tsv,
                                                     std::string_view source_name, int batch_size);
    // make over the file at `path`, naming it as io::display_path shows it.
    static Result<std::unique_ptr<PairBatches>> read(const std::string& path, const Model& model, int batch_size);

    int64_t n_pairs() const { return static_cast<int64_t>(pairs_.size()); }
    int64_t n_unknown() const { return n_unknown_; }  // tokens that became the unknown token, both sides
    const std::vector<EncodedPair>& pairs() const { return pairs_; }

    Batch batch(int64_t k) override;
    Arch trains() const override { return Arch::encoder_decoder; }

private:
    PairBatches(std::vector<EncodedPair> pairs, int batch_size, int pad_id, int eos_id, int64_t n_unknown)
        : pairs_(std::move(pairs)), batch_size_(batch_size), pad_id_(pad_id), eos_id_(eos_id), n_unknown_(n_unknown) {}

    std::vector<EncodedPair> pairs_;
    int batch_size_ = 0;
    int pad_id_ = 0, eos_id_ = 0;
    int64_t n_unknown_ = 0;
};

}  // namespace attnlab
