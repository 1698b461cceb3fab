// ViewState: what the user is looking at (tab, layer, head, stage, token, ...) and the
// app's settings. A plain struct, persisted as JSON between runs; no derived state.
#pragma once

#include "analysis/run_b.h"
#include "fields.h"
#include "generation_player.h"
#include "result.h"
#include "session.h"
#include "teach/hand_attention.h"
#include "teach/hand_presets.h"
#include "train/training_data.h"

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

// The app's settings: language, look and the modes of the whole window.
struct Settings {
    bool korean = false;
    bool dark_theme = true;
    bool presentation = false;  // F11: fullscreen, large fonts (not saved: a launch or a key turns it on)
    bool classroom = false;     // F5: one view at a time, large fonts, a laser pointer, keyboard control (not saved)
    bool predict = false;       // P: stepping forward covers the view until R reveals it (not saved)
    float font_scale = 1.0f;
    std::vector<std::string> recent_files;

    template <class Visit>
    void fields(Visit&& v) {
        v("korean", korean);
        v("dark_theme", dark_theme);
        v("font_scale", font_scale, clamped(0.5f, 3.0f));
        v("recent_files", recent_files);
    }
};

// The Attention view's "Knockout" (attention knockout, app/model/knockout_tool.h): a click on a cell of the weights
// blocks that query → key edge in this head or every head of the layer, on a copy of the run (the user's mask is
// not edited); the grid shows every edge's change. The metric is "Why this output?"'s. An edge past the input's
// end shows nothing.
struct KnockoutViewState {
    bool on = false;
    bool every_head = false;  // the edge in every head of the layer, else in the shown head
    bool grid = false;        // the whole layer's grid of changes instead of the weights
    int query = -1, key = -1;  // the knocked-out edge (−1: none)

    template <class Visit>
    void fields(Visit&& v) {
        v("on", on);
        v("every_head", every_head);
        v("grid", grid);
        v("query", query);
        v("key", key);
    }
};

// The attention view: which attention, head and stage, and the detail view's pinned cell.
struct AttentionViewState {
    AttentionUse family = AttentionUse::encoder_self;
    int layer = 0, head = 0;
    bool detail_open = false;
    bool line_view = false;  // BertViz-style lines instead of a matrix
    AttentionStage stage = AttentionStage::weights;
    int cell_row = 0, cell_col = 0;  // the pinned (clicked) cell of the detail view
    // The detail matrix's zoom over the fit and the cell at its centre, as fractions of the matrix
    // (app/gui/widgets/matrix_zoom.h): kept while the head, layer or stage changes, to compare them in one place.
    float zoom = 1.0f;
    float zoom_x = 0.5f, zoom_y = 0.5f;
    KnockoutViewState knockout;

    template <class Visit>
    void fields(Visit&& v) {
        v("family", family);
        v("layer", layer);
        v("head", head);
        v("detail_open", detail_open);
        v("line_view", line_view);
        v("stage", stage);
        v("cell_row", cell_row);
        v("cell_col", cell_col);
        v("zoom", zoom, clamped(1.0f, 1.0e6f));
        v("zoom_x", zoom_x, clamped(0.0f, 1.0f));
        v("zoom_y", zoom_y, clamped(0.0f, 1.0f));
        v("knockout", knockout);
    }
};

// The RoPE view (a rotary model's positional view): the head, and the query and key rows it follows.
struct RopeViewState {
    int layer = 0, head = 0;
    int query = 7, key = 3;   // m and n; the panel clamps them to the prompt
    bool pair_waves = false;  // the score curve's terms, one per pair

    template <class Visit>
    void fields(Visit&& v) {
        v("layer", layer);
        v("head", head);
        v("query", query);
        v("key", key);
        v("pair_waves", pair_waves);
    }
};

// The positional view's comparison of the schemes (app/model/position_comparison.h), shown instead of the model's
// own encoding when on; beside the schemes, the model's attention at this layer and head of its first stack.
struct PositionCompareState {
    bool on = false;
    int layer = 0, head = 0;

    template <class Visit>
    void fields(Visit&& v) {
        v("on", on);
        v("layer", layer);
        v("head", head);
    }
};

// The positional-encoding view: the two dimensions drawn as curves; RoPE's choices; the comparison.
struct PositionalViewState {
    int dims[2] = {0, 6};
    RopeViewState rope;
    PositionCompareState compare;

