// `attnlab --soak N`: N headless frames of a restless user, to show that memory stays flat.
// Every frame does what a student might: opens the bundled models in turn, switches between the
// tiny and paper-base presets, types new sentences, toggles mask cells and heads, steps the
// forward pass, opens the attention detail, and flips tabs, language and theme. Every 1000 frames
// it pauses on one screen, and resident memory is sampled there.
#pragma once

#include "app.h"
#include "resident_memory.h"

#include <string>
#include <vector>

namespace attnlab::gui {

class SoakDriver {
public:
    SoakDriver(int frames, std::vector<std::string> model_files);

    void before_frame(App& app, int frame);  // this frame's user action
    void after_frame(int frame);             // samples resident memory at the end of each pause
    bool finished(int frame) const { return frame >= frames_; }
    // Commands that failed, e.g. a model that did not load: a soak that did nothing proves nothing.
    int failed_commands() const { return failed_commands_; }
    const MemoryTrend& memory() const { return memory_; }

private:
    void change_model(App& app, int frame);
    void pause_on_one_screen(App& app);
    void edit(App& app, int frame);

    int frames_;
    std::vector<std::string> model_files_;
    MemoryTrend memory_;
    int failed_commands_ = 0;
};

}  // namespace attnlab::gui
