// The positional view: the PE matrix (max_len, C) with each value's formula on hover, PE·PEᵀ
// (max_len, max_len), two dimensions as waves, and x_emb + PE = x for the current sentence (N, C);
// for a model with rotary positions, the RoPE view (rope_panel.h) instead; or, chosen above them, every scheme side
// by side (pe_compare.h).
#include "forward/mechanisms/positions.h"
#include "panels/mask_flow.h"
#include "panels/pe_compare.h"
#include "panels/pe_tables.h"
#include "panels/rope_panel.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"
#include "widgets/radio_row.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The stack whose sentence the view shows: the encoder's when there is one.
Stack first_stack(const ModelConfig& c) { return c.has_encoder() ? Stack::encoder : Stack::decoder; }

void pe_value_tooltip(const PanelContext& ctx, const PeTables& t, int pos, int j) {
    ImGui::BeginTooltip();
    ImGui::Text("%s %d, %s %d (i = %d)", ctx.t("position"), pos, ctx.t("dimension"), j, j / 2);
    if (ctx.config().positional == Positional::sinusoidal)
        ImGui::TextUnformatted(pe_formula(pos, j, ctx.config().d_model, ctx.config().sinusoid_layout).c_str());
    else
        ImGui::Text("P[%d, %d] = %.4f  (%s)", pos, j, t.pe.row(pos)(j), ctx.t("learned"));
    const StepId step = StepId::of(StepKind::position, first_stack(ctx.config()));  // the sentence's rows of PE
    const Tensor* sentence = ctx.stepper().output(step);
    step_explanation_section(ctx, step, {0, pos, j}, sentence && pos < sentence->dim(0));
    ImGui::EndTooltip();
}

void similarity_tooltip(const PanelContext& ctx, const PeTables& t, int p, int q) {
    ImGui::BeginTooltip();
    ImGui::Text("PE(%d)·PE(%d) = %.4f", p, q, t.similarity.row(p)(q));
    if (ctx.config().positional == Positional::sinusoidal) {
        ImGui::Text("= Σ_i cos((%d − %d)·ω_i)", p, q);
        ImGui::TextDisabled("%s %d", ctx.t("Depends only on the offset p − q ="), p - q);
    }
    ImGui::EndTooltip();
}

// The PE matrix and PE·PEᵀ, side by side when both fit.
void draw_pe_matrices(PanelContext& ctx, const PeTables& t) {
    const int P = static_cast<int>(t.pe.dim(0)), C = static_cast<int>(t.pe.dim(1));
    const float avail = ImGui::GetContentRegionAvail().x, gap = 1.5f * ctx.em, half = (avail - gap) * 0.5f;
    const float max_cell = std::clamp(18.0f * ctx.em / P, 2.0f, 2.2f * ctx.em);
    FlowLayout flow(avail, gap);

    MatrixPlot pe{"positional/pe", t.pe.data.data(), P, C, t.version, Colormap::diverging, &t.positions, &t.dims};
    pe.max_cell = max_cell;
    pe.max_width = half;
    flow.begin_block(std::max(half, heatmap_geometry(P, C, matrix_layout(ctx, pe)).size.x));
    ImGui::Text("PE  (%s %d × %s %d)", ctx.t("positions"), P, ctx.t("dimensions"), C);
    if (const HeatmapHit hit = plot_matrix(ctx, pe); hit.row >= 0) pe_value_tooltip(ctx, t, hit.row, hit.col);
    flow.end_block();

    flow.begin_block(half);
    ImGui::Text("PE·PEᵀ  (%s × %s)", ctx.t("positions"), ctx.t("positions"));
    MatrixPlot sim{
        "positional/similarity", t.similarity.data.data(), P, P, t.version, Colormap::sequential, &t.positions};
    sim.max_cell = max_cell;
    sim.max_width = half;
    if (const HeatmapHit hit = plot_matrix(ctx, sim); hit.row >= 0) similarity_tooltip(ctx, t, hit.row, hit.col);
    if (ctx.config().positional == Positional::sinusoidal)
        ImGui::TextUnformatted(
            ctx.t("Bright: positions that look alike. Each diagonal is constant: the similarity depends "
                  "only on how far apart two positions are, which lets attention use relative positions."));
    flow.end_block();
    flow.finish();
}