    template <class Visit>
    void fields(Visit&& v) {
        v("dims", dims);
        v("rope", rope);
        v("compare", compare);
    }
};

// The residual-flow view: the token whose stream is followed.
struct ResidualViewState {
    int token = 0;
    // The contribution graph instead of the stream (panels/contribution_graph.h): its token (−1: the last) and
    // threshold (the LLM Transparency Tool's default).
    bool contribution = false;
    int flow_token = -1;
    float flow_threshold = 0.04f;

    template <class Visit>
    void fields(Visit&& v) {
        v("token", token);
        v("contribution", contribution);
        v("flow_token", flow_token);
        v("flow_threshold", flow_threshold, clamped(0.0f, 1.0f));
    }
};

// The FFN view: which layer of which stack, before or after the activation, and the zoom.
struct FfnViewState {
    int layer = 0;
    bool decoder = false;                 // the decoder's FFN, else the encoder's (or the only stack's)
    bool pre_activation = false;          // show ffn.hidden instead of ffn.activation
    FfnPart gated_part = FfnPart::gated;  // a gated FFN's part shown: gate, activation, up or gated
    int zoom_first = 0;                   // first unit of the zoom (not saved)
    int router_token = -1;                // the token whose chosen experts' units the router view shows (not saved)

    template <class Visit>
    void fields(Visit&& v) {
        v("layer", layer);
        v("decoder", decoder);
        v("pre_activation", pre_activation);
        v("gated_part", gated_part);
    }
};

// The output view: the bars and the generation. Sample draws with top_k (0: all) and top_p (1: all),
// as core/sampling.h; off, it takes the argmax. sample_seed is the next draw's seed.
// The Output view's "Why this output?" (attribution_tool.h): the metric picked (−1: its default, not saved: ids
// and positions belong to one model and input) and the component selected (a head: its grid row and head; or an FFN).
struct WhyOutputState {
    bool open = false;  // the view shows "Why this output?" instead of the probabilities
    bool diff = false;  // logit-diff:A,B@POS, else logit:A@POS
    int token = -1, other = -1, position = -1;
    int row = -1, head = -1;  // the selected head; −1: the strongest
    int ffn_layer = -1;       // the selected FFN, when no head is selected

    template <class Visit>
    void fields(Visit&& v) {
        v("open", open);
        v("diff", diff);
    }
};

// The Output view's "Patching" (activation patching, app/model/patching_run.h): the corrupted sentence the Input
// view takes (the source of a model with an encoder, else the prompt; token ids for a model without a vocabulary),
// the piece whose grid shows, raw or normalised, and the cell clicked (not saved). The metric is "Why this output?"'s.
struct PatchingViewState {
    bool open = false;               // the view shows "Patching" (why.open is then false)
    std::string corrupt;             // the corrupted sentence as typed
    std::string piece = "residual";  // a PatchPiece's to_string name
    bool normalised = true;          // (patched − corrupted) / (clean − corrupted), else the metric itself
    int row = -1, col = -1;          // the clicked cell (−1: none)

    template <class Visit>
    void fields(Visit&& v) {
        v("open", open);
        v("corrupt", corrupt);
        v("piece", piece);
        v("normalised", normalised);
    }
};

struct OutputViewState {
    int top_k = 5;
    float temperature = 1.0f;
    bool sample = false;
    int sample_seed = 1;
    float top_p = 1.0f;
    float tokens_per_second = 1.5f;  // the animated generation's speed
    GenerationPlayer animation;      // generation token by token (not saved)
    WhyOutputState why;
    PatchingViewState patching;

    GenerationChoice choice() const { return {sample, temperature, top_k, top_p, tokens_per_second}; }

    template <class Visit>
    void fields(Visit&& v) {
        v("top_k", top_k);
        v("temperature", temperature);
        v("sample", sample);
        v("sample_seed", sample_seed);
        v("top_p", top_p);
        v("tokens_per_second", tokens_per_second, clamped(0.25f, 10.0f));
        v("why", why);
        v("patching", patching);
    }
};

// The weights view: the parameter shown, and the picker's search words.
struct WeightsViewState {
    std::string name;
    std::string filter;  // not saved

