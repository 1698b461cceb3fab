// The guided tour of the paper's sections 3.1-3.5 (assets/tour/tour.json): chapters that each
// set the app up (model, input, view, the step to stop at), say what to look at, and ask the
// learner to do one thing, which the app can see done. Texts in English and Korean.
#pragma once

#include "explain/explanation_table.h"  // Language
#include "result.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// What a chapter asks the learner to do, each something the app can check.
enum class TourTaskKind {
    step_past,               // run the forward pass past `step`
    edit_source,             // change a source token
    toggle_mask_cell,        // click a mask cell
    ablate_head,             // switch an attention head off
    change_temperature,      // move the output view's temperature
    change_pe_dims,          // pick another positional-encoding dimension
    change_experiment_keys,  // change n in the "why √d_k" experiment
};

struct TourText {
    std::string title, look, task, done;  // the chapter's name, what to look at, the task, its praise
};

struct TourChapter {
    std::string id, section;  // "masks", "3.2.3"
    // Setup. model: a file in assets/models, or "tiny"/"base" for a seeded random preset.
    std::string model, src, tgt;
    int src_padding = 0, tgt_padding = 0;                    // <pad> tokens appended to each, as in a batch
    std::string view;                                        // a --view name
    std::string step;                                        // the stepper stops after this step; empty: run everything
    std::string family = "encoder_self", stage = "weights";  // the attention view's choice
    int layer = 0, head = 0;
    bool detail = false;  // the attention detail instead of the grid
    bool playground_experiment = false;
    std::vector<std::string> slides;  // views of the exported slides, after the setup's own
    TourTaskKind task = TourTaskKind::step_past;
    std::string task_step;  // step_past: the step
    TourText text[2];       // [Language::english], [Language::korean]

    const TourText& in(Language language) const { return text[language == Language::korean ? 1 : 0]; }
};

// Parses tour.json. Every chapter needs an id, a section, a model, a view, a known task and all four
// texts in both languages; unknown fields are errors. Errors are one line and start with `source`.
Result<std::vector<TourChapter>> parse_tour(std::string_view json_text, const std::string& source);
// Reads <assets>/tour/tour.json.
Result<std::vector<TourChapter>> load_tour(const std::string& assets_dir);

}  // namespace attnlab
