// Where the app's background work (a training run, opening a model) runs. The desktop gives it a
// std::thread of its own; the web page is one WebAssembly thread with no std::thread, so there the
// work runs between frames: the app pumps it once a frame for a few milliseconds. Either way the
// work is the same code and gives the same numbers.
#pragma once

namespace attnlab::gui {

enum class WorkMode {
    own_thread,      // started at once on a thread; pump() does nothing
    between_frames,  // does nothing on its own; pump(budget) advances it, once a frame
};

}  // namespace attnlab::gui
