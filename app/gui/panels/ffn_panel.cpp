// The FFN view: FFN(x) = act(x·W_1ᵀ + b_1)·W_2ᵀ + b_2 for one layer; the hidden units (N, F) after
// the activation (or before it) as a heatmap with a zoom on a few units, ReLU's exact zeros per
// layer and per token, and a histogram of the values. A gated FFN (SwiGLU) shows its gate, the
// gate's activation, the up projection or their product.
#include "panels/ffn_histogram.h"
#include "panels/ffn_overview.h"
#include "panels/router_view.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"
#include "widgets/tooltip_beside.h"

#include "forward/mechanisms/feed_forward.h"
#include "forward/step_path.h"
#include "ops/activation.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

const char* activation_name(Activation a) {
    switch (a) {
        case Activation::relu: return "ReLU";
        case Activation::gelu: return "GELU";
        case Activation::gelu_tanh: return "GELU (tanh)";
        case Activation::silu: return "SiLU";
    }
    return "";
}

bool choose_decoder(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    if (!c.has_encoder() || !c.has_decoder()) return c.has_decoder();
    if (ImGui::RadioButton(ctx.t("Encoder"), !ctx.view.ffn.decoder)) ctx.view.ffn.decoder = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Decoder"), ctx.view.ffn.decoder)) ctx.view.ffn.decoder = true;
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    return ctx.view.ffn.decoder;
}

int choose_layer(PanelContext& ctx, int n_layers) {
    ctx.view.ffn.layer = std::clamp(ctx.view.ffn.layer, 0, n_layers - 1);
    ImGui::AlignTextToFramePadding();
    if (n_layers > 1) {
        value_slider_int(ctx.t("Layer"), "##layer", &ctx.view.ffn.layer, 0, n_layers - 1, "%d", 6.0f * ctx.em);
    } else {
        ImGui::Text("%s 0", ctx.t("Layer"));
    }
    return ctx.view.ffn.layer;
}

bool choose_pre_activation(PanelContext& ctx) {
    const char* after = ctx.t("after the activation");
    const char* before = ctx.t("before it (x·W_1ᵀ + b_1)");
    const ImGuiStyle& style = ImGui::GetStyle();
    const float radios = ImGui::CalcTextSize(after).x + ImGui::CalcTextSize(before).x +
                         2.0f * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x) + style.ItemSpacing.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + 2.0f * ctx.em + radios <= right) ImGui::SameLine(0.0f, 2.0f * ctx.em);
    if (ImGui::RadioButton(after, !ctx.view.ffn.pre_activation)) ctx.view.ffn.pre_activation = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(before, ctx.view.ffn.pre_activation)) ctx.view.ffn.pre_activation = true;
    return ctx.view.ffn.pre_activation;
}

// A gated FFN's four (N, F) parts, each one click: the gate, its activation, the up projection, their product.
FfnPart choose_gated_part(PanelContext& ctx, const char* act) {
    const std::string activated = std::string(act) + "(g)";
    const std::pair<FfnPart, std::string> parts[] = {{FfnPart::gate, ctx.t("gate g")},
                                                     {FfnPart::activation, activated},
                                                     {FfnPart::up, ctx.t("up u")},
                                                     {FfnPart::gated, activated + " ⊙ u"}};
    FfnPart& shown = ctx.view.ffn.gated_part;
    if (shown == FfnPart::hidden || shown == FfnPart::out) shown = FfnPart::gated;
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    for (size_t i = 0; i < std::size(parts); ++i) {
        if (i > 0) same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(parts[i].second.c_str()).x, ctx.em);
        if (ImGui::RadioButton(parts[i].second.c_str(), shown == parts[i].first)) shown = parts[i].first;
    }
    return shown;
}

float zero_fraction(const float* v, int64_t n) {
    return n ? static_cast<float>(std::count(v, v + n, 0.0f)) / static_cast<float>(n) : 0.0f;
}