    template <class Visit>
    void fields(Visit&& v) {
        v("name", name);
    }
};

// The Analysis view's circuits tool: which head, which circuit, over which tokens.
struct CircuitChoice {
    bool ov = false;       // the OV circuit instead of the QK circuit
    bool encoder = false;  // the encoder's head, in a model that has both stacks (else the one it has)
    int layer = 0, head = 0;
    std::string tokens;   // the tokens to show, separated by spaces; empty: the sentence's own
    int rope_offset = 0;  // a rotary model's QK circuit: the query this many positions after the key
    int focus = 0;        // the list's token whose whole-vocabulary ranking is listed (not saved)

    template <class Visit>
    void fields(Visit&& v) {
        v("ov", ov);
        v("encoder", encoder);
        v("layer", layer);
        v("head", head);
        v("tokens", tokens);
        v("rope_offset", rope_offset);
    }
};

// The Analysis view's compare tool: what run B is, and which of its tensors is shown.
struct CompareChoice {
    bool other_model = false;  // B is another model (other_path); else this model with `ablated` heads off
    std::string other_path;    // a model file or Hugging Face folder
    std::vector<AttentionHead>
        ablated;       // switched off in B only; saved as {"use": "decoder_self", "layer": 1, "head": 2}
    std::string step;  // the step whose B − A is drawn; empty: the last one both have
    int slice = 0;     // the first index of a 3-D tensor (the head) (not saved)

    template <class Visit>
    void fields(Visit&& v) {
        v("other_model", other_model);
        v("other_path", other_path);
        v("ablated", ablated);
        v("step", step);
    }
};

enum class AnalysisTool { logit_lens, head_summary, embeddings, circuits, compare, head_detectors };
enum class DetectorScore { induction, previous, duplicate };  // the head detectors' sort

// The Analysis view's head detectors (app/model/head_detector_tool.h): the repeated sequence's length L, seed and
// BOS, and the score the heads are ranked by.
struct HeadDetectorChoice {
    int length = 12;  // L, clamped to what the model's max_len allows (the bundled induction model's longest)
    int seed = 0;
    int bos = -1;  // −1: the model's own BOS (its sos id) when it has one; −2: none; else that id
    DetectorScore sort = DetectorScore::induction;
    bool operator==(const HeadDetectorChoice&) const = default;

    template <class Visit>
    void fields(Visit&& v) {
        v("length", length, clamped(2, 1000));
        v("seed", seed, clamped(0, 1 << 30));
        v("bos", bos, clamped(-2, 1 << 30));
        v("sort", sort);
    }
};
enum class HeadStat { entropy, previous, first, self };  // the head summary's heatmap

// The Analysis view: its tool, and each tool's choices.
struct AnalysisViewState {
    AnalysisTool tool = AnalysisTool::logit_lens;
    int lens_first_position = 0;  // the logit lens's first column (not saved)
    HeadStat head_stat = HeadStat::entropy;
    std::string embedding_token;  // the embeddings tool's chosen token, as the vocabulary writes it
    CircuitChoice circuit;
    CompareChoice compare;
    HeadDetectorChoice detectors;

    template <class Visit>
    void fields(Visit&& v) {
        v("tool", tool);
        v("head_stat", head_stat);
        v("embedding_token", embedding_token);
        v("circuit", circuit);
        v("compare", compare);
        v("detectors", detectors);
    }
};

// The stepper's playback, and predict mode's cover.
struct StepperViewState {
    bool playing = false;  // not saved
    float steps_per_second = 4.0f;
    bool hidden = false;  // predict mode: the view's newest output is covered until revealed (not saved)

    template <class Visit>
    void fields(Visit&& v) {
        v("steps_per_second", steps_per_second, clamped(0.5f, 30.0f));
    }
};

// The training view's form: what the next run trains, and how its curves are drawn.
// The tasks the training view offers: task_names()'s pairs, then "induction" (a decoder-only model).
std::vector<std::string> train_task_names();
bool is_train_task(const std::string& task);  // one of train_task_names()
// What Start trains: a task's new model, or the model the views show (opened from a file or folder) on a
// file of the user's.
enum class TrainTarget { new_model, opened_model };

