#include "forward/mechanisms/score_bias.h"

#include "forward/mechanisms/relative_bias.h"
#include "ops/alibi.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

namespace {

int64_t length_of(const ForwardInputs& inputs, Stack stack) {  // N of the stack's sequences
    return stack == Stack::encoder ? inputs.src_length() : inputs.tgt_length();
}

Step alibi_step(Stack stack, const std::vector<float>& slopes, Control ids_control) {
    char variant[48];
    std::snprintf(variant, sizeof variant, "alibi H=%zu", slopes.size());
    return {"ALiBi position bias",
            "bias[h, i, j] = −m_h·(i − j)",
            {},
            {},
            {ids_control},
            variant,
            [stack, slopes](const StepContext& ctx) {
                return StepOutput{alibi_bias(slopes, length_of(ctx.inputs, stack)), {}};  // (H, N, N)
            }};
}

}  // namespace

ScoreBiasMechanism::ScoreBiasMechanism(const ModelConfig& config)
    : scheme_(config.positional),
      relative_buckets_(config.relative_buckets),
      relative_max_distance_(config.relative_max_distance) {
    if (scheme_ == Positional::alibi) slopes_ = alibi_slopes(config.n_heads);
}

PlacedStep ScoreBiasMechanism::bias_step(Stack stack, const std::string& table, Control ids_control) const {
    assert(on());
    const StepId id = StepId::of(StepKind::position_bias, stack);
    switch (scheme_) {
        case Positional::alibi: assert(table.empty()); return {id, alibi_step(stack, slopes_, ids_control)};
        case Positional::relative_buckets:
            assert(!table.empty());
            return {id, relative_bias_step(stack, table, relative_buckets_, relative_max_distance_, ids_control)};
        default: break;
    }
    assert(false && "a score-bias scheme has a bias step");
    return {id, {}};
}

PlacedStep ScoreBiasMechanism::biased_step(const AttentionSite& site, const StepId& scaled, const StepId& bias) const {
    assert(biases(site.use));
    const bool learned_bias = learned();
    return {StepId::attention_at(site, AttentionStage::biased),
            {"Add the position bias",
             "biased[h] = scaled[h] + bias[h]",
             {scaled, bias},
             {},
             {},
             "",
             [](const StepContext& ctx) {  // (B·H, Tq, Tk) + (H, Tq, Tk), every sequence the same bias
                 Tensor out = own_first_input(ctx);
                 const Tensor& bias = ctx.input(1);
                 const int64_t block = bias.numel();
                 assert(block > 0 && out.numel() % block == 0);
                 float* o = out.data.data();
                 const float* b = bias.data.data();
                 for (int64_t at = 0, n = out.numel(); at < n; at += block)
                     for (int64_t k = 0; k < block; ++k) o[at + k] += b[k];
                 return StepOutput{std::move(out), {}};
             },
             [learned_bias](const BackwardContext& b) {
                 if (!learned_bias) return InputGrads{b.d_output, Tensor{}};  // nothing to learn in the bias
                 const Tensor& bias = b.input(1);
                 Tensor d_bias(bias.shape);  // the sum over the sequences of the batch
                 const int64_t block = bias.numel();
                 const float* d = b.d_output.data.data();
                 for (int64_t at = 0, n = b.d_output.numel(); at < n; at += block)
                     for (int64_t k = 0; k < block; ++k) d_bias.data[static_cast<size_t>(k)] += d[at + k];
                 return InputGrads{b.d_output, std::move(d_bias)};
             }}};
}

const char* ScoreBiasMechanism::bias_kind() const {
    return scheme_ == Positional::relative_buckets ? "position_bias.relative_buckets" : "position_bias.alibi";
}

ExplainNumbers ScoreBiasMechanism::bias_numbers(const Tensor& bias, int h, int64_t i, int64_t j) const {
    ExplainNumbers numbers{{"bias", bias.slice(h)(i, j)}, {"distance", static_cast<double>(i - j), ShownAs::whole}};
    if (scheme_ == Positional::alibi) numbers.push_back({"slope", slopes_.at(static_cast<size_t>(h))});
    return numbers;
}

std::string ScoreBiasMechanism::describe() const {
    if (scheme_ == Positional::alibi) {  // "ALiBi slopes 0.25, 0.0625, … (6 heads)"
        char s[96];
        if (slopes_.size() == 1) {
            std::snprintf(s, sizeof s, "ALiBi slope %g (1 head)", static_cast<double>(slopes_[0]));
        } else {
            std::snprintf(s, sizeof s, "ALiBi slopes %g, %g%s (%zu heads)", static_cast<double>(slopes_[0]),
                          static_cast<double>(slopes_[1]), slopes_.size() > 2 ? ", …" : "", slopes_.size());
        }
        return s;
    }
    return scheme_ == Positional::relative_buckets ? "relative position buckets" : "";
}

}  // namespace attnlab
