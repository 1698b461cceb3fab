// BERT's masking of a token stream's windows: 15% of the ordinary positions chosen, 80% of those become [MASK],
// 10% a random ordinary id, 10% stay.
#include "train/masked_batches.h"

#include "train/task_random.h"

#include <algorithm>
#include <cassert>
#include <random>

namespace attnlab {

namespace {

bool is_special(const MaskTokens& tokens, int id) {
    return std::binary_search(tokens.special.begin(), tokens.special.end(), id);
}

}  // namespace

Result<MaskTokens> mask_tokens(const Model& model) {
    const ModelConfig& c = model.config;
    if (c.arch != Arch::encoder_only)
        return Error{"masked-token batches train an encoder-only model (BERT); this is a " + to_string(c.arch) +
                     " model"};
    if (c.output_head == OutputHead::none)
        return Error{
            "this BERT has no masked-language-model head (its file has no cls.predictions weights), so it "
            "cannot be trained on masked tokens"};
    const Vocab* vocab = model.subword_tokenizer ? &model.subword_tokenizer->vocab()
                         : model.src_vocab       ? &*model.src_vocab
                                                 : nullptr;
    if (!vocab) return Error{"this model has no tokenizer, so no [MASK] token to mask with"};
    const auto mask = vocab->find("[MASK]");
    if (!mask) return Error{"this model's vocabulary has no [MASK] token to mask with"};
    MaskTokens tokens;
    tokens.mask_id = *mask;
    tokens.n_tokens = std::min(vocab->size(), c.src_vocab_size);
    for (const char* name : {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"})
        if (const auto id = vocab->find(name)) tokens.special.push_back(*id);
    if (c.pad_id >= 0) tokens.special.push_back(c.pad_id);
    std::sort(tokens.special.begin(), tokens.special.end());
    tokens.special.erase(std::unique(tokens.special.begin(), tokens.special.end()), tokens.special.end());
    const auto n_special_below =
        std::lower_bound(tokens.special.begin(), tokens.special.end(), tokens.n_tokens) - tokens.special.begin();
    if (n_special_below >= tokens.n_tokens) return Error{"this model's vocabulary has only special tokens"};
    return tokens;
}

MaskedRow mask_row(const std::vector<int>& ids, const MaskTokens& tokens, uint64_t seed, int64_t k, int b) {
    assert(k >= 0 && b >= 0);
    const auto kk = static_cast<uint64_t>(k);
    std::seed_seq words{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(kk),
                        static_cast<uint32_t>(kk >> 32), static_cast<uint32_t>(b)};
    std::mt19937_64 rng(words);
    MaskedRow row{ids, std::vector<int>(ids.size(), -1)};
    std::vector<size_t> eligible;
    for (size_t i = 0; i < ids.size(); ++i)
        if (!is_special(tokens, ids[i])) eligible.push_back(i);
    if (eligible.empty()) return row;
    const size_t n = std::max<size_t>(1, (15 * eligible.size() + 50) / 100);
    shuffle_seeded(eligible, rng);
    for (size_t j = 0; j < n; ++j) {
        const size_t at = eligible[j];
        row.targets[at] = ids[at];
        const size_t r = draw_index(rng, 10);
        if (r < 8) {
            row.input[at] = tokens.mask_id;
        } else if (r == 8) {
            int id = 0;
            do id = static_cast<int>(draw_index(rng, static_cast<size_t>(tokens.n_tokens)));
            while (is_special(tokens, id));
            row.input[at] = id;
        }
    }
    return row;
}

Result<std::unique_ptr<MaskedBatches>> MaskedBatches::make(const Model& model, TokenWindows windows, uint64_t seed) {
    auto tokens = mask_tokens(model);
    if (!tokens) return tokens.error();
    return std::make_unique<MaskedBatches>(std::move(windows), std::move(*tokens), seed);
}

Batch MaskedBatches::batch(int64_t k) {
    const WindowBatch w = windows_.batch(k);
    Batch out;
    out.B = w.B;
    out.S = w.T;
    out.pad_id = -1;
    out.src.reserve(w.inputs.size());
    out.tgt_out.reserve(w.inputs.size());
    for (int b = 0; b < w.B; ++b) {
        const auto first = w.inputs.begin() + static_cast<int64_t>(b) * w.T;
        const MaskedRow row = mask_row(std::vector<int>(first, first + w.T), tokens_, seed_, k, b);
        out.src.insert(out.src.end(), row.input.begin(), row.input.end());
        out.tgt_out.insert(out.tgt_out.end(), row.targets.begin(), row.targets.end());
    }
    return out;
}

}  // namespace attnlab
