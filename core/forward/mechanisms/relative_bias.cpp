// T5's relative position bias: a learned number per head for each bucket of offsets, read into (H, N, N).
#include "forward/mechanisms/relative_bias.h"

#include "ops/relative_buckets.h"

#include <cstdio>

namespace attnlab {

Step relative_bias_step(Stack stack, const std::string& table, int n_buckets, int max_distance, Control ids_control) {
    const bool bidirectional = stack == Stack::encoder;
    char variant[96];
    std::snprintf(variant, sizeof variant, "relative_buckets B=%d max_distance=%d %s", n_buckets, max_distance,
                  bidirectional ? "bidirectional" : "unidirectional");
    auto length_of = [stack](const ForwardInputs& inputs) {  // N of the stack's sequences
        return stack == Stack::encoder ? inputs.src_length() : inputs.tgt_length();
    };
    auto buckets_of = [=](int64_t n) { return relative_bucket_map(n, n, bidirectional, n_buckets, max_distance); };
    return {"Relative position bias (T5's buckets)",
            "bias[h, i, j] = table[bucket(j − i), h]",
            {},
            {table},
            {ids_control},
            variant,
            [=](const StepContext& ctx) {
                const int64_t n = length_of(ctx.inputs);
                return StepOutput{relative_bias(ctx.param(table), buckets_of(n), n, n), {}};  // (H, N, N)
            },
            [=](const BackwardContext& b) {  // dL/dtable (B, H): each bucket's pairs summed
                const int64_t n = length_of(b.inputs);
                b.params.add(table, relative_bias_backward(b.d_output, buckets_of(n), n_buckets));
                return InputGrads{};
            }};
}

}  // namespace attnlab
