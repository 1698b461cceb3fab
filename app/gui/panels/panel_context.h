// What every panel receives (PanelContext): the session (changed only through its commands), the
// view state, the training run, the heatmap renderer, paths, the status line, the panels' caches and
// the font size; then one draw function per panel and the helpers panels share.
#pragma once

#include "analysis/saliency.h"
#include "gl/heatmap_renderer.h"
#include "i18n.h"
#include "paths.h"
#include "session.h"
#include "model_display_name.h"
#include "training.h"
#include "view_state.h"
#include "widgets/heatmap_widget.h"

#include <any>
#include <memory>
#include <typeindex>
#include <unordered_map>

namespace attnlab::gui {

// Data a panel derives from the trace and keeps between frames (so a frame costs nothing until
// the data changes). Owned by the App, never global; each panel keeps its cache type private.
class PanelCaches {
public:
    template <class T>
    T& get() {
        std::any& slot = slots_[std::type_index(typeid(T))];
        if (!slot.has_value()) slot = std::make_shared<T>();
        return *std::any_cast<std::shared_ptr<T>&>(slot);
    }

private:
    std::unordered_map<std::type_index, std::any> slots_;
};

struct PanelContext {
    Session& session;
    ViewState& view;
    HeatmapRenderer& heatmaps;
    const Paths& paths;
    std::string& status;  // a one-line, non-modal message in the menu bar (exports, errors)
    PanelCaches& caches;
    float em;            // the font size in pixels: every size is a multiple of it
    Training& training;  // the training run: its progress (read) and its commands

    const char* t(const char* english) const { return tr(view.settings.korean, english); }
    const Stepper& stepper() const { return session.stepper(); }
    const ModelConfig& config() const { return session.stepper().config(); }
};

// One function per panel; each draws inside the window the app opened for it.
void draw_input_panel(PanelContext& ctx);
void draw_model_panel(PanelContext& ctx);
void draw_positional_panel(PanelContext& ctx);
void draw_attention_panel(PanelContext& ctx);
void draw_masks_panel(PanelContext& ctx);
void draw_residual_panel(PanelContext& ctx);
void draw_ffn_panel(PanelContext& ctx);
void draw_output_panel(PanelContext& ctx);
void draw_stepper_panel(PanelContext& ctx);
void draw_weights_panel(PanelContext& ctx);
void draw_training_panel(PanelContext& ctx);
void draw_playground_panel(PanelContext& ctx);
void draw_analysis_panel(PanelContext& ctx);

// The view that draws a step's output (the stepper brings it forward), and, for an attention
// step, pointing the attention view at its family, layer and stage.
View view_for_step(const StepId& id);
void focus_attention_step(ViewState& view, const StepId& id);

// What a view draws for a step: its output; or, with the timeline's cursor in the backward half, the gradient
// ∂L/∂(output) once every backward step adding to it has run (nullptr until then), on a diverging colour map.
struct ShownEntry {
    const TraceEntry* entry = nullptr;
    bool gradient = false;
    Colormap colormap(Colormap forward) const { return gradient ? Colormap::diverging : forward; }
};
ShownEntry shown_entry(const PanelContext& ctx, const StepId& id);
// The same without recomputing: in the forward half, the run's facts (stepper.h: run_facts), whose value holds no
// numbers for an on-demand stage not held now. For a view that needs only whether it ran, its shape or version.
ShownEntry shown_facts(const PanelContext& ctx, const StepId& id);
// A loss's definition in the UI's language (core's LossSpec::definition is the CLI's English).
std::string loss_definition(const PanelContext& ctx, const LossSpec& loss);
// "∂L/∂(what)" for a plot's caption and a hover line.
std::string gradient_caption(const char* what);
// Under a hovered gradient value: the backward step it came from (the last step reading this output, whose
// backward added to it) in the UI's language: its title and chain-rule formula. Nothing for the logits, whose
// gradient comes from the loss itself (then the loss's definition).
void gradient_source_section(const PanelContext& ctx, const StepId& id, float width_em = 0.0f);

// The saliency of a stack's input tokens (analysis/saliency.h) from the token embeddings' gradient, once the
// backward pass has brought it back that far; nullopt before.
std::optional<TokenSaliency> input_saliency(const PanelContext& ctx, Stack stack);

// Shared drawing helpers for panels.
void text_not_run_yet(const PanelContext& ctx);
// In the backward half, where a step's gradient is not whole yet.
void text_gradient_not_yet(const PanelContext& ctx);
void text_disabled_wrapped(const char* text);  // a dim, wrapped note
// Keeps the next item on the current line, `gap` pixels after the last, when `width` more pixels fit before
// the window's right edge (and returns true); otherwise the next item starts a new line.
bool same_line_if_fits(float width, float gap);
std::string format_bytes(double bytes);  // 1536 -> "1.5 KiB", 3.2e6 -> "3.1 MiB"
// The width ImGui::Button(label) takes.
float button_width_for(const char* label);
// The width ImGui::Checkbox(label, ...) takes.
float checkbox_width(const char* label);
// A slider with its value written before it, after `label` unless that is null: "Temperature  T = 1.00 [──▮──]".
// ImGui centres the value inside the frame, where the grab covers part of it ("T = 1▮00"); here the frame
// shows the value only while Ctrl+click types a number into it, and `format` still rounds the value as
// ImGui's sliders do. The slider (`id`, "##name") is the last item, for tooltips and tour marks.
bool value_slider_float(const char* label, const char* id, float* v, float lo, float hi, const char* format,
                        float width, ImGuiSliderFlags flags = 0);
bool value_slider_int(const char* label, const char* id, int* v, int lo, int hi, const char* format, float width);
// The width value_slider_* takes for `label` (or null), a value written as `widest_value`, and a `width` slider.
float value_slider_width(const char* label, const char* widest_value, float width);
// The last stack's vocabulary: what the model predicts (the decoder's, or an encoder-only model's).
const std::optional<Vocab>& output_vocab(const PanelContext& ctx);
// A small "CSV" button that writes `tensor` to attnlab-<name>.csv in the working directory.
void csv_export_button(PanelContext& ctx, const std::string& name, const Tensor& tensor);
// A heatmap of a (rows, cols) block of floats with labels and a colour bar; returns the hit.
struct MatrixPlot {
    std::string key;
    const float* values = nullptr;
    int rows = 0, cols = 0;
    uint64_t version = 0;
    Colormap colormap = Colormap::sequential;
    const std::vector<std::string>* row_labels = nullptr;
    const std::vector<std::string>* col_labels = nullptr;
    const float* mask = nullptr;
    uint64_t mask_version = 0;
    const std::vector<bool>* marked_rows = nullptr;  // rows whose label is orange (a word that became <unk>)
    float cell = 0.0f;       // the cell size in pixels (0: as many as fit the width, at most max_cell)
    float max_cell = 0.0f;   // 0: 2.2 em
    float max_width = 0.0f;  // 0: the available width; labels and cells stay within it
    int highlight_row = -1;
    const char* caption = nullptr;
    bool fit_height = false;   // also shrink cells to fit the remaining height (for a view's main matrix)
    bool fixed_range = false;  // use lo/hi below instead of the data's range
    float lo = 0.0f, hi = 1.0f;
};
HeatmapHit plot_matrix(PanelContext& ctx, const MatrixPlot& plot);
// The cell size and labels plot_matrix draws `plot` with (heatmap_geometry of it says how wide it will be).
HeatmapLayout matrix_layout(const PanelContext& ctx, const MatrixPlot& plot);

}  // namespace attnlab::gui
