// Padding pairs into a batch.
#include "train/batch.h"

#include <algorithm>

namespace attnlab {

int64_t Batch::n_target_tokens() const {
    return static_cast<int64_t>(tgt_out.size()) - std::count(tgt_out.begin(), tgt_out.end(), pad_id);
}

Batch make_batch(const std::vector<TokenPair>& pairs, const ModelConfig& config) {
    Batch batch;
    batch.B = static_cast<int>(pairs.size());
    batch.pad_id = config.pad_id;
    for (const auto& p : pairs) {
        batch.S = std::max(batch.S, static_cast<int>(p.src.size()) + 1);  // + <eos>
        batch.T = std::max(batch.T, static_cast<int>(p.tgt.size()) + 1);  // + <sos> (in) / <eos> (out)
    }
    const size_t S = static_cast<size_t>(batch.S), T = static_cast<size_t>(batch.T);
    batch.src.assign(pairs.size() * S, config.pad_id);
    batch.tgt_in.assign(pairs.size() * T, config.pad_id);
    batch.tgt_out.assign(pairs.size() * T, config.pad_id);
    for (size_t b = 0; b < pairs.size(); ++b) {
        const auto& p = pairs[b];
        std::copy(p.src.begin(), p.src.end(), batch.src.begin() + static_cast<std::ptrdiff_t>(b * S));
        batch.src[b * S + p.src.size()] = config.eos_id;
        batch.tgt_in[b * T] = config.sos_id;
        std::copy(p.tgt.begin(), p.tgt.end(), batch.tgt_in.begin() + static_cast<std::ptrdiff_t>(b * T + 1));
        std::copy(p.tgt.begin(), p.tgt.end(), batch.tgt_out.begin() + static_cast<std::ptrdiff_t>(b * T));
        batch.tgt_out[b * T + p.tgt.size()] = config.eos_id;
    }
    return batch;
}

Batch batch_rows(const Batch& batch, int begin, int end) {
    Batch part = batch;
    part.B = end - begin;
    auto rows = [&](const std::vector<int>& ids, int width) {
        const auto first = ids.begin() + static_cast<std::ptrdiff_t>(begin) * width;
        return std::vector<int>(first, first + static_cast<std::ptrdiff_t>(part.B) * width);
    };
    part.src = rows(batch.src, batch.S);
    part.tgt_in = rows(batch.tgt_in, batch.T);
    part.tgt_out = rows(batch.tgt_out, batch.target_width());
    return part;
}

}  // namespace attnlab
