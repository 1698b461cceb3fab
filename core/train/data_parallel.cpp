// Splitting a batch across threads and merging the parts' gradients.
#include "train/data_parallel.h"

#include "parallel.h"
#include "platform/threads.h"

#include <algorithm>
#include <optional>
#include <thread>

namespace attnlab {

Result<LossAndGradients> loss_and_gradients_parallel(const ModelConfig& config, const Weights& weights,
                                                     const Batch& batch, const TrainOptions& options, int n_threads) {
    const int n_parts = std::clamp(n_threads, 1, std::max(1, batch.B));
    if (n_parts == 1) return loss_and_gradients(config, weights, batch, options);  // no thread

    std::vector<std::optional<Result<LossAndGradients>>> parts(static_cast<size_t>(n_parts));
    auto run_part = [&](int i) {
        const SerialScope serial;  // the parts are the split: the ops inside each run on its thread alone
        const int begin = batch.B * i / n_parts, end = batch.B * (i + 1) / n_parts;
        TrainOptions part_options = options;
        part_options.dropout_seed = options.dropout_seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(i);
        parts[static_cast<size_t>(i)] = loss_and_gradients(config, weights, batch_rows(batch, begin, end), part_options);
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < n_parts; ++i) {
        if (platform::has_threads())
            threads.emplace_back(run_part, i);
        else
            run_part(i);  // the page: the same parts one after another, so the same numbers as on threads
    }
    run_part(0);
    for (auto& t : threads) t.join();

    LossAndGradients total;
    for (auto& part : parts)
        if (!part->ok()) return part->error();
    for (const auto& part : parts) total.n_tokens += (*part)->n_tokens;
    if (total.n_tokens == 0) return std::move(*parts.front());
    total.grads = zero_gradients(weights);
    for (const auto& part : parts) {
        const LossAndGradients& p = part->value();
        const float share = static_cast<float>(static_cast<double>(p.n_tokens) / static_cast<double>(total.n_tokens));
        total.loss += p.loss * p.n_tokens / static_cast<double>(total.n_tokens);
        total.n_correct += p.n_correct;
        for (auto& [name, g] : total.grads) g.matrix() += share * p.grads.at(name).matrix();
    }
    return total;
}

}  // namespace attnlab
