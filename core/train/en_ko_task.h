// The toy English -> Korean translation task (see en_ko_frame.h for its templates and
// en_ko_task.cpp for how the held-out split is chosen).
#pragma once

#include "train/tasks.h"

#include <cstdint>
#include <memory>

namespace attnlab {

inline constexpr int kEnKoHeldoutSize = 500;

std::unique_ptr<Task> make_en_ko_task(uint64_t seed);

}  // namespace attnlab
