#include "analysis/head_detectors.h"
#include "stepper.h"

#include <algorithm>
#include <cassert>
#include <random>
#include <string>

namespace attnlab {

namespace {

constexpr int kDefaultLength = 20;

// Uniform in [0, n): rejects the draws below 2^64 mod n, so the rest are a whole number of runs of n.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    uint64_t r = rng();
    while (r < threshold) r = rng();
    return r % n;
}

// The vocabulary every side reading the sequence shares.
int shared_vocab_size(const ModelConfig& c) {
    switch (c.arch) {
        case Arch::decoder_only: return c.tgt_vocab_size;
        case Arch::encoder_only: return c.src_vocab_size;
        case Arch::encoder_decoder: return std::min(c.src_vocab_size, c.tgt_vocab_size);
    }
    return 0;
}

bool is_self_attention_weights(const StepId& id) {
    return id.kind == StepKind::attention && id.stage == AttentionStage::weights && id.use != AttentionUse::cross;
}

}  // namespace

std::vector<int> repeated_random_tokens(int vocab_size, int L, uint64_t seed, const std::vector<int>& excluded) {
    std::vector<int> allowed;
    for (int id = 0; id < vocab_size; ++id)
        if (std::find(excluded.begin(), excluded.end(), id) == excluded.end()) allowed.push_back(id);
    assert(L >= 0 && !allowed.empty());
    std::mt19937_64 rng(seed);
    std::vector<int> ids(static_cast<size_t>(2 * L));
    for (int i = 0; i < L; ++i)
        ids[static_cast<size_t>(i)] = ids[static_cast<size_t>(L + i)] =
            allowed[static_cast<size_t>(uniform_below(rng, allowed.size()))];
    return ids;
}

std::vector<HeadScores> head_detector_scores(const Tensor& weights, const RepeatLayout& layout) {
    assert(weights.rank() == 3 && weights.dim(1) == weights.dim(2));
    const int64_t H = weights.dim(0), N = weights.dim(1), p0 = layout.first, L = layout.length;
    assert(p0 >= 0 && L >= 1 && p0 + 2 * L <= N);
    std::vector<HeadScores> out(static_cast<size_t>(H));
    for (int64_t h = 0; h < H; ++h) {
        const ConstMatMap w = weights.slice(h);  // (N, N): query rows, key columns
        double induction = 0, previous = 0, duplicate = 0;
        for (int64_t i = 0; i < L; ++i) {
            const int64_t q = p0 + L + i;
            induction += w(q, p0 + i + 1);
            duplicate += w(q, p0 + i);
        }
        for (int64_t q = 1; q < N; ++q) previous += w(q, q - 1);
        HeadScores& s = out[static_cast<size_t>(h)];
        s.induction = static_cast<float>(induction / static_cast<double>(L));
        s.duplicate_token = static_cast<float>(duplicate / static_cast<double>(L));
        s.previous_token = static_cast<float>(previous / static_cast<double>(N - 1));
    }
    return out;
}

Result<HeadDetectorScores> detect_heads(const ModelConfig& config, const Weights& weights,
                                        const HeadDetectorOptions& options) {
    const int vocab = shared_vocab_size(config);
    const int p0 = options.bos ? 1 : 0;
    const int longest = (config.max_len - p0) / 2;
    const int L = options.length.value_or(std::min(kDefaultLength, longest));
    if (L < 2)
        return Error{"the repeated sequence needs a length of at least 2" +
                     (options.length ? " (got " + std::to_string(L) + ")"
                                     : std::string(" and max_len ") + std::to_string(config.max_len) + " allows " +
                                           std::to_string(std::max(longest, 0)))};
    if (L > longest)
        return Error{"two copies of " + std::to_string(L) + " tokens" + (p0 ? " after the BOS" : "") +
                     " exceed max_len " + std::to_string(config.max_len) + " (the longest is " +
                     std::to_string(std::max(longest, 0)) + ")"};
    if (options.bos && (*options.bos < 0 || *options.bos >= vocab))
        return Error{"the BOS id " + std::to_string(*options.bos) + " is outside the vocabulary (0.." +
                     std::to_string(vocab - 1) + ")"};
    std::vector<int> excluded;
    for (int id : {config.pad_id, config.sos_id, config.eos_id, config.unk_id})
        if (id >= 0 && id < vocab && std::find(excluded.begin(), excluded.end(), id) == excluded.end())
            excluded.push_back(id);
    if (vocab <= static_cast<int>(excluded.size()))
        return Error{"the vocabulary has no token besides the special ones to draw random tokens from"};

    HeadDetectorScores result;
    if (options.bos) result.ids.push_back(*options.bos);
    const std::vector<int> repeated = repeated_random_tokens(vocab, L, options.seed, excluded);
    result.ids.insert(result.ids.end(), repeated.begin(), repeated.end());
    result.layout = {p0, L};

    ForwardInputs inputs;
    if (config.has_encoder()) inputs.src_ids = result.ids;
    if (config.has_decoder()) inputs.tgt_ids = result.ids;
    auto stepper = Stepper::create(config, weights, std::move(inputs));
    if (!stepper) return stepper.error();
    size_t end = 0;  // one past the last self-attention's weights
    for (size_t i = 0; i < stepper->size(); ++i)
        if (is_self_attention_weights(stepper->step(i).record.id)) end = i + 1;
    stepper->run_to(end);
    for (size_t i = 0; i < end; ++i) {
        const StepId& id = stepper->step(i).record.id;
        if (!is_self_attention_weights(id)) continue;
        const Tensor* w = stepper->output(id);  // (H, N, N)
        assert(w);
        result.layers.push_back({id.site(), head_detector_scores(*w, result.layout)});
    }
    return result;
}

}  // namespace attnlab