float widest(const std::vector<std::string>& labels) {
    float w = 0.0f;
    for (const auto& l : labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    return w;
}

struct SumPart {
    const char* title;
    const TraceEntry* entry;
};

void sum_tooltip(const PanelContext& ctx, const SumPart (&parts)[3], const SequenceView& seq, int row, int col) {
    ImGui::BeginTooltip();
    ImGui::Text("%s (%s %d), %s %d", seq.labels[static_cast<size_t>(row)].c_str(), ctx.t("position"), row,
                ctx.t("dimension"), col);
    if (seq.unknown[static_cast<size_t>(row)])
        ImGui::TextDisabled("%s", ctx.t("The word is not in the vocabulary: <unk>."));
    const char* names[3] = {"x_emb", "PE", "x"};
    for (int k = 0; k < 3; ++k) {
        if (parts[k].entry)
            ImGui::Text("%-5s = %+.4f", names[k], parts[k].entry->value.row(row)(col));
        else
            ImGui::TextDisabled("%-5s   %s", names[k], ctx.t("not run yet"));
    }
    step_explanation_section(ctx, StepId::of(StepKind::embedding_sum, first_stack(ctx.config())), {0, row, col});
    ImGui::EndTooltip();
}

// In the backward half: ∂L/∂x of the sentence, once the backward pass has brought it to the stack's input. The sum
// passes it whole to x_emb and to PE, so one matrix shows all three.
void draw_sentence_gradient(PanelContext& ctx, Stack stack, const SequenceView& seq) {
    const StepId input = stack_input(ctx.config(), stack);
    ImGui::TextUnformatted(ctx.t("∂L/∂x: the loss's gradient on the input x; the sum hands it whole to x_emb and PE"));
    const ShownEntry shown = shown_entry(ctx, input);
    if (!shown.entry) return text_gradient_not_yet(ctx);
    const Tensor& d = shown.entry->value;  // (N, C)
    MatrixPlot plot{std::string("positional/gradient/") + (stack == Stack::encoder ? "src" : "tgt"),
                    d.data.data(),
                    static_cast<int>(d.dim(0)),
                    static_cast<int>(d.dim(1)),
                    shown.entry->version,
                    Colormap::diverging,
                    &seq.labels};
    plot.marked_rows = &seq.unknown;
    const std::string caption = gradient_caption("x");
    plot.caption = caption.c_str();
    if (const HeatmapHit hit = plot_matrix(ctx, plot); hit.row >= 0) {
        ImGui::BeginTooltip();
        ImGui::Text("%s[%d, %d] = %.4g", caption.c_str(), hit.row, hit.col,
                    static_cast<double>(d.row(hit.row)(hit.col)));
        gradient_source_section(ctx, input, 30.0f);
        ImGui::EndTooltip();
    }
}

// x_emb + PE = x for the sentence, in one colour range; side by side when the cells stay readable.
void draw_sentence_sum(PanelContext& ctx) {
    const Stack stack = first_stack(ctx.config());
    const SequenceView seq = stack == Stack::encoder ? ctx.session.source() : ctx.session.target();
    if (ctx.session.in_backward()) return draw_sentence_gradient(ctx, stack, seq);
    const Stepper& st = ctx.stepper();
    const SumPart parts[3] = {{ctx.t("token embedding x_emb"), st.entry(StepId::of(StepKind::token_embedding, stack))},
                              {ctx.t("positional encoding PE"), st.entry(StepId::of(StepKind::position, stack))},
                              {ctx.t("input x"), st.entry(StepId::of(StepKind::embedding_sum, stack))}};
    ImGui::TextDisabled("%s", ctx.config().scale_embedding ? "x = E[token]·√C + PE" : "x = E[token] + PE");
    if (!parts[0].entry) {
        text_not_run_yet(ctx);
        return;
    }
    float m = 1e-6f;
    for (const SumPart& p : parts)
        if (p.entry) m = std::max(m, p.entry->value.matrix().cwiseAbs().maxCoeff());

    const int N = static_cast<int>(parts[0].entry->value.dim(0)), C = static_cast<int>(parts[0].entry->value.dim(1));
    const float avail = ImGui::GetContentRegionAvail().x, op_w = 2.5f * ctx.em;
    const float label_w = std::min(widest(seq.labels), heatmap_row_label_space()) + ImGui::GetStyle().ItemSpacing.x;
    const float third = (avail - 2.0f * op_w) / 3.0f;
    const bool side_by_side = (third - label_w - ctx.em) / C >= 0.55f * ctx.em;
    const float width = side_by_side ? third : avail;
    const float cell = std::clamp((width - label_w - ctx.em) / C, 2.0f, 2.2f * ctx.em);  // as matrix_layout sizes it
    FlowLayout flow(side_by_side ? avail : 0.0f, 0.0f);
    HeatmapHit hover;
    for (int k = 0; k < 3; ++k) {
        if (k > 0) {
            flow.begin_block(op_w);
            if (side_by_side) ImGui::Dummy(ImVec2(0.0f, N * cell * 0.5f + ctx.em));
            ImGui::SetWindowFontScale(1.6f);
            ImGui::TextUnformatted(k == 1 ? " +" : " =");
            ImGui::SetWindowFontScale(1.0f);
            flow.end_block();
        }
        flow.begin_block(width);
        ImGui::TextUnformatted(parts[k].title);
        if (!parts[k].entry) {
            text_not_run_yet(ctx);
        } else {
            const Tensor& v = parts[k].entry->value;  // (N, C)
            const char* side = stack == Stack::encoder ? "src" : "tgt";
            MatrixPlot plot{"positional/" + (side + std::to_string(k)),
                            v.data.data(),
                            N,
                            C,
                            parts[k].entry->version,
                            Colormap::diverging,
                            &seq.labels};
            plot.marked_rows = &seq.unknown;
            plot.fixed_range = true;
            plot.lo = -m;
            plot.hi = m;
            plot.max_width = width;
            if (const HeatmapHit hit = plot_matrix(ctx, plot); hit.row >= 0) hover = hit;
        }
        flow.end_block();
    }
    flow.finish();
    if (hover.row >= 0) sum_tooltip(ctx, parts, seq, hover.row, hover.col);
}

// The formula, then three sections a teacher can fold: the tables, the waves, this sentence.
void draw_positional_sections(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    if (c.positional == Positional::rotary) {  // positions turn q and k inside each attention: the RoPE view
        draw_rope_panel(ctx);
        return;
    }
    // What the encoding is (forward/mechanisms/positions.h): the formula, the table, or a bias on the scores.
    const PositionMechanism positions(c);
    ImGui::TextUnformatted(ctx.t(positions.encoding_text()));
    if (!positions.added_to_embeddings()) return;  // none, or ALiBi's and T5's biases: no table to draw
    const PeTables& t = pe_tables(ctx);
    if (ImGui::CollapsingHeader(ctx.t("PE for every position, and PE·PEᵀ"), ImGuiTreeNodeFlags_DefaultOpen))
        draw_pe_matrices(ctx, t);
    mark_tour_section(ctx, TourTaskKind::change_pe_dims);  // the tour's sliders: shown from this heading
    if (ImGui::CollapsingHeader(ctx.t("Two dimensions over all positions"), ImGuiTreeNodeFlags_DefaultOpen)) {
        const size_t n_tokens =
            c.has_encoder() ? ctx.stepper().inputs().src_ids.size() : ctx.stepper().inputs().tgt_ids.size();
        draw_pe_curves(ctx, t, static_cast<int>(n_tokens));
    }
    if (ImGui::CollapsingHeader(ctx.t("This sentence: token embedding + positional encoding = input"),
                                ImGuiTreeNodeFlags_DefaultOpen))
        draw_sentence_sum(ctx);
}

}  // namespace

// Text wraps at the visible edge (ImGui's default edge lies under the scrollbar and widens the view).
void draw_positional_panel(PanelContext& ctx) {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);
    bool& compare = ctx.view.positional.compare.on;
    if (const int picked = radio_row({ctx.t("This model's encoding"), ctx.t("All schemes side by side")}, compare ? 1 : 0);
        picked >= 0)
        compare = picked == 1;
    if (compare)
        draw_position_comparison(ctx);
    else
        draw_positional_sections(ctx);
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
