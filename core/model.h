// Model: a config, its weights, and the vocabularies and tokenizer that turn text into ids.
#pragma once

#include "config.h"
#include "result.h"
#include "text/subword_tokenizer.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
#include "weights.h"

#include <memory>
#include <optional>

namespace attnlab {

// Where a trained model came from: the task and seed fix its held-out split (see train/tasks.h).
struct TrainingRecord {
    std::string task;
    uint64_t seed = 0;
    int steps = 0;
    bool operator==(const TrainingRecord&) const = default;
};

struct Model {
    ModelConfig config;
    Weights weights;
    std::optional<Vocab> src_vocab;  // encoder side; absent for decoder_only
    std::optional<Vocab> tgt_vocab;  // decoder side; absent for encoder_only
    TokenizerKind tokenizer = TokenizerKind::word;
    std::optional<TrainingRecord> training;  // absent for models not trained here
    // A Hugging Face folder's own tokenizer (GPT-2's byte-level BPE, BERT's WordPiece), shared by
    // copies. When set, text goes through it instead of `tokenizer`, and its side's vocabulary is
    // the tokenizer's, padded with "<?id>" up to the config's vocabulary size.
    std::shared_ptr<const SubwordTokenizer> subword_tokenizer;
    // The target side's, where it is not subword_tokenizer (Marian's target.spm); null: subword_tokenizer
    // reads both sides.
    std::shared_ptr<const SubwordTokenizer> target_subword_tokenizer = nullptr;
};

// A randomly initialised preset. Without vocabularies it uses default_char_vocab() and
// the character tokenizer on both sides.
Result<Model> make_random_model(const std::string& preset, uint64_t seed, std::optional<Vocab> src_vocab,
                                std::optional<Vocab> tgt_vocab, TokenizerKind tokenizer);

// Checks a model's pieces against each other: weights against the config, vocabulary sizes,
// and (without a subword tokenizer) the special tokens at pad_id, sos_id, eos_id and unk_id.
Status check_model(const Model& model);

// "word", "char", the subword tokenizer's name ("byte-level BPE", "WordPiece"), or "no" without a vocabulary.
std::string tokenizer_name(const Model& model);

// Source text becomes its tokens followed by <eos>; target text becomes <sos> followed by its tokens.
// A subword tokenizer adds what its model was trained with instead: [CLS] … [SEP] for BERT, nothing for GPT-2;
// a translator's (Marian's) source ends with </s>, and its target is decoder_start_token_id (<pad>) followed
// by the tokens, without the </s> its labels end with.
Result<Tokenized> encode_source_text(const Model& model, std::string_view text);
Result<Tokenized> encode_target_text(const Model& model, std::string_view text);

}  // namespace attnlab
