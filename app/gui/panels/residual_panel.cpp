// The residual view: one token's stream through a stack (post-LN x ← LN(x + Sublayer(x)) or
// pre-LN x ← x + Sublayer(LN(x))), and every token × step's stream norm ‖x‖₂ as a heatmap (N, steps); in the
// backward half, the norm of the gradient ‖∂L/∂x‖₂ there instead: how much the loss depends on each token's stream
// at each point, growing or shrinking as it flows back through the layers.
#include "panels/contribution_graph.h"
#include "panels/residual_flow.h"
#include "panels/step_explanation.h"
#include "panels/stream_formula_text.h"
#include "widgets/radio_row.h"

#include "forward/mechanisms/norm.h"
#include "forward/step_path.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The stack shown: chosen with the radio buttons, and switched when the stepper moves onto the other
// stack's steps. Fallback until ViewState has a field for it: the choice lives in ImGui's window storage.
bool choose_decoder(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    if (!c.has_encoder() || !c.has_decoder()) {
        ImGui::TextUnformatted(ctx.t(c.has_decoder() ? "Decoder" : "Encoder"));
        ImGui::SameLine(0.0f, 2.0f * ctx.em);
        return c.has_decoder();
    }
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID stack_id = ImGui::GetID("residual_stack"), cursor_id = ImGui::GetID("residual_cursor");
    int decoder = storage->GetInt(stack_id, 0);
    const int cursor = static_cast<int>(ctx.session.timeline_cursor()), n = static_cast<int>(ctx.stepper().size());
    if (cursor != storage->GetInt(cursor_id, -1) && cursor > 0) {  // in the backward half, its forward step's stack
        const size_t step = cursor > n ? ctx.session.backward_forward_index(static_cast<size_t>(cursor - n - 1))
                                       : static_cast<size_t>(cursor - 1);
        const StepRecord& r = ctx.stepper().step(step).record;
        const bool mask = r.id.kind == StepKind::padding_mask || r.id.kind == StepKind::look_ahead_mask ||
                          r.id.kind == StepKind::attention_mask;
        if (!mask && !r.predicts)
            decoder = r.id.stack == Stack::decoder ? 1 : 0;  // a stack's embeddings, layers, output
    }
    storage->SetInt(cursor_id, cursor);
    ImGui::RadioButton(ctx.t("Encoder"), &decoder, 0);
    ImGui::SameLine();
    ImGui::RadioButton(ctx.t("Decoder"), &decoder, 1);
    storage->SetInt(stack_id, decoder);
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    return decoder == 1;
}

// "Pre-LN:  x ← x + Sublayer(LN(x))": the formula stays whole on the label's line when it fits there, else it
// starts the next line (a narrow classroom view), and wraps only when narrower than the formula itself.
void labelled_formula(const char* label, const char* formula) {
    ImGui::TextWrapped("%s:", label);
    ImGui::SameLine();
    if (ImGui::CalcTextSize(formula).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    ImGui::TextWrapped("%s", formula);
}

// The stack's formulas, one a line: the stream's update, after the scaled embeddings' (Granite's m_emb, m).
void formula_lines(const PanelContext& ctx, Stack stack) {
    for (const StreamFormulaLine& line : stream_formula_lines(ctx.stepper(), stack))
        labelled_formula(ctx.t(line.label), line.formula.c_str());
}

// The stack's tokens as a wrapping row of buttons; clicking one chooses it. <unk> tokens are orange.
void token_picker(PanelContext& ctx, const SequenceView& seq) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Token"));
    const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
    for (size_t i = 0; i < seq.labels.size(); ++i) {
        const std::string label = seq.labels[i] + "##token" + std::to_string(i);
        const float w = ImGui::CalcTextSize(seq.labels[i].c_str()).x + ImGui::GetStyle().FramePadding.x * 2.0f;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w < right) ImGui::SameLine();
        const bool unknown = seq.unknown[i];
        if (unknown) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 160, 60, 255));
        const bool selected = ctx.view.residual.token == static_cast<int>(i);
        if (ImGui::Selectable(label.c_str(), selected, 0, ImVec2(w, 0))) ctx.view.residual.token = static_cast<int>(i);
        if (unknown) ImGui::PopStyleColor();
        if (unknown && ImGui::IsItemHovered()) ImGui::SetTooltip("%s: <unk>", ctx.t("unknown word"));
    }
}

struct StreamColumn {
    std::string label;
    StepId id;
};

// Every state of the stream in flow order: the input, then per sublayer ⊕ (and LN when post-LN), then the final LN.
std::vector<StreamColumn> stream_columns(const PanelContext& ctx, const ResidualStack& stack) {
    const NormMechanism norm(ctx.config());
    const bool pre_ln = norm.before_sublayer(), rms = norm.rms();
    std::vector<StreamColumn> cols = {{ctx.t("input"), stack.input}};
    for (size_t i = 0; i < stack.layers.size(); ++i)
        for (size_t k = 0; k < stack.layers[i].size(); ++k) {
            const ResidualSublayer& sub = stack.layers[i][k];
            const char* add = sub.kind == SublayerKind::self_attn    ? tr_noop("+self")
                              : sub.kind == SublayerKind::cross_attn ? tr_noop("+cross")
                                                                     : tr_noop("+FFN");
            const std::string layer = std::to_string(i) + " ";
            cols.push_back({layer + ctx.t(add), sub.residual});
            if (!pre_ln) cols.push_back({layer + (rms ? "RMS" : "LN") + std::to_string(k + 1), sub.norm});
        }
    if (ctx.config().final_norm) cols.push_back({ctx.t(rms ? "final RMS" : "final LN"), stack.output});
    return cols;
}

