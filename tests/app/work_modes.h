// The work modes this platform runs (app/model/work_mode.h): a thread of the worker's own and between frames on the
// desktop; between frames only in the web page, which has no threads.
#pragma once

#include "platform/threads.h"
#include "work_mode.h"

#include <vector>

namespace attnlab::gui::test {

inline std::vector<WorkMode> platform_work_modes() {
    if (platform::has_threads()) return {WorkMode::own_thread, WorkMode::between_frames};
    return {WorkMode::between_frames};
}

// The mode the app itself picks here.
inline WorkMode platform_work_mode() {
    return platform::has_threads() ? WorkMode::own_thread : WorkMode::between_frames;
}

}  // namespace attnlab::gui::test
