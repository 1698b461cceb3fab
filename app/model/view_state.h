// ViewState: what the user is looking at (tab, layer, head, stage, token, ...) and the
// app's settings. A plain struct, persisted as JSON between runs; no derived state.
#pragma once

#include "analysis/run_b.h"
#include "result.h"
#include "session.h"
#include "teach/hand_attention.h"
#include "teach/hand_presets.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

enum class View {
    input,
    model,
    positional,
    attention,
    masks,
    residual,
    ffn,
    output,
    stepper,
    weights,
    training,
    playground,
    analysis
};
inline constexpr View kAllViews[] = {View::input,    View::model,      View::positional, View::attention, View::masks,
                                     View::residual, View::ffn,        View::output,     View::stepper,   View::weights,
                                     View::training, View::playground, View::analysis};
const char* view_id(View v);  // "attention", ... (the --view names)
bool view_from_id(const std::string& id, View& out);

// The attention view's choices are core's AttentionUse (its family) and AttentionStage, saved by name
// (to_string of each).
bool attention_use_from_id(const std::string& id, AttentionUse& out);
bool attention_stage_from_id(const std::string& id, AttentionStage& out);  // "q", "scores", … as step paths end

// The training view's form: what the next run trains, and how its curves are drawn.
struct TrainForm {
    std::string task = "en-ko";  // see task_names()
    std::string preset = "tiny";
    int steps = 3000;
    int seed = 1;
    int batch_size = 64;
    int threads = 0;       // the batch is split across this many threads; 0: every core but one (the UI's)
    int eval_every = 0;    // steps between held-out evaluations; 0: automatic
    bool log_loss = true;  // the loss curve's y axis is logarithmic
};

// The playground: a hand calculation of one small attention, and the "why √d_k" experiment.
enum class PlaygroundPreset { none, notes, look_ahead, random };  // its description shows until the first edit
struct PlaygroundState {
    bool experiment = false;  // the experiment instead of the hand calculation
    bool show_inputs = true;  // off: only the results, for a projector once the numbers are typed
    HandSpec spec = notes_worked_example();
    PlaygroundPreset preset = PlaygroundPreset::notes;
    int focus_row = 0, focus_col = 1;  // the query and key whose arithmetic is written out
    int random_seed = 1;               // the Random preset's next draw
    int experiment_keys = 8;           // scores per softmax row
    int experiment_seed = 1;
};

// The Analysis view's circuits tool: which head, which circuit, over which tokens.
struct CircuitChoice {
    bool ov = false;       // the OV circuit instead of the QK circuit
    bool encoder = false;  // the encoder's head, in a model that has both stacks (else the one it has)
    int layer = 0, head = 0;
    std::string tokens;  // the tokens to show, separated by spaces; empty: the sentence's own
    int focus = 0;       // the list's token whose whole-vocabulary ranking is listed
};

// The Analysis view's compare tool: what run B is, and which of its tensors is shown.
struct CompareChoice {
    bool other_model = false;  // B is another model (other_path); else this model with `ablated` heads off
    std::string other_path;    // a model file or Hugging Face folder
    std::vector<AttentionHead>
        ablated;       // switched off in B only; saved as {"use": "decoder_self", "layer": 1, "head": 2}
    std::string step;  // the step whose B − A is drawn; empty: the last one both have
    int slice = 0;     // the first index of a 3-D tensor (the head)
};

struct ViewState {
    // settings
    bool korean = false;
    bool dark_theme = true;
    bool presentation = false;  // F11: fullscreen, large fonts
    bool classroom = false;     // F5: one view at a time, large fonts, a laser pointer, keyboard control
    bool predict = false;       // P: stepping forward covers the view until R reveals it
    float font_scale = 1.0f;
    std::vector<std::string> recent_files;

    // what is shown
    View tab = View::attention;
    AttentionUse family = AttentionUse::encoder_self;
    int layer = 0, head = 0;
    bool detail_open = false;
    bool line_view = false;  // BertViz-style lines instead of a matrix
    AttentionStage stage = AttentionStage::weights;
    int cell_row = 0, cell_col = 0;  // the pinned (clicked) cell of the detail view
    int token = 0;                   // the residual-flow view's chosen token
    int pe_dims[2] = {0, 6};
    int ffn_layer = 0;
    bool ffn_decoder = false;         // the FFN view's stack
    bool ffn_pre_activation = false;  // show ffn.hidden instead of ffn.activation
    int ffn_zoom_first = 0;           // first unit of the FFN view's zoom
    int top_k = 5;
    int analysis_tool = 0;  // the Analysis view: 0 logit lens, 1 head summary, 2 embeddings, 3 circuits, 4 compare
    int lens_first_position = 0;  // the logit lens's first column
    int head_stat = 0;            // the head summary's heatmap: 0 entropy, 1 previous, 2 first, 3 self
    std::string embedding_token;  // the embeddings tool's chosen token, as the vocabulary writes it
    CircuitChoice circuit;
    CompareChoice compare;
    float temperature = 1.0f;
    // The output view's generation: Sample draws with top_k (0: all) and top_p (1: all), as
    // core/sampling.h; off, it takes the argmax. sample_seed is the next draw's seed.
    bool sample = false;
    int sample_seed = 1;
    float top_p = 1.0f;
    std::string weight_name;
    std::string weight_filter;     // the parameter picker's search words
    RandomModelSpec random_model;  // the Model view's "New random model" form
    TrainForm train;
    PlaygroundState playground;
    std::optional<View> bring_forward;  // a panel asks for another view this frame (not saved)
    bool hidden = false;                // predict mode: the view's newest output is covered until revealed
    bool playing = false;
    float steps_per_second = 4.0f;

    std::string to_json() const;
    // Unknown or malformed fields keep their defaults: an old settings file never blocks start-up.
    static ViewState from_json(const std::string& text);
};

// $XDG_CONFIG_HOME/attnlab/settings.json, or ~/.config/attnlab/settings.json.
std::string settings_path();
ViewState load_view_state();
Status save_view_state(const ViewState& state);  // atomic
void remember_recent_file(ViewState& state, const std::string& path);

}  // namespace attnlab::gui
