// What a trace keeps between runs. Keeping every stage's output of a 1B model at 2,048 tokens would take tens of
// GiB (16 layers of (32, T, T) attention weights are 8 GiB alone), so past a size the trace keeps checkpoints and
// recomputes the rest, bit for bit, when a view asks for it.
#pragma once

#include "forward/step.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace attnlab {

enum class TraceKeep {
    automatic,    // checkpoints when the standard trace's large arrays would pass kStandardTraceLargeBytes
    standard,     // every output except the cheap on-demand stages (retention_of, step.h)
    checkpoints,  // the residual stream, each attention's Q, K and V (what an appended token reads), the stack
                  // outputs, the logits, and the steps that read no step (embeddings, masks, position tables); a
                  // layer's other stages are recomputed from its input when asked for
};

// Above this, automatic means checkpoints: GPT-2 small at 1,024 tokens keeps 1.0 GiB of such arrays and stays
// standard; SmolLM2-135M at 1,024 (1.4 GiB) and a 1B model at 2,048 (10 GiB) keep checkpoints.
inline constexpr int64_t kStandardTraceLargeBytes = int64_t{1} << 30;

// The bytes of the standard trace's arrays that grow with a product of lengths: each attention's weights
// (H, N, M) and the (N, V) logits and probabilities, for sequences of src_len and tgt_len tokens.
int64_t standard_trace_large_bytes(const std::vector<Step>& steps, const ModelConfig& config, int64_t src_len,
                                   int64_t tgt_len);
// The policy in force: `choice`, or for automatic the one large_bytes calls for (never automatic). An automatic
// trace keeping checkpoints (`now`) goes back to standard only below half the threshold, so a length near it does not
// switch, and recompute every kept output, at each token typed or taken back.
TraceKeep resolve_trace_keep(TraceKeep choice, int64_t large_bytes, TraceKeep now = TraceKeep::standard);
// Sets every step's retention under `keep` (resolved).
void assign_retentions(std::vector<Step>& steps, TraceKeep keep);

const char* to_string(TraceKeep keep);                            // "automatic", "standard", "checkpoints"
std::optional<TraceKeep> trace_keep_named(std::string_view name);  // the inverse; nullopt for another word

}  // namespace attnlab
