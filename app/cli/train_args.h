// attnlab-cli train's command line as a typed record: what to train (a task's new model, or an opened one), on
// what (the task, or a file's token windows), how (TrainSettings), and where its results go.
#pragma once

#include "args.h"
#include "commands.h"
#include "train/trainer.h"

#include <optional>
#include <string>
#include <variant>

namespace attnlab::cli {

// An opened model's rate when none is given: Adam at a constant 3·10⁻⁴, a common fine-tuning rate.
inline constexpr float kFineTuningRate = 3e-4f;

struct TrainCommand {
    TrainSettings settings;
    std::optional<std::string> init;      // --init MODEL: a model file or a Hugging Face folder; else settings.task
    std::optional<std::string> text;      // --text FILE, through the model's tokenizer
    std::optional<std::string> data_ids;  // --data-ids FILE
    std::optional<std::string> pairs;     // --pairs FILE: source<TAB>target lines, for an encoder-decoder
    int seq_len = 64;                     // --seq-len: the windows' length
    std::optional<uint64_t> shuffle;      // --shuffle SEED
    std::optional<std::string> log;       // --log FILE.jsonl
    std::optional<std::string> history;   // --history FILE: the induction task's checkpoints and head scores
    int history_every = 50;               // --history-every K
    std::string out;
    int eval_every = 500, eval_size = 500;
    bool quiet = false;
};

// The usage error's one line (without "train: "), or the command.
std::variant<TrainCommand, std::string> parse_train_command(const Argv& argv);

}  // namespace attnlab::cli