struct TrainForm {
    TrainTarget target = TrainTarget::new_model;
    std::string task = "en-ko";  // see train_task_names()
    std::string preset = "tiny";  // "tiny", "base"; the induction task also "induction"
    int steps = 3000;
    int seed = 1;
    int batch_size = 64;
    int threads = 0;       // the batch is split across this many threads; 0: every core but one (the UI's)
    int eval_every = 0;    // steps between held-out evaluations; 0: automatic
    bool log_loss = true;  // the loss curve's y axis is logarithmic
    // The opened model's data: a file of text (through its tokenizer) or of token ids, cut into windows of
    // seq_len + 1; an encoder-decoder reads pairs whatever data_kind says.
    std::string data_path;
    DataFileKind data_kind = DataFileKind::text;
    int seq_len = 64;
    float learning_rate = 3e-4f;  // Adam at a constant rate, a common fine-tuning rate

    template <class Visit>
    void fields(Visit&& v) {
        v("target", target);
        v("task", task, [](const std::string& t) { return is_train_task(t); });
        v("preset", preset, [](const std::string& p) { return p == "tiny" || p == "base" || p == "induction"; });
        v("steps", steps);
        v("seed", seed);
        v("batch_size", batch_size);
        v("threads", threads);
        v("eval_every", eval_every);
        v("log_loss", log_loss);
        v("data_path", data_path);
        v("data_kind", data_kind, [](DataFileKind k) { return k != DataFileKind::pairs; });
        v("seq_len", seq_len, [](int n) { return n >= 1 && n <= 65536; });
        v("learning_rate", learning_rate, [](float r) { return r > 0.0f && r < 1.0f; });
    }
};

// The playground: a hand calculation of one small attention, and the "why √d_k" experiment.
enum class PlaygroundPreset { none, notes, look_ahead, random };  // its description shows until the first edit
struct PlaygroundState {
    bool experiment = false;                 // the experiment instead of the hand calculation
    bool show_inputs = true;                 // off: only the results, for a projector once the numbers are typed
    HandSpec spec = notes_worked_example();  // saved as its sizes, then every matrix that has them
    PlaygroundPreset preset = PlaygroundPreset::notes;
    int focus_row = 0, focus_col = 1;  // the query and key whose arithmetic is written out
    int random_seed = 1;               // the Random preset's next draw
    int experiment_keys = 8;           // scores per softmax row
    int experiment_seed = 1;

    template <class Visit>
    void fields(Visit&& v) {
        v("experiment", experiment);
        v("show_inputs", show_inputs);
        v("spec", spec);
        v("preset", preset);
        v("focus_row", focus_row);
        v("focus_col", focus_col);
        v("random_seed", random_seed);
        v("experiment_keys", experiment_keys, clamped(2, 64));
        v("experiment_seed", experiment_seed);
    }
};

// Everything the user is looking at, one struct per view, and the settings. Persisted as JSON
// (each struct's fields(), under its name here); derived state lives elsewhere.
struct ViewState {
    Settings settings;
    View tab = View::attention;
    AttentionViewState attention;
    PositionalViewState positional;
    ResidualViewState residual;
    FfnViewState ffn;
    OutputViewState output;
    WeightsViewState weights;
    AnalysisViewState analysis;
    StepperViewState stepper;
    RandomModelSpec random_model;  // the Model view's "New random model" form (not saved)
    TrainForm train;
    PlaygroundState playground;
    std::optional<View> bring_forward;  // a panel asks for another view this frame (not saved)

    template <class Visit>
    void fields(Visit&& v) {
        v("settings", settings);
        v("tab", tab);
        v("attention", attention);
        v("positional", positional);
        v("residual", residual);
        v("ffn", ffn);
        v("output", output);
        v("weights", weights);
        v("analysis", analysis);
        v("stepper", stepper);
        v("train", train);
        v("playground", playground);
    }

    std::string to_json() const;
    // Unknown or malformed fields keep their defaults: an old settings file never blocks start-up.
    // A file in the flat form of before (`{"analysis_tool": 1, "layer": 2}`) is read as well.
    static ViewState from_json(const std::string& text);
};

