// The attnlab command line: what to open and whether to run headless (screenshot, frame bench).
#pragma once

#include "backward/loss.h"
#include "config.h"
#include "forward/step_id.h"
#include "result.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// A head to switch off at launch (--head-off USE:LAYER:HEAD, e.g. decoder_self:0:1).
struct LaunchHead {
    AttentionSite site;
    int head = 0;
    bool operator==(const LaunchHead&) const = default;
};

struct LaunchOptions {
    std::optional<std::string> screenshot;  // write a PNG after `frames` frames and exit
    int frames = 4;
    std::optional<std::string> view;    // the tab to show (see view_id)
    std::optional<std::string> src;     // source sentence (--src, or the text of --src-file)
    std::optional<std::string> preset;  // tiny | base: a seeded random model
    std::optional<std::string> model;   // a .safetensors file
    int bench_frames = 0;               // render this many frames and print p50/p95
    std::optional<int> bench_edit;      // type a letter after this token of the prompt, time the re-run (bench_edit.h)
    int soak_frames = 0;                // drive the app this many frames (see SoakDriver); exit 1 if memory grew
    std::optional<int> step;            // run the forward pass up to this many steps (default: all)
    int width = 1600, height = 900;
    bool korean = false;
    bool presentation = false;               // large fonts (F11 in the app; fullscreen only when interactive)
    bool light = false;                      // the light theme
    bool classroom = false;                  // classroom mode (F5 in the app)
    bool predict = false;                    // predict mode (P): a step's output stays covered until R
    std::optional<int> tour;                 // open this chapter of the guided tour (1-based)
    std::optional<std::string> tour_slides;  // write the chapter's slides into this folder and exit
    bool fresh_settings = false;             // ignore and do not write the settings file
    bool help = false;                       // --help / -h: print the usage and exit
    std::optional<std::string> settings;     // start from this view-state JSON instead (not written back)
    int train_steps = 0;                     // start a training run of this many steps at launch; a
                                             // screenshot waits until it has finished
    std::optional<std::string> train_task;   // that run's task (default: the Training view's choice)
    std::optional<std::string> train_on;     // or: train the opened model on this file (ids when it ends in .ids)
    int generate_tokens = 0;                 // start the Output view's generation token by token at launch; a
                                             // screenshot is taken as this many new tokens have appeared
    std::vector<std::string> switches;       // --switch NAME, in order: the Model view's switches set at launch
    std::vector<LaunchHead> heads_off;       // --head-off USE:LAYER:HEAD, each once: heads switched off at launch
    std::optional<float> scale;              // the screen's content scale (default: the system's)
    bool check_tour_target = false;          // with --tour and --screenshot: exit 1 if the task's widget is off screen
    std::optional<int> threads;              // --threads N: the forward pass's threads (default: every core)
    bool backward = false;                   // --backward: run the backward pass to its end (the gradient views)
    std::optional<LossSpec> loss;            // --loss SPEC: the loss the backward pass starts from
};

Result<LaunchOptions> parse_launch_options(const std::vector<std::string>& args);
// Sets one --switch in `config`: pre-ln, post-ln, relu, gelu, gelu-tanh, silu, sinusoidal, learned-positions,
// no-positions, interleaved-sinusoids, halved-sinusoids, scale-embedding, no-scale-embedding, final-norm or
// no-final-norm. False for another name.
bool apply_launch_switch(const std::string& name, ModelConfig& config);
// The --help text; its list of views is every view --view accepts.
std::string launch_usage();

}  // namespace attnlab::gui
