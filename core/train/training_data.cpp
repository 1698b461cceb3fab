// An opened model's training data: the file's kind checked against the model's arch, then pairs or windows.
#include "train/training_data.h"

#include "train/masked_batches.h"
#include "train/pair_batches.h"
#include "train/token_file.h"
#include "train/token_windows.h"
#include "train/window_batches.h"

namespace attnlab {

namespace {

Result<TrainingData> read_pairs(const Model& model, const DataFileSpec& spec) {
    auto pairs = PairBatches::read(spec.path, model, spec.batch_size);
    if (!pairs) return pairs.error();
    TrainingData data;
    data.counts.pairs = (*pairs)->n_pairs();
    data.counts.unknown = (*pairs)->n_unknown();
    data.batches = std::move(*pairs);
    return data;
}

// The file's ids: its digits, or its text through the model's tokenizer.
Result<TextIds> read_stream(const Model& model, const DataFileSpec& spec) {
    if (spec.kind == DataFileKind::text) return read_text_ids(spec.path, model);
    auto ids = read_token_ids(spec.path);
    if (!ids) return ids.error();
    const int vocab = model.config.has_decoder() ? model.config.tgt_vocab_size : model.config.src_vocab_size;
    if (auto st = check_ids_in_vocab(*ids, vocab); !st) return Error{spec.path + ": " + st.error().message};
    return TextIds{std::move(*ids), 0};
}

Result<TrainingData> read_windows(const Model& model, const DataFileSpec& spec) {
    auto stream = read_stream(model, spec);
    if (!stream) return stream.error();
    const int64_t n_ids = static_cast<int64_t>(stream->ids.size());
    auto windows = TokenWindows::make(std::move(stream->ids), spec.seq_len, spec.batch_size, spec.shuffle);
    if (!windows) return Error{spec.path + ": " + windows.error().message};
    TrainingData data;
    data.counts.tokens = n_ids;
    data.counts.windows = windows->n_windows();
    data.counts.seq_len = spec.seq_len;
    data.counts.unknown = stream->n_unknown;
    if (model.config.arch == Arch::encoder_only) {
        auto masked = MaskedBatches::make(model, std::move(*windows), spec.seed);
        if (!masked) return masked.error();
        data.batches = std::move(*masked);
    } else {
        data.batches = std::make_unique<WindowBatches>(std::move(*windows));
    }
    return data;
}

}  // namespace

std::string describe(const DataCounts& c) {
    if (c.pairs > 0) return std::to_string(c.pairs) + " pairs";
    return std::to_string(c.tokens) + " tokens: " + std::to_string(c.windows) + " windows of " +
           std::to_string(c.seq_len) + " + 1";
}

bool trains_on_pairs(Arch arch) { return arch == Arch::encoder_decoder; }

Result<TrainingData> read_training_data(const Model& model, const DataFileSpec& spec) {
    const bool pairs = spec.kind == DataFileKind::pairs;
    if (trains_on_pairs(model.config.arch) && !pairs)
        return Error{"this model is an encoder-decoder: it trains on a file of pairs (source<TAB>target lines)"};
    if (!trains_on_pairs(model.config.arch) && pairs)
        return Error{"pairs train an encoder-decoder; this model reads one sequence: give a text or an ids file"};
    return pairs ? read_pairs(model, spec) : read_windows(model, spec);
}

}  // namespace attnlab
