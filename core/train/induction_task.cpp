#include "train/induction_task.h"

#include "analysis/head_detectors.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

uint64_t mix_seed(uint64_t z) {  // SplitMix64's finaliser: the row's length, apart from its tokens' stream
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

Vocab induction_vocab(int ordinary) {
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    for (int i = 0; i < ordinary; ++i) tokens.push_back("t" + std::to_string(i));
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    assert(vocab.ok());
    return std::move(vocab).value();
}

Result<ModelConfig> induction_config(const std::string& preset, int vocab_size, int length) {
    ModelConfig c;
    if (preset == "induction") {
        c.family = Family::llama;
        c.d_model = 32;
        c.n_heads = 2;
        c.n_decoder_layers = 2;
        c.d_ff = 64;
        c.positional = Positional::rotary;
        c.norm = NormKind::rms_norm;
        c.gated_ffn = true;
        c.activation = Activation::silu;
        c.qkv_bias = c.out_bias = c.ffn_bias = false;
        c.scale_embedding = false;
        c.src_vocab_size = vocab_size;
        c.tgt_vocab_size = vocab_size;
    } else {
        auto preset_c = preset_config(preset, vocab_size, vocab_size);
        if (!preset_c) return Error{"unknown preset '" + preset + "' (expected induction, tiny or base)"};
        c = *preset_c;
    }
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.norm_first = true;  // pre-LN trains without warm-up tricks, as GPT-2 does
    c.max_len = std::max(c.max_len, 2 * length + 1);
    if (auto st = validate_config(c); !st) return st.error();
    return c;
}

InductionTask make_induction_task(int ordinary, int length) {
    assert(ordinary >= 1 && length >= 2);
    return InductionTask{ordinary + 4, std::max(2, length / 2), length, 1, 0, {0, 1, 2, 3}};
}

Batch InductionBatches::batch(int64_t k) {
    const int T = 2 * task_.length;
    Batch b;
    b.B = batch_size_;
    b.T = T;
    b.pad_id = task_.pad;
    b.tgt_in.reserve(static_cast<size_t>(batch_size_) * T);
    b.tgt_out.reserve(b.tgt_in.capacity());
    for (int row = 0; row < batch_size_; ++row) {
        const uint64_t seed = (seed_ * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(k)) * 0xBF58476D1CE4E5B9ull +
                              static_cast<uint64_t>(row);
        const int span = task_.length - task_.min_length + 1;
        const int L = task_.min_length + static_cast<int>(mix_seed(seed) % static_cast<uint64_t>(span));
        const int P = task_.length - L;  // the filler's length, and the padding's
        std::vector<int> sequence = {task_.bos};  // (2·L_max + 1)
        const std::vector<int> filler = repeated_random_tokens(task_.vocab_size, P, mix_seed(seed + 1), task_.excluded);
        sequence.insert(sequence.end(), filler.begin(), filler.begin() + P);
        const std::vector<int> tokens = repeated_random_tokens(task_.vocab_size, L, seed, task_.excluded);
        sequence.insert(sequence.end(), tokens.begin(), tokens.end());
        sequence.resize(static_cast<size_t>(T) + 1, task_.pad);
        b.tgt_in.insert(b.tgt_in.end(), sequence.begin(), sequence.end() - 1);
        b.tgt_out.insert(b.tgt_out.end(), sequence.begin() + 1, sequence.end());
    }
    return b;
}

CopyLosses copy_losses(const InductionTask& task, const Batch& batch, const Tensor& logits) {
    assert(logits.dim(0) == int64_t{batch.B} * batch.T);
    // Target position t predicts sequence[t + 1]; the copies' tokens x_1 … x_{L−1} are at sequence positions
    // P + 2 … P + L (first) and P + L + 2 … P + 2L (second), so t in [P + 1, P + L − 1] and [P + L + 1, P + 2L − 1].
    double sums[2] = {0.0, 0.0};
    int64_t n = 0;
    for (int b = 0; b < batch.B; ++b) {
        const auto row_targets = batch.tgt_out.begin() + int64_t{b} * batch.T;
        const int P = static_cast<int>(std::count(row_targets, row_targets + batch.T, task.pad));
        const int L = batch.T / 2 - P;
        n += L - 1;
        for (int copy = 0; copy < 2; ++copy)
            for (int t = P + copy * L + 1; t <= P + copy * L + L - 1; ++t) {
                const int64_t row = int64_t{b} * batch.T + t;
                const auto z = logits.row(row);
                const float max = z.maxCoeff();
                const double log_sum = max + std::log(static_cast<double>((z.array() - max).exp().sum()));
                sums[copy] += log_sum - z(batch.tgt_out[static_cast<size_t>(row)]);
            }
    }
    return {sums[0] / static_cast<double>(n), sums[1] / static_cast<double>(n)};
}

}  // namespace attnlab