// ReLU only: the share of exact zeros in every computed layer of the stack, the shown one bright.
void zeros_by_layer(const PanelContext& ctx, Stack stack, int n_layers, int shown) {
    ImGui::TextUnformatted(ctx.t("Exact zeros after ReLU:"));
    for (int l = 0; l < n_layers; ++l) {
        const TraceEntry* e = ctx.stepper().entry(StepId::ffn_at(stack, l, FfnPart::activation));
        ImGui::SameLine(0.0f, 1.2f * ctx.em);
        if (!e)
            ImGui::TextDisabled("%s %d: —", ctx.t("layer"), l);
        else if (l == shown)
            ImGui::Text("%s %d: %.1f%%", ctx.t("layer"), l,
                        100.0f * zero_fraction(e->value.data.data(), e->value.numel()));
        else
            ImGui::TextDisabled("%s %d: %.1f%%", ctx.t("layer"), l,
                                100.0f * zero_fraction(e->value.data.data(), e->value.numel()));
    }
}

// One unit's value for one token, then its step's explanation (or the gradient's source). In a classroom it
// stays inside the view beside the pointer, clear of the tour card's task and done text left of the view.
void unit_tooltip(const PanelContext& ctx, const StepId& id, const Tensor& h, const SequenceView& seq, int row,
                  int unit, bool relu_out) {
    const float room = ctx.view.settings.classroom ? place_next_tooltip_in_window(ctx.em) : 0.0f;
    ImGui::BeginTooltip();
    const float wrap = room > 0.0f ? room - 2.0f * ImGui::GetStyle().WindowPadding.x : 0.0f;
    if (room > 0.0f) ImGui::PushTextWrapPos(wrap);  // its lines in the room
    const float explanation_em = room > 0.0f ? std::min(30.0f, wrap / ctx.em) : 30.0f;
    const bool gradient = ctx.session.in_backward();
    ImGui::Text("'%s' (%s %d), %s %d: %s%.4g", seq.labels[static_cast<size_t>(row)].c_str(), ctx.t("token"), row,
                ctx.t("unit"), unit, gradient ? "∂L/∂h = " : "", h.row(row)(unit));
    if (relu_out)
        ImGui::Text("%s: %.1f%%", ctx.t("this token's units that are exactly 0"),
                    100.0f * zero_fraction(h.row(row).data(), h.dim(1)));
    ImGui::TextDisabled("%s", ctx.t("Click to zoom here."));
    if (gradient)
        gradient_source_section(ctx, id, explanation_em);
    else
        step_explanation_section(ctx, id, {0, row, unit}, true, explanation_em);
    if (room > 0.0f) ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// Every unit (N, F) in an overview, then a readable window of units around the chosen one, both in one colour range.
void draw_units(PanelContext& ctx, const StepId& id, const TraceEntry& e, const SequenceView& seq, bool relu_out) {
    const std::string path = step_path(id);  // the heatmaps' keys
    const Tensor& h = e.value;               // (N, F)
    const int N = static_cast<int>(h.dim(0)), F = static_cast<int>(h.dim(1));
    const Colormap colormap = relu_out ? Colormap::sequential : Colormap::diverging;
    float lo = 0.0f, hi = 1.0f;
    heatmap_range(h.data.data(), h.numel(), colormap, lo, hi);

    const int window =
        std::clamp(static_cast<int>((ImGui::GetContentRegionAvail().x - 8.0f * ctx.em) / (1.8f * ctx.em)), 4, F);
    int& first = ctx.view.ffn.zoom_first;
    first = std::clamp(first, 0, F - window);
    if (const UnitHit hit = draw_units_overview(ctx, path, e, colormap, lo, hi, first, window); hit.unit >= 0) {
        unit_tooltip(ctx, id, h, seq, hit.token, hit.unit, relu_out);
        if (hit.clicked) first = std::clamp(hit.unit - window / 2, 0, F - window);
    }
    if (window == F) return;

    ImGui::Spacing();
    value_slider_int(ctx.t("units from"), "##zoom", &first, 0, F - window, "%d", 10.0f * ctx.em);
    Tensor part({N, window});  // (N, window) columns [first, first + window)
    part.matrix() = h.matrix().middleCols(first, window);
    std::vector<std::string> units;
    for (int u = first; u < first + window; ++u) units.push_back(std::to_string(u));
    MatrixPlot zoom{"ffn/zoom/" + path + "/" + std::to_string(first) + "/" + std::to_string(window),
                    part.data.data(),
                    N,
                    window,
                    e.version,
                    colormap,
                    &seq.labels,
                    &units};
    zoom.fixed_range = true, zoom.lo = lo, zoom.hi = hi;
    zoom.max_cell = 1.8f * ctx.em;
    const ImVec2 zoom_top = ImGui::GetCursorScreenPos();
    if (const HeatmapHit z = plot_matrix(ctx, zoom); z.row >= 0)
        unit_tooltip(ctx, id, h, seq, z.row, first + z.col, relu_out);
    mark_tour_watch(ctx, TourWatch::ffn_rows, zoom_top, ImGui::GetItemRectMax());  // a row per token, its colour bar
}

// One (N, F) part of the FFN: its path, its units and their histogram; relu_out: ReLU's output, exact zeros.
// In the backward half, its gradient ∂L/∂(part) instead, signed (never "exact zeros").
void draw_part(PanelContext& ctx, const StepId& id, bool relu_out) {
    const ShownEntry shown = shown_entry(ctx, id);
    const TraceEntry* e = shown.entry;
    ImGui::Spacing();
    ImGui::TextDisabled("%s%s", shown.gradient ? "∂L/∂ " : "", step_path(id).c_str());
    if (!e) {
        if (shown.gradient)
            text_gradient_not_yet(ctx);
        else
            text_not_run_yet(ctx);
        return;
    }
    relu_out = relu_out && !shown.gradient;
    const SequenceView seq = id.stack == Stack::decoder ? ctx.session.target() : ctx.session.source();
    draw_units(ctx, id, *e, seq, relu_out);
    ImGui::Spacing();
    draw_ffn_histogram(ctx, e->value, relu_out);
}

// SwiGLU and its kin: FFN(x) = (act(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ, one of its four (N, F) parts shown.
void draw_gated_ffn(PanelContext& ctx, Stack stack, int layer, FfnPart part) {
    const ModelConfig& c = ctx.config();
    const char* act = activation_name(c.activation);
    ImGui::Text("FFN(x) = (%s(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ", act);
    char shapes[96];
    std::snprintf(shapes, sizeof shapes, "x (N, C=%d) → 2 × (N, F=%d) → (N, C=%d)", c.d_model, c.d_ff, c.d_model);
    same_line_if_fits(ImGui::CalcTextSize(shapes).x, 1.5f * ctx.em);
    ImGui::TextUnformatted(shapes);
    text_disabled_wrapped(
        ctx.t("The gate decides, unit by unit, how much of the up projection passes: where "
              "act(g) is near 0 the unit is shut whatever u says."));
    draw_part(ctx, StepId::ffn_at(stack, layer, part), false);
}

}  // namespace

