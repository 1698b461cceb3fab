// Numbers of a stack's position bias (H, N, N) for the focused head and query: the bias on one key, its distance
// back from the query, and the scheme's own numbers (ALiBi's slope), as ScoreBiasMechanism gives them.
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/score_bias.h"
#include "ops/relative_buckets.h"

namespace attnlab {

void add_bias_values(const StepSite& s, StepValues& v) {
    const Tensor& bias = *s.output();  // (H, N, N)
    const int h = s.head();
    const int64_t n = bias.dim(1), r = s.row(n);
    // The focused key, else the first: the farthest the query sees, where the bias differs most from its own key's.
    const int64_t c = s.focus.col >= 0 && s.focus.col < bias.dim(2) ? s.focus.col : 0;
    v.text["shape"] = shape_string(bias.shape);
    v.text["row"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["col"] = std::to_string(c);
    v.text["key"] = s.key_label(c);
    add_numbers(ScoreBiasMechanism(s.config()).bias_numbers(bias, h, r, c), v);
    const ModelConfig& config = s.config();
    if (config.positional == Positional::relative_buckets)  // T5: the bucket of the key's offset from the query
        v.text["bucket"] = std::to_string(relative_position_bucket(c - r, s.id().stack == Stack::encoder,
                                                                   config.relative_buckets, config.relative_max_distance));
}

}  // namespace attnlab
