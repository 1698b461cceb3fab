#include "forward/mechanisms/architecture.h"

#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "forward/mechanisms/score_bias.h"
#include "forward/mechanisms/stream_multipliers.h"

namespace attnlab {

std::string describe_architecture(const ModelConfig& c) {
    std::string s = to_string(c.arch) + ", " + NormMechanism(c).describe() + ", " + FeedForwardMechanism(c).describe() +
                    ", " + PositionMechanism(c).describe();
    if (c.kv_heads() != c.n_heads)
        s += ", " + std::to_string(c.n_heads) + " query heads sharing " + std::to_string(c.kv_heads()) + " K/V head" +
             (c.kv_heads() == 1 ? "" : "s");
    if (const HeadNormMechanism head_norm(c); head_norm.on()) s += ", " + head_norm.describe();
    if (const ScoreBiasMechanism bias(c); bias.on()) s += ", " + bias.describe();
    if (c.sliding_window > 0) s += ", sliding window " + std::to_string(c.sliding_window);
    if (const StreamMultiplierMechanism multipliers(c); !multipliers.describe().empty())
        s += ", " + multipliers.describe();
    return s;
}

}  // namespace attnlab
