#include "soak_driver.h"

#include "platform/memory.h"

#include <algorithm>
#include <array>

namespace attnlab::gui {

namespace {

constexpr View kTabs[] = {View::positional, View::attention, View::masks,   View::residual,
                          View::ffn,        View::output,    View::weights, View::training};

constexpr std::array<const char*, 5> kSentences = {"i like red apples", "she reads a book in the park", "apples",
                                                   "the quick zebra",  // zebra: unknown
                                                   "we eat bread and cheese in seoul every day"};

// A model file, the base preset, the tiny preset: the three shapes a session takes in turn.
constexpr int kModelEvery = 100;  // frames between model changes
constexpr int kBaseEvery = 10;    // every tenth model change is the paper-base preset (44M parameters)

// Every 1000 frames the user pauses on one screen: the first bundled model reopened, one sentence,
// the attention grid, no detail, English, light theme, for longer than the heatmap renderer keeps
// an idle texture (120 frames). Memory is sampled at the end of each pause, so every sample sees
// the same model, the same trace and the same textures, whatever the edits before it left behind.
constexpr int kSampleEvery = kBaseEvery * kModelEvery;
constexpr int kPauseFrames = 150;

bool pausing(int frame) { return frame % kSampleEvery < kPauseFrames; }

}  // namespace

SoakDriver::SoakDriver(int frames, std::vector<std::string> model_files)
    : frames_(frames), model_files_(std::move(model_files)), memory_(std::min(2000, frames / 5)) {
    if (model_files_.size() > 1) model_files_.resize(2);  // an even model change is always the first file
}

void SoakDriver::before_frame(App& app, int frame) {
    if (frame % kSampleEvery == 0) {
        change_model(app, frame);
        pause_on_one_screen(app);
    }
    if (pausing(frame)) return;
    if (frame % 10 == 0) app.show_view(kTabs[(frame / 10) % std::size(kTabs)]);
    if (frame % kModelEvery == 0) change_model(app, frame);
    edit(app, frame);
    if (frame % 500 == 250) app.view().settings.korean = !app.view().settings.korean;
    if (frame % 700 == 350) app.view().settings.dark_theme = !app.view().settings.dark_theme;
}

void SoakDriver::change_model(App& app, int frame) {
    const int change = frame / kModelEvery;
    Session& s = app.session();
    bool ok = true;
    if (change % kBaseEvery == kBaseEvery - 1 || model_files_.empty()) {
        RandomModelSpec spec;
        spec.use_preset(change % (2 * kBaseEvery) == kBaseEvery - 1 ? "base" : "tiny");
        spec.seed = static_cast<uint64_t>(change);
        ok = s.new_random_model(spec);
    } else {
        const std::string& path = model_files_[static_cast<size_t>(change) % model_files_.size()];
        app.open_dropped_file(path);
        ok = s.error().empty();
    }
    failed_commands_ += ok ? 0 : 1;
}

void SoakDriver::pause_on_one_screen(App& app) {
    Session& s = app.session();
    failed_commands_ += s.set_src_text(kSentences[1]) ? 0 : 1;
    s.run_to(s.stepper().size());
    app.show_view(View::attention);
    app.view().attention.detail_open = false;
    app.view().settings.korean = false;
    app.view().settings.dark_theme = false;
}

// The small edits between model changes; an edit the model refuses (a mask of another shape) is fine.
void SoakDriver::edit(App& app, int frame) {
    Session& s = app.session();
    const Stepper& stepper = s.stepper();
    switch (frame % 7) {
        case 1: s.set_src_text(kSentences[static_cast<size_t>(frame / 7) % kSentences.size()]); break;
        case 2: s.toggle_mask_cell(AttentionUse::decoder_self, frame % 3, (frame / 3) % 4); break;
        case 3: s.toggle_head({AttentionUse::encoder_self, 0}, (frame / 7) % 4); break;
        case 4: s.run_to(static_cast<size_t>(frame * 37) % (stepper.size() + 1)); break;
        case 5:
            app.view().attention.detail_open = !app.view().attention.detail_open;
            app.view().attention.stage = static_cast<AttentionStage>((frame / 7) % 8);
            break;
        case 6: s.run_to(stepper.size()); break;
        default: break;
    }
    s.clear_error();
}

void SoakDriver::after_frame(int frame) {
    if (frame % kSampleEvery == kPauseFrames - 1) memory_.sample(frame, platform::resident_kib());
}

}  // namespace attnlab::gui
