// The relative_buckets case of the score-bias mechanism (score_bias.h): T5's learned bias per head and bucket of
// the key's offset from the query (ops/relative_buckets.h), one step per stack.
#pragma once

#include "forward/step.h"

#include <string>

namespace attnlab {

// The step "encoder.position_bias" / "decoder.position_bias" (H, N, N): bias[h, i, j] = table[bucket(j − i), h]
// over the stack's N tokens (read off the ids `ids_control` names), table the parameter (n_buckets, H) and the
// buckets those of ops/relative_buckets.h up to max_distance. The encoder's buckets are bidirectional, the decoder's
// look back only. Its backward sums dL/dbias of each bucket into the table's gradient.
Step relative_bias_step(Stack stack, const std::string& table, int n_buckets, int max_distance, Control ids_control);

}  // namespace attnlab
