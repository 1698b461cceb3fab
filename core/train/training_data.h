// What an opened model trains on, read from a file of the user's (attnlab-cli train --init and the app's Training
// view): an encoder-decoder's source<TAB>target pairs (train/pair_batches.h), or a stream of tokens (text through
// the model's own tokenizer, or a file of ids; train/token_file.h) cut into windows of seq_len + 1
// (train/token_windows.h), read as next-token sequences by a decoder-only model and as masked tokens
// (train/masked_batches.h) by an encoder-only one.
#pragma once

#include "model.h"
#include "result.h"
#include "train/sequence_batches.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace attnlab {

enum class DataFileKind { text, token_ids, pairs };

struct DataFileSpec {
    DataFileKind kind = DataFileKind::text;
    std::string path;
    int seq_len = 64;                 // a window's inputs (a stream of tokens)
    int batch_size = 64;              // windows or pairs a batch
    std::optional<uint64_t> shuffle;  // each pass over the windows in its own order (token_windows.h); none: in file order
    uint64_t seed = 1;                // the masked tokens' draws (an encoder-only model)
};

// The kind of file `arch` trains on: pairs for an encoder-decoder, else a stream (text unless the caller asks for ids).
bool trains_on_pairs(Arch arch);

// What the file held: a stream's tokens and whole windows, or its pairs.
struct DataCounts {
    int64_t tokens = 0, windows = 0;  // a stream (windows of seq_len + 1)
    int seq_len = 0;
    int64_t pairs = 0;    // a file of pairs
    int64_t unknown = 0;  // tokens the tokenizer had no piece for (they became its unknown token)
};

// "12345 tokens: 190 windows of 64 + 1", or "1000 pairs".
std::string describe(const DataCounts& counts);

struct TrainingData {
    std::unique_ptr<SequenceBatches> batches;  // batches->trains() is the model's arch
    DataCounts counts;
};

// Errors are one line naming the file: it cannot be read, holds too few tokens for one window, an id past the model's
// vocabulary, a malformed pairs line; or its kind is not the model's (pairs for an encoder-decoder, a stream otherwise).
Result<TrainingData> read_training_data(const Model& model, const DataFileSpec& spec);

}  // namespace attnlab