template <>
struct EnumNames<View> {
    static constexpr EnumName<View> list[] = {{View::input, "input"},
                                              {View::model, "model"},
                                              {View::positional, "positional"},
                                              {View::attention, "attention"},
                                              {View::masks, "masks"},
                                              {View::residual, "residual"},
                                              {View::ffn, "ffn"},
                                              {View::output, "output"},
                                              {View::stepper, "stepper"},
                                              {View::weights, "weights"},
                                              {View::training, "training"},
                                              {View::playground, "playground"},
                                              {View::analysis, "analysis"}};
};
template <>
struct EnumNames<TrainTarget> {
    static constexpr EnumName<TrainTarget> list[] = {{TrainTarget::new_model, "new_model"},
                                                     {TrainTarget::opened_model, "opened_model"}};
};
template <>
struct EnumNames<DataFileKind> {
    static constexpr EnumName<DataFileKind> list[] = {
        {DataFileKind::text, "text"}, {DataFileKind::token_ids, "token_ids"}, {DataFileKind::pairs, "pairs"}};
};
template <>
struct EnumNames<AnalysisTool> {
    static constexpr EnumName<AnalysisTool> list[] = {{AnalysisTool::logit_lens, "logit_lens"},
                                                      {AnalysisTool::head_summary, "head_summary"},
                                                      {AnalysisTool::embeddings, "embeddings"},
                                                      {AnalysisTool::circuits, "circuits"},
                                                      {AnalysisTool::compare, "compare"},
                                                      {AnalysisTool::head_detectors, "head_detectors"}};
};
template <>
struct EnumNames<DetectorScore> {
    static constexpr EnumName<DetectorScore> list[] = {{DetectorScore::induction, "induction"},
                                                       {DetectorScore::previous, "previous"},
                                                       {DetectorScore::duplicate, "duplicate"}};
};
template <>
struct EnumNames<HeadStat> {
    static constexpr EnumName<HeadStat> list[] = {{HeadStat::entropy, "entropy"},
                                                  {HeadStat::previous, "previous"},
                                                  {HeadStat::first, "first"},
                                                  {HeadStat::self, "self"}};
};
template <>
struct EnumNames<PlaygroundPreset> {
    static constexpr EnumName<PlaygroundPreset> list[] = {{PlaygroundPreset::none, "none"},
                                                          {PlaygroundPreset::notes, "notes"},
                                                          {PlaygroundPreset::look_ahead, "look_ahead"},
                                                          {PlaygroundPreset::random, "random"}};
};
// core's AttentionUse and AttentionStage, by their step-path names (core's to_string; a test checks they agree).
template <>
struct EnumNames<AttentionUse> {
    static constexpr EnumName<AttentionUse> list[] = {{AttentionUse::encoder_self, "encoder_self"},
                                                      {AttentionUse::decoder_self, "decoder_self"},
                                                      {AttentionUse::cross, "cross"}};
};
template <>
struct EnumNames<FfnPart> {
    static constexpr EnumName<FfnPart> list[] = {{FfnPart::hidden, "hidden"},         {FfnPart::gate, "gate"},
                                                 {FfnPart::activation, "activation"}, {FfnPart::up, "up"},
                                                 {FfnPart::gated, "gated"},           {FfnPart::out, "out"}};
};

template <>
struct EnumNames<AttentionStage> {
    static constexpr EnumName<AttentionStage> list[] = {{AttentionStage::q, "q"},
                                                        {AttentionStage::k, "k"},
                                                        {AttentionStage::v, "v"},
                                                        {AttentionStage::q_norm, "q_norm"},
                                                        {AttentionStage::k_norm, "k_norm"},
                                                        {AttentionStage::q_rot, "q_rot"},
                                                        {AttentionStage::k_rot, "k_rot"},
                                                        {AttentionStage::scores, "scores"},
                                                        {AttentionStage::scaled, "scaled"},
                                                        {AttentionStage::biased, "biased"},
                                                        {AttentionStage::capped, "capped"},
                                                        {AttentionStage::masked, "masked"},
                                                        {AttentionStage::weights, "weights"},
                                                        {AttentionStage::context, "context"},
                                                        {AttentionStage::concat, "concat"},
                                                        {AttentionStage::out, "out"}};
};

// $XDG_CONFIG_HOME/attnlab/settings.json, or ~/.config/attnlab/settings.json.
std::string settings_path();
ViewState load_view_state();
Status save_view_state(const ViewState& state);  // atomic
void remember_recent_file(ViewState& state, const std::string& path);

}  // namespace attnlab::gui