void draw_ffn_panel(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    const bool decoder = choose_decoder(ctx);
    const Stack stack = decoder ? Stack::decoder : Stack::encoder;
    const int n_layers = decoder ? c.n_decoder_layers : c.n_encoder_layers;
    const int layer = choose_layer(ctx, n_layers);
    if (has_experts(c, layer)) return draw_router_view(ctx, stack, layer);  // a mixture of experts' layer
    const char* act = activation_name(c.activation);
    if (FeedForwardMechanism(c).gated()) return draw_gated_ffn(ctx, stack, layer, choose_gated_part(ctx, act));
    const bool pre = choose_pre_activation(ctx);

    ImGui::Text("FFN(x) = %s(x·W_1ᵀ + b_1)·W_2ᵀ + b_2", act);
    char shapes[96];  // beside the formula where it fits, else under it
    std::snprintf(shapes, sizeof shapes, "x (N, C=%d) → (N, F=%d) → (N, C=%d)", c.d_model, c.d_ff, c.d_model);
    same_line_if_fits(ImGui::CalcTextSize(shapes).x, 1.5f * ctx.em);
    ImGui::TextUnformatted(shapes);
    ImGui::TextDisabled("%s:  %s", act, activation_formula(c.activation));
    const bool relu = c.activation == Activation::relu;
    if (relu) zeros_by_layer(ctx, stack, n_layers, layer);

    draw_part(ctx, StepId::ffn_at(stack, layer, pre ? FfnPart::hidden : FfnPart::activation), relu && !pre);
}

}  // namespace attnlab::gui
