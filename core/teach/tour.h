// The guided tour of the paper's sections 3.1-3.5 (assets/tour/tour.json): chapters that each
// set the app up (model, input, view, the step to stop at), say what to look at, and ask the
// learner to do one thing, which the app can see done. Texts in English and Korean. Consecutive
// chapters may form a part (one title over them, as "From the paper to today's models"), and a
// chapter may name what its model must have (rotary positions, a gated FFN, ...).
#pragma once

#include "config.h"
#include "explain/explanation_table.h"  // Language
#include "result.h"

#include <optional>
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
    change_rope_rows,        // move the RoPE view's query m or key n
    switch_norm_placement,   // flip the Model view's pre-norm / post-norm switch
    scrub_checkpoint,        // move the training view's slider to another checkpoint of the model's history
    ablate_strongest_head,   // switch off the head with the largest share of the chapter's metric (its `metric`)
};

// What a chapter's task asks the learner to watch, apart from the widget the task uses: the headless check
// (--check-tour-target) wants each fully on screen together with that widget.
enum class TourWatch {
    rope_pairs,     // the RoPE view's pair circles
    rope_score,     // the RoPE view's plot of the score against the offset
    padding_masks,  // the Masks view's source and target padding masks
    ffn_rows,       // the FFN view's zoomed units, one row per token
};

// What a chapter's text and views need the model to have; the tour keeps a model the learner opened when it
// has them all, and otherwise opens the chapter's own model, which must have them.
enum class TourNeed {
    decoder_only,   // one stack with a causal mask, no encoder and no cross-attention
    pre_norm,       // x + Sublayer(Norm(x)): the norm before each sublayer
    rms_norm,       // x/√(mean(x²) + ε)·γ instead of LayerNorm
    rotary,         // RoPE: q and k turned inside each attention, no PE added
    gated_ffn,      // (act(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ
    grouped_query,  // fewer K/V heads than query heads (H_kv < H)
    translator,     // an encoder-decoder: an encoder, and a decoder whose cross-attention reads it
};
const char* tour_need_name(TourNeed need);  // "rotary": as tour.json spells it
bool meets(const ModelConfig& config, TourNeed need);
// The first need `config` lacks, or none.
std::optional<TourNeed> first_unmet(const ModelConfig& config, const std::vector<TourNeed>& needs);

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
    bool positional_compare = false;  // the Positional view shows every scheme side by side (its layer and head)
    std::vector<std::string> slides;  // views of the exported slides, after the setup's own
    TourTaskKind task = TourTaskKind::step_past;
    std::string task_step;         // step_past: the step
    // The Output view's "Why this output?" opens on this metric (analysis/attribution_metric.h's spelling,
    // "logit-diff:32,34@0"); empty: the view stays as it was. ablate_strongest_head needs one.
    std::string metric;
    std::string corrupt;  // the Input view's corrupted sentence, for the Output view's patching; empty: left as it was
    std::string piece;    // the Patching tab's piece ("cross-heads"); empty: left as it was
    TourText text[2];              // [Language::english], [Language::korean]
    std::vector<TourNeed> needs;   // what the model must have; empty: whatever `model` is
    std::vector<TourWatch> watch;  // what the task says to watch, beside its widget
    // The part the chapter belongs to ("" for none): its title in each language, and where the chapter stands
    // in it (0-based, of part_size consecutive chapters).
    std::string part;
    std::string part_title[2];
    int part_index = 0, part_size = 0;

    const TourText& in(Language language) const { return text[language == Language::korean ? 1 : 0]; }
    const std::string& part_title_in(Language language) const {
        return part_title[language == Language::korean ? 1 : 0];
    }
};

// Parses tour.json. Every chapter needs an id, a section, a model, a view, a known task and all four
// texts in both languages; unknown fields are errors. "parts" (optional) lists {id, en, ko} titles; a
// chapter's "part" names one, and a part's chapters stand together. "needs" is an array of
// tour_need_name()s, "watch" an array of "rope_pairs", "rope_score", "padding_masks", "ffn_rows". Errors are one line and start with `source`.
Result<std::vector<TourChapter>> parse_tour(std::string_view json_text, const std::string& source);
// Reads <assets>/tour/tour.json.
Result<std::vector<TourChapter>> load_tour(const std::string& assets_dir);

}  // namespace attnlab
