// The letter-sequence tasks copy, reverse and sort: a source of 3..8 distinct letters from a..t,
// the target is the same letters copied, reversed or sorted.
#pragma once

#include "train/tasks.h"

#include <cstdint>
#include <memory>

namespace attnlab {

enum class SequenceKind { copy, reverse, sort };

inline constexpr int kSequenceAlphabetSize = 20;  // "a".."t"
inline constexpr int kSequenceMinLength = 3;
inline constexpr int kSequenceMaxLength = 8;
inline constexpr int kSequenceHeldoutSize = 500;

std::unique_ptr<Task> make_sequence_task(SequenceKind kind, uint64_t seed);

}  // namespace attnlab
