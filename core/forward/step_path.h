// The user-visible names of steps and attentions: encoder.layers.0.self_attn.scaled, masks.cross,
// logits, … Built here and nowhere else, from the typed id; never parsed back. They are the keys
// of a trace file and what `attnlab-cli steps` lists.
#pragma once

#include "forward/step.h"
#include "forward/step_id.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

std::string step_path(const StepId& id);
std::vector<std::string> step_paths(const std::vector<StepId>& ids);  // each one's, in order (a step's inputs)
// "decoder.layers.1.cross_attn": the prefix of the attention's stage paths.
std::string attention_name(const AttentionSite& site);
// "encoder.layers.0": the prefix of a layer's step paths.
std::string layer_name(Stack stack, int layer);
const char* to_string(AttentionStage stage);
// The attention of `steps` whose name is `name` (as attention_name writes it), or nullopt.
std::optional<AttentionSite> find_attention(
    const std::vector<Step>& steps, const std::string& name);  // "q", "scores", …: the last part of a stage's path

}  // namespace attnlab
