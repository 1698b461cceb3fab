// TourRunner: the guided tour as the app runs it. Which chapter is open, setting the session and
// the view up for it, and whether the learner has done its task (compared with how the chapter
// left things). No drawing here: panels/tour_panel.cpp draws the chapter's card.
#pragma once

#include "result.h"
#include "session.h"
#include "teach/tour.h"
#include "tour_prediction.h"
#include "view_state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab::gui {

// A chapter's "model" for the tour's own seeded random model in the Llama template (decoder-only, pre-norm
// RMSNorm, RoPE, SwiGLU, grouped-query attention), and the name the session shows for it.
inline constexpr const char* kLlamaTinyModel = "llama-tiny";
inline constexpr uint64_t kLlamaTinySeed = 1;
std::string llama_tiny_name();

// Which model a chapter with needs runs on: the one the learner had open (kept), or the chapter's own; and
// when the learner's own model (a GPT-2, BERT, Llama-family or Marian folder) was replaced, the need it lacked.
// A kept model whose own input would show nothing gets one from the tour: ids typed for a model without a
// tokenizer whose prompt was a single token (every head a 1x1 square), or a translation for a translator whose
// target was only its start token (one cross-attention row); the card says which.
struct TourModelChoice {
    enum class Input { as_opened, typed_ids, translated };
    bool kept = false;
    std::optional<TourNeed> missing;
    Input input = Input::as_opened;
    int n_typed_ids = 0;  // Input::typed_ids: how many
};

// The ids the tour types for a model without a tokenizer: twelve small ones, each below `vocab_size`.
std::vector<int> tour_typed_ids(int vocab_size);

class TourRunner {
public:
    // Reads <assets>/tour/tour.json; a missing or broken file leaves the tour empty and says why.
    Status load(const std::string& assets_dir);
    void use_chapters(std::vector<TourChapter> chapters) { chapters_ = std::move(chapters), current_ = -1; }  // tests
    const std::vector<TourChapter>& chapters() const { return chapters_; }
    bool active() const { return current_ >= 0; }
    int current() const { return current_; }  // -1: no chapter open
    const TourChapter* chapter() const { return active() ? &chapters_[static_cast<size_t>(current_)] : nullptr; }

    // Sets the app up for chapter `index`: its model (reopened, so earlier edits are gone), input,
    // step and view. A chapter with needs keeps the open model instead when it has them all (and is
    // not the tour's own): its input stays and its edits are undone. On an error (a model that does
    // not load or lacks a need, an unknown step or view name) the tour closes and the session keeps
    // whatever did load.
    Status open(int index, Session& session, ViewState& view, const std::string& assets_dir);
    // Ends the tour, and predict mode with it: a class that used P in the tour would otherwise find
    // every later step covered, with no chapter card to say why.
    void close(ViewState& view);
    bool task_done(const Session& session, const ViewState& view) const;
    const TourModelChoice& model_choice() const { return model_choice_; }  // for the open chapter
    // Whether stepping keeps the chapter's view (a chapter that asks to step on, through the residual stream or
    // the FFN, is about that view, not about each step's own): the App then does not follow the cursor's step.
    bool keeps_view() const { return chapter() && chapter()->task == TourTaskKind::step_past; }
    // A chapter whose task switches a head off, once a head is off on the setup's input: what that did to the
    // Output view's first prediction (the last position's); nullopt otherwise, or before the probs step has run.
    std::optional<PredictionChange> head_off_change(const Session& session) const;
    // ablate_strongest_head: the head with the largest |share| of the chapter's metric on the setup's run (its
    // attention and head), once that run has its logits; nullopt before, or for another task.
    std::optional<std::pair<AttentionSite, int>> strongest_head(const Session& session) const;

private:
    // What the chapter's setup left, to compare the learner's edits with.
    struct Baseline {
        ForwardInputs inputs;
        float temperature = 1.0f;
        int pe_dims[2] = {0, 0};
        int experiment_keys = 0;
        int rope_rows[2] = {0, 0};  // the RoPE view's query m and key n
        bool norm_first = false;    // the live config's norm placement
        Weights weights;            // the model as loaded (shared tensors): a checkpoint moved to swaps them
    };
    std::vector<TourChapter> chapters_;
    int current_ = -1;
    Baseline baseline_;
    // (V,) the setup's last-position p: read from the trace once the setup's run has reached the probs step (in
    // the app that run may end frames after open()), so a cache head_off_change() fills.
    mutable std::vector<float> setup_probs_;
    mutable std::optional<std::pair<AttentionSite, int>> strongest_;  // strongest_head()'s, read once
    TourModelChoice model_choice_;
};

}  // namespace attnlab::gui
