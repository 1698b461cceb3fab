// A training history (train/training_history.h) as one .safetensors file:
//   checkpoint.<i>.<param>     checkpoint i's weights, named as in a model file (io/model_file.h)
//   history.step               (n)            steps, strictly increasing
//   history.loss               (n)            the batch loss; NaN where there was none (step 0)
//   history.first_copy         (n)            the induction task's two losses
//   history.second_copy        (n)
//   history.induction          (n, layers, H) every self-attention head's detector scores
//   history.previous_token     (n, layers, H)
//   history.duplicate_token    (n, layers, H)
// and in __metadata__ what a model file keeps there (config, vocabularies, tokenizer, training), plus
// "history": {"format": 1, "detect_length": L}. Checkpoint i opens as a model: TrainingHistory::at(i).
#pragma once

#include "io/safetensors.h"
#include "train/training_history.h"

#include <string>

namespace attnlab {

io::SafetensorsFile history_to_safetensors(const TrainingHistory& history);
Status write_training_history(const std::string& path, const TrainingHistory& history);  // atomic

// Errors are one line starting with source_name: not a history (no "history" metadata), a missing or misshapen
// history tensor, a step out of order, a score outside [0, 1], a checkpoint's weights that do not fit the config,
// a tensor of neither kind.
Result<TrainingHistory> history_from_safetensors(io::SafetensorsFile file, const std::string& source_name);
Result<TrainingHistory> read_training_history(const std::string& path);

// Whether a file name is a history's, by the name it is saved under beside its model: "*.history.safetensors".
// A model list leaves such files out: they open as histories, not as models.
bool is_training_history_file(const std::string& name);

}  // namespace attnlab
