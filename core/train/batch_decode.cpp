// Greedy and beam decoding over the model's step graph (GraphRun): each new token re-runs the decoder's steps, and
// the encoder's only when the batch of sources changes.
#include "train/batch_decode.h"

#include "train/batch.h"
#include "train/graph_run.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

// (B, S) ids: each source, <eos>, then <pad>.
std::vector<int> padded_sources(const ModelConfig& config, const std::vector<std::vector<int>>& sources, int& S) {
    std::vector<TokenPair> pairs;
    pairs.reserve(sources.size());
    for (const auto& s : sources) pairs.push_back({s, {}});
    const Batch batch = make_batch(pairs, config);
    S = batch.S;
    return batch.src;
}

// Row t of each pair's (T, V) logits block.   logits (B·T, V) -> (B, V)
Mat rows_at(const Tensor& logits, int B, int T, int t) {
    Mat out(B, logits.dim(1));
    for (int b = 0; b < B; ++b) out.row(b) = logits.row(int64_t{b} * T + t);
    return out;
}

}  // namespace

std::vector<std::vector<int>> greedy_decode_batch(const ModelConfig& config, const Weights& weights,
                                                  const std::vector<std::vector<int>>& sources, int max_new_tokens) {
    const int B = static_cast<int>(sources.size());
    std::vector<std::vector<int>> out(sources.size());
    if (B == 0) return out;
    int S = 0;
    ForwardInputs inputs;
    inputs.src_ids = padded_sources(config, sources, S);  // (B, S)
    inputs.batch = B;
    GraphRun run(config);
    const size_t logits = *run.logits_step();
    max_new_tokens = std::min(max_new_tokens, config.max_len - 1);
    std::vector<char> finished(sources.size(), 0);
    std::vector<std::vector<int>> prefixes(sources.size(), std::vector<int>{config.sos_id});
    for (int t = 0; t < max_new_tokens; ++t) {
        const int T = t + 1;
        inputs.tgt_ids.clear();  // (B, T)
        for (const auto& p : prefixes) inputs.tgt_ids.insert(inputs.tgt_ids.end(), p.begin(), p.end());
        run.run(weights, inputs);
        const Mat next = rows_at(run.output(logits), B, T, t);  // (B, V)
        bool all_done = true;
        for (int b = 0; b < B; ++b) {
            Eigen::Index best = 0;
            next.row(b).maxCoeff(&best);
            const int id = finished[static_cast<size_t>(b)] ? config.pad_id : static_cast<int>(best);
            prefixes[static_cast<size_t>(b)].push_back(id);
            if (finished[static_cast<size_t>(b)]) continue;
            if (id == config.eos_id) {
                finished[static_cast<size_t>(b)] = 1;
            } else {
                out[static_cast<size_t>(b)].push_back(id);
            }
            all_done = all_done && finished[static_cast<size_t>(b)];
        }
        if (all_done) break;
    }
    return out;
}

std::vector<int> beam_decode(const ModelConfig& config, const Weights& weights, const std::vector<int>& source,
                             BeamOptions options) {
    options.sos_id = config.sos_id;
    options.eos_id = config.eos_id;
    options.max_new_tokens = std::min(options.max_new_tokens, config.max_len - 1);
    int S = 0;
    const std::vector<int> src = padded_sources(config, {source}, S);  // (1, S)
    GraphRun run(config);
    const size_t logits_step = *run.logits_step();
    ForwardInputs inputs;
    const NextLogProbs next = [&](const std::vector<std::vector<int>>& prefixes) {
        const int n = static_cast<int>(prefixes.size()), T = static_cast<int>(prefixes.front().size());
        inputs.batch = n;  // the source once per hypothesis: (n, S), and the hypotheses (n, T)
        inputs.src_ids.clear();
        inputs.tgt_ids.clear();
        for (int i = 0; i < n; ++i) {
            assert(static_cast<int>(prefixes[static_cast<size_t>(i)].size()) == T);
            inputs.src_ids.insert(inputs.src_ids.end(), src.begin(), src.end());
            inputs.tgt_ids.insert(inputs.tgt_ids.end(), prefixes[static_cast<size_t>(i)].begin(),
                                  prefixes[static_cast<size_t>(i)].end());
        }
        run.run(weights, inputs);
        Mat logits = rows_at(run.output(logits_step), n, T, T - 1);  // (n, V)
        for (int i = 0; i < n; ++i) {                                                  // log-softmax
            const float max = logits.row(i).maxCoeff();
            const float log_sum = max + std::log((logits.row(i).array() - max).exp().sum());
            logits.row(i).array() -= log_sum;
        }
        return logits;
    };
    const auto hypotheses = beam_search(next, options);
    if (hypotheses.empty()) return {};
    std::vector<int> best = hypotheses.front().tokens;
    if (!best.empty() && best.back() == config.eos_id) best.pop_back();
    return best;
}

}  // namespace attnlab
