// The training tasks the project makes itself, deterministic from a seed:
//   copy, reverse, sort  - sequences of letters, the target is the source copied/reversed/sorted;
//   en-ko                - template English sentences and their Korean translations (SVO -> SOV,
//                          particles 는/은, 를/을, 에, ...), e.g. "i like red apples" -> "나 는 빨간 사과 를 좋아해".
// Every task has a held-out split that training never samples. For en-ko it holds word
// combinations never seen together in training.
#pragma once

#include "result.h"
#include "text/vocab.h"
#include "train/batch.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace attnlab {

// One example as words (word tokenizer: tokens are joined by single spaces to make the text).
struct TextPair {
    std::vector<std::string> src, tgt;
};

class Task {
public:
    virtual ~Task() = default;
    virtual const std::string& name() const = 0;
    // Both start with <pad> <sos> <eos> <unk> at ids 0..3.
    virtual const Vocab& src_vocab() const = 0;
    virtual const Vocab& tgt_vocab() const = 0;
    // A fresh training example; never one of heldout().
    virtual TextPair sample_train(std::mt19937_64& rng) const = 0;
    // The held-out split, fixed by the seed the task was made with.
    virtual const std::vector<TextPair>& heldout() const = 0;
    // Examples shown to a user first (e.g. the app's example list): a few held-out pairs.
    virtual std::vector<TextPair> examples() const = 0;
};

std::vector<std::string> task_names();  // {"copy", "reverse", "sort", "en-ko"}
// Error for an unknown name (lists the known ones).
Result<std::unique_ptr<Task>> make_task(const std::string& name, uint64_t seed);

// Words -> ids through the task's vocabularies (asserts every word is known).
TokenPair to_token_pair(const Task& task, const TextPair& pair);

}  // namespace attnlab