uint64_t mix_version(uint64_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

void stream_heatmap(PanelContext& ctx, const ResidualStack& stack, const SequenceView& seq) {
    const std::vector<StreamColumn> cols = stream_columns(ctx, stack);
    const int rows = static_cast<int>(seq.labels.size()), n_cols = static_cast<int>(cols.size());
    std::vector<float> values(static_cast<size_t>(rows * n_cols), NAN);  // (N, steps); NaN = not run, hatched
    std::vector<std::string> col_labels;
    uint64_t version = mix_version(static_cast<uint64_t>(rows), static_cast<uint64_t>(n_cols));
    const bool gradient = ctx.session.in_backward();
    for (int c = 0; c < n_cols; ++c) {
        col_labels.push_back(cols[static_cast<size_t>(c)].label);
        const TraceEntry* e = shown_entry(ctx, cols[static_cast<size_t>(c)].id).entry;
        version = mix_version(version, e ? e->version : 0);
        if (!e || e->value.rank() != 2) continue;
        for (int r = 0; r < rows && r < e->value.dim(0); ++r)
            values[static_cast<size_t>(r * n_cols + c)] = e->value.row(r).norm();
    }
    MatrixPlot plot;
    plot.key =
        std::string(gradient ? "residual/gradient/" : "residual/stream/") + (stack.decoder ? "decoder" : "encoder");
    plot.values = values.data();
    plot.rows = rows;
    plot.cols = n_cols;
    plot.version = version;
    plot.row_labels = &seq.labels;
    plot.col_labels = &col_labels;
    plot.highlight_row = ctx.view.residual.token;
    const char* norm_name = gradient ? "||∂L/∂x||₂" : "||x||₂";
    plot.caption = norm_name;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row < 0) return;
    if (hit.clicked) ctx.view.residual.token = hit.row;
    const StreamColumn& col = cols[static_cast<size_t>(hit.col)];
    const float v = values[static_cast<size_t>(hit.row * n_cols + hit.col)];
    ImGui::BeginTooltip();
    ImGui::Text("%s \"%s\"  ·  %s", ctx.t("Token"), seq.labels[static_cast<size_t>(hit.row)].c_str(),
                col.label.c_str());
    ImGui::TextDisabled("%s", step_path(col.id).c_str());
    if (std::isnan(v))
        ImGui::TextUnformatted(ctx.t(gradient ? "Its gradient is not whole yet: step the backward pass further."
                                              : "Not run yet: step forward to compute it."));
    else
        ImGui::Text("%s = %.4g", norm_name, static_cast<double>(v));
    if (gradient)
        gradient_source_section(ctx, col.id, 30.0f);
    else
        step_explanation_section(ctx, col.id, {0, hit.row, -1});
    ImGui::EndTooltip();
}

}  // namespace

void draw_residual_panel(PanelContext& ctx) {
    const int mode = radio_row({ctx.t("Stream"), ctx.t("Contribution graph")}, ctx.view.residual.contribution ? 1 : 0);
    if (mode >= 0) ctx.view.residual.contribution = mode == 1;
    if (ctx.view.residual.contribution) {
        draw_contribution_graph(ctx);
        return;
    }
    const ResidualStack stack = residual_stack(ctx.config(), choose_decoder(ctx));
    formula_lines(ctx, stack.decoder ? Stack::decoder : Stack::encoder);
    const SequenceView seq = stack.decoder ? ctx.session.target() : ctx.session.source();
    if (seq.labels.empty()) return;
    ctx.view.residual.token = std::clamp(ctx.view.residual.token, 0, static_cast<int>(seq.labels.size()) - 1);
    token_picker(ctx, seq);
    if (!ctx.stepper().output(stack.input)) {
        text_not_run_yet(ctx);
        return;
    }
    text_disabled_wrapped(
        ctx.t("Each sublayer's bar is how much it adds (L2 norm); the line's width is the "
              "stream's norm; the step just run is outlined. Hover for details."));
    ImGui::Spacing();
    draw_residual_flow(ctx, stack, ctx.view.residual.token);
    ImGui::Separator();
    ImGui::TextUnformatted(ctx.t("All tokens"));
    ImGui::SameLine();
    text_disabled_wrapped(ctx.t(ctx.session.in_backward()
                                    ? "||∂L/∂x||₂: the gradient of the loss on the stream after each step; click a "
                                      "row to follow that token."
                                    : "||x||₂ of the stream after each step; click a row to follow that token."));
    stream_heatmap(ctx, stack, seq);
}

}  // namespace attnlab::gui
