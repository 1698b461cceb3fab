// The Output view's "Patching" (patching_view.h): the metric, the corrupted input, the piece picker, the two grids.
#include "panels/patching_view.h"

#include "attribution_tool.h"
#include "panels/corrupted_input_field.h"
#include "patching_tracker.h"
#include "platform/threads.h"
#include "widgets/diverging_ramp.h"
#include "widgets/radio_row.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tracker, made on first use in the platform's work mode.
struct PatchingCache {
    std::unique_ptr<PatchingTracker> tracker;
};

PatchingTracker& tracker(PatchingCache& c) {
    if (!c.tracker)
        c.tracker =
            std::make_unique<PatchingTracker>(platform::has_threads() ? WorkMode::own_thread : WorkMode::between_frames);
    return *c.tracker;
}

const ImVec4 kErrorColor(1.0f, 0.45f, 0.35f, 1.0f);
constexpr double kCardAfterSeconds = 0.3;  // ProgressScreen::kShowAfterSeconds

// A piece's name in the picker; in a model with both stacks, the decoder's pieces say so.
const char* piece_label(PatchPiece piece, bool two_stacks) {
    switch (piece) {
        case PatchPiece::residual: return two_stacks ? tr_noop("Decoder residual stream") : tr_noop("Residual stream");
        case PatchPiece::attn_out:
            return two_stacks ? tr_noop("Decoder self-attention output") : tr_noop("Attention output");
        case PatchPiece::ffn_out: return two_stacks ? tr_noop("Decoder FFN output") : tr_noop("FFN output");
        case PatchPiece::heads: return two_stacks ? tr_noop("Decoder self-attention heads") : tr_noop("Heads' outputs");
        case PatchPiece::enc_residual: return tr_noop("Encoder residual stream");
        case PatchPiece::enc_attn_out: return tr_noop("Encoder attention output");
        case PatchPiece::enc_ffn_out: return tr_noop("Encoder FFN output");
        case PatchPiece::enc_heads: return tr_noop("Encoder heads' outputs");
        case PatchPiece::cross_out: return tr_noop("Cross-attention output");
        case PatchPiece::cross_heads: return tr_noop("Cross-attention heads");
    }
    return to_string(piece);
}

// The pieces this model has: those whose patch steps exist.
std::vector<PatchPiece> model_pieces(const Stepper& stepper) {
    std::vector<PatchPiece> out;
    for (PatchPiece piece : kPatchPieces)
        if (patch_steps(stepper, piece)) out.push_back(piece);
    return out;
}

// A grid's columns: heads, or the positions of the sequence the piece's steps run over (the source's in an encoder,
// the target's in a decoder), read off the first step's record.
struct GridAxes {
    bool heads = false;
    Sequence positions = Sequence::target;
};

GridAxes grid_axes(const Stepper& stepper, PatchPiece piece) {
    GridAxes axes;
    axes.heads = by_head(piece);
    const auto steps = patch_steps(stepper, piece);
    if (steps && !steps->empty()) axes.positions = stepper.step(steps->front()).record.rows;
    return axes;
}

// A token as a label: the space token quoted, so it shows.
std::string token_label(const PanelContext& ctx, int id) {
    const std::string t = token_or_id(output_vocab(ctx), id);
    return t == " " ? "' '" : t;
}

// The clean run's tokens a grid's columns are.
SequenceView column_sequence(const PanelContext& ctx, const GridAxes& axes) {
    return axes.positions == Sequence::source ? ctx.session.source() : ctx.session.target();
}

// "logit("나") − logit("는") at position 3 ("red")".
std::string metric_text(const PanelContext& ctx, const AttributionMetric& m) {
    const SequenceView out = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    std::string text = std::string(ctx.t("logit")) + "(\"" + token_label(ctx, m.token) + "\")";
    if (m.kind == AttributionMetricKind::logit_diff)
        text += std::string(" − ") + ctx.t("logit") + "(\"" + token_label(ctx, m.other) + "\")";
    char buf[160];
    const size_t q = static_cast<size_t>(m.position);
    std::snprintf(buf, sizeof buf, ctx.t(" at position %d (\"%s\")"), static_cast<int>(m.position),
                  q < out.labels.size() ? out.labels[q].c_str() : "");
    return text + buf;
}

// The metric line, and a button to "Why this output?", where it is picked.
void metric_line(PanelContext& ctx, const AttributionMetric& m) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Metric:"));
    ImGui::SameLine();
    const std::string text = metric_text(ctx, m);
    ImGui::TextUnformatted(text.c_str());
    same_line_if_fits(button_width_for(ctx.t("Change the metric")), ctx.em);
    if (ImGui::Button(ctx.t("Change the metric"))) {
        ctx.view.output.why.open = true;
        ctx.view.output.patching.open = false;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Patching reads the metric picked in \"Why this output?\"."));
}

// The corrupted sentence as read, or why there is none to patch with: where to type it, or its one-line error.
// Returns whether it can run.
bool corrupted_line(PanelContext& ctx, const CorruptedInput& corrupted) {
    const PatchingViewState& p = ctx.view.output.patching;
    const bool source = ctx.config().has_encoder();
    if (p.corrupt.empty()) {
        text_disabled_wrapped(ctx.t(source ? "Type a corrupted source in the Input view: the same number of tokens, "
                                             "a word changed. The grid shows which layers and positions carry the "
                                             "difference to the metric."
                                           : "Type a corrupted prompt in the Input view: the same number of tokens, "
                                             "a word changed. The grid shows which layers and positions carry the "
                                             "difference to the metric."));
        return false;
    }
    ImGui::TextUnformatted(ctx.t(source ? "Corrupted source:" : "Corrupted prompt:"));
    ImGui::SameLine();
    corrupted_tokens(ctx, corrupted);
    if (corrupted.error.empty()) return true;
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", corrupted_error_text(ctx, corrupted).c_str());
    ImGui::PopStyleColor();
    return false;
}

// The piece (up to four as radio buttons; more, an encoder-decoder's ten, in a combo), and raw or normalised.
PatchPiece piece_picker(PanelContext& ctx, const std::vector<PatchPiece>& pieces) {
    PatchingViewState& p = ctx.view.output.patching;
    const bool two_stacks = ctx.config().arch == Arch::encoder_decoder;
    int selected = 0;
    std::vector<const char*> labels;
    for (size_t i = 0; i < pieces.size(); ++i) {
        labels.push_back(ctx.t(piece_label(pieces[i], two_stacks)));
        if (p.piece == to_string(pieces[i])) selected = static_cast<int>(i);
    }
    int picked = -1;
    if (pieces.size() <= 4) {
        picked = radio_row(labels, selected);
    } else {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(ctx.t("Patch:"));
        ImGui::SameLine();
        float widest = 0.0f;
        for (const char* label : labels) widest = std::max(widest, ImGui::CalcTextSize(label).x);
        ImGui::SetNextItemWidth(widest + 3.0f * ctx.em);
        if (ImGui::BeginCombo("##patching_piece", labels[static_cast<size_t>(selected)])) {
            for (size_t i = 0; i < labels.size(); ++i)
                if (ImGui::Selectable(labels[i], static_cast<int>(i) == selected)) picked = static_cast<int>(i);
            ImGui::EndCombo();
        }
    }
    if (picked >= 0) {
        selected = picked;
        p.row = p.col = -1;
    }
    p.piece = to_string(pieces[static_cast<size_t>(selected)]);
    same_line_if_fits(checkbox_width(ctx.t("Normalised")), 2.0f * ctx.em);
    ImGui::Checkbox(ctx.t("Normalised"), &p.normalised);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("(patched − corrupted) / (clean − corrupted): 1 where the patch brings the whole "
                                      "clean metric back, 0 where it changes nothing. Off: the patched run's metric."));
    return pieces[static_cast<size_t>(selected)];
}

// While the grid computes: what it does, how far it has come, and Cancel.
void progress_card(PanelContext& ctx, PatchingTracker& t) {
    const PatchingRun::Progress p = t.run().progress();
    char line[256];
    if (p.total > 0)
        std::snprintf(line, sizeof line, ctx.t("Patching: cell %lld of %lld (%.1f s)"), static_cast<long long>(p.done),
                      static_cast<long long>(p.total), p.seconds);
    else
        std::snprintf(line, sizeof line, ctx.t("Patching: running the clean and corrupted inputs (%.1f s)"), p.seconds);
    const float em = ctx.em;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_PopupBg));
    ImGui::BeginChild("##patching_progress", ImVec2(0.0f, ImGui::GetFrameHeightWithSpacing() * 2.0f + 0.6f * em), true,
                      ImGuiWindowFlags_NoScrollbar);
    ImGui::TextUnformatted(line);
    const float filled = p.total > 0 ? static_cast<float>(p.done) / static_cast<float>(p.total)
                                     : static_cast<float>(std::fmod(p.seconds, 1.0));
    ImGui::ProgressBar(filled, ImVec2(std::min(24.0f * em, ImGui::GetContentRegionAvail().x * 0.6f), 0.5f * em), "");
    ImGui::SameLine();
    if (ImGui::SmallButton(ctx.t("Cancel"))) t.cancel();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

// A cell's value as the grid shows it: normalised, or the metric itself.
double shown_value(const PatchGrid& g, int64_t r, int64_t c, bool normalised) {
    return normalised ? g.normalised(r, c) : g.at(r, c);
}

// Its colour's position on the ramp: the value over the scale, the raw metric centred on the corrupted run's.
float ramp_position(const PatchGrid& g, int64_t r, int64_t c, bool normalised, double range) {
    const double v = normalised ? g.normalised(r, c) : g.at(r, c) - g.corrupt;
    return static_cast<float>(v / range);
}

// A grid's scale: its largest |value| (normalised: at least 1; raw: from the corrupted metric). Each grid has its
// own, so that an estimate far off does not wash the exact grid out; the cells write their values.
double grid_range(const PatchGrid& g, bool normalised) {
    double range = normalised ? 1.0 : 1e-9;
    for (int64_t i = 0; i < g.rows; ++i)
        for (int64_t j = 0; j < g.cols; ++j) {
            const double v = normalised ? g.normalised(i, j) : g.at(i, j) - g.corrupt;
            if (std::isfinite(v)) range = std::max(range, std::fabs(v));
        }
    return range;
}

std::string value_text(double v) {
    if (!std::isfinite(v)) return "—";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", std::fabs(v) < 0.0005 ? 0.0 : v);
    return buf;
}

// A column's label: the token at that position, or the head.
std::string column_label(const GridAxes& axes, const SequenceView& seq, int64_t c) {
    if (axes.heads) return "h" + std::to_string(c);
    const size_t i = static_cast<size_t>(c);
    return i < seq.labels.size() ? seq.labels[i] : std::to_string(c);
}

// The hover lines of cell (r, c): where it is, the exact value and the estimate.
void cell_tooltip(const PanelContext& ctx, const PatchingResult& res, const GridAxes& axes, const SequenceView& seq,
                  int64_t r, int64_t c) {
    const PatchGrid& g = *res.exact;
    ImGui::BeginTooltip();
    if (axes.heads)
        ImGui::Text(ctx.t("Layer %d, head %d"), static_cast<int>(r), static_cast<int>(c));
    else
        ImGui::Text(ctx.t("Layer %d, position %d (\"%s\")"), static_cast<int>(r), static_cast<int>(c),
                    column_label(axes, seq, c).c_str());
    ImGui::Text(ctx.t("Patched: %s (normalised %s)"), value_text(g.at(r, c)).c_str(),
                value_text(g.normalised(r, c)).c_str());
    if (res.gradient)
        ImGui::Text(ctx.t("Estimate: %s (normalised %s)"), value_text(res.gradient->at(r, c)).c_str(),
                    value_text(res.gradient->normalised(r, c)).c_str());
    ImGui::TextDisabled("%s", ctx.t("Click: mark this cell in both grids."));
    ImGui::EndTooltip();
}

// One grid as a heatmap: rows the layers, columns the positions (their tokens above) or heads; each cell coloured
// on [−range, range] with its value written where it fits; the marked cell outlined. Hover: the values; a click
// marks the cell.
void grid_heatmap(PanelContext& ctx, const char* id, const PatchGrid& g, const PatchingResult& res,
                  const GridAxes& axes, const SequenceView& seq, double range, float width) {
    PatchingViewState& p = ctx.view.output.patching;
    const float em = ctx.em, line = ImGui::GetTextLineHeight();
    if (g.rows == 0 || g.cols == 0) return;
    const float label_w = ImGui::CalcTextSize("L00").x + 0.5f * em;
    const float cell_w = std::clamp((width - label_w) / static_cast<float>(g.cols), 1.2f * em, 4.0f * em);
    const float cell_h = std::clamp(cell_w * 0.6f, line + 2.0f, 1.8f * em);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 cells(origin.x + label_w, origin.y + line + 0.2f * em);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    float widest = 0.0f;
    for (int64_t c = 0; c < g.cols; ++c)
        widest = std::max(widest, ImGui::CalcTextSize(column_label(axes, seq, c).c_str()).x);
    // Narrow columns: a label every few, each with the room of those columns (at most 4 em of it shown).
    const int64_t every = static_cast<int64_t>(std::ceil((std::min(widest, 4.0f * em) + 0.4f * em) / cell_w));
    for (int64_t c = 0; c < g.cols; c += every) {  // each label centred over its column, clipped to its room
        const std::string label = column_label(axes, seq, c);
        const float x0 = cells.x + static_cast<float>(c) * cell_w;
        const float tw = ImGui::CalcTextSize(label.c_str()).x;
        const float room = cell_w * static_cast<float>(every);
        draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x0 + room - 1.0f, cells.y), true);
        draw->AddText(ImVec2(x0 + std::max(0.0f, 0.5f * (cell_w - tw)), origin.y), dim, label.c_str());
        draw->PopClipRect();
    }
    const bool numbers = ImGui::CalcTextSize("-0.00").x + 0.3f * em <= cell_w;
    for (int64_t r = 0; r < g.rows; ++r) {
        const float y = cells.y + static_cast<float>(r) * cell_h;
        const std::string row = "L" + std::to_string(r);
        const float tw = ImGui::CalcTextSize(row.c_str()).x;
        draw->AddText(ImVec2(cells.x - 0.4f * em - tw, y + 0.5f * (cell_h - line)), text, row.c_str());
        for (int64_t c = 0; c < g.cols; ++c) {
            const double v = shown_value(g, r, c, p.normalised);
            const ImVec4 bg = std::isfinite(v) ? diverging_ramp(ramp_position(g, r, c, p.normalised, range))
                                               : ImGui::GetStyleColorVec4(ImGuiCol_FrameBg);
            const ImVec2 a(cells.x + static_cast<float>(c) * cell_w, y);
            draw->AddRectFilled(a, ImVec2(a.x + cell_w - 1.0f, a.y + cell_h - 1.0f), ImGui::ColorConvertFloat4ToU32(bg));
            if (!numbers) continue;
            char buf[16];
            std::snprintf(buf, sizeof buf, std::fabs(v) >= 9.995 ? "%.1f" : "%.2f", std::fabs(v) < 0.005 ? 0.0 : v);
            const std::string shown = std::isfinite(v) ? buf : "—";
            const ImVec2 ts = ImGui::CalcTextSize(shown.c_str());
            draw->PushClipRect(a, ImVec2(a.x + cell_w - 1.0f, a.y + cell_h - 1.0f), true);
            draw->AddText(ImVec2(a.x + 0.5f * (cell_w - ts.x), a.y + 0.5f * (cell_h - ts.y)), text_on_ramp(bg),
                          shown.c_str());
            draw->PopClipRect();
        }
    }
    if (p.row >= 0 && p.col >= 0 && p.row < g.rows && p.col < g.cols) {  // the marked cell: dark, then light inside
        const ImVec2 a(cells.x + static_cast<float>(p.col) * cell_w, cells.y + static_cast<float>(p.row) * cell_h);
        const ImVec2 b(a.x + cell_w, a.y + cell_h);
        draw->AddRect(ImVec2(a.x - 2.0f, a.y - 2.0f), ImVec2(b.x + 1.0f, b.y + 1.0f), IM_COL32(0, 0, 0, 255), 0.0f, 0,
                      3.0f);
        draw->AddRect(a, ImVec2(b.x - 1.0f, b.y - 1.0f), IM_COL32(255, 210, 60, 255), 0.0f, 0, 2.0f);
    }
    ImGui::SetCursorScreenPos(cells);
    ImGui::InvisibleButton(id, ImVec2(cell_w * static_cast<float>(g.cols), cell_h * static_cast<float>(g.rows)));
    if (!ImGui::IsItemHovered()) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int64_t c = std::clamp<int64_t>(static_cast<int64_t>((mouse.x - cells.x) / cell_w), 0, g.cols - 1);
    const int64_t r = std::clamp<int64_t>(static_cast<int64_t>((mouse.y - cells.y) / cell_h), 0, g.rows - 1);
    cell_tooltip(ctx, res, axes, seq, r, c);
    if (ImGui::IsItemClicked()) {
        p.row = static_cast<int>(r);
        p.col = static_cast<int>(c);
    }
}

// The colour scale under a grid: its ends and middle, and with `caption` what the colours mean.
void legend(const PanelContext& ctx, const PatchingResult& res, double range, float width, bool caption) {
    const bool normalised = ctx.view.output.patching.normalised;
    const float em = ctx.em, bar_w = std::min(width, 16.0f * em), bar_h = 0.7f * em;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i) {
        const float t0 = static_cast<float>(i) / kSteps, t1 = static_cast<float>(i + 1) / kSteps;
        draw->AddRectFilled(ImVec2(o.x + t0 * bar_w, o.y), ImVec2(o.x + t1 * bar_w, o.y + bar_h),
                            ImGui::ColorConvertFloat4ToU32(diverging_ramp((t0 + t1) - 1.0f)));
    }
    ImGui::Dummy(ImVec2(bar_w, bar_h));
    const double mid = normalised ? 0.0 : res.corrupt;
    const std::string lo = value_text(mid - range), centre = value_text(mid), hi = value_text(mid + range);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImVec2 q = ImGui::GetCursorScreenPos();
    draw->AddText(q, dim, lo.c_str());
    draw->AddText(ImVec2(q.x + 0.5f * bar_w - 0.5f * ImGui::CalcTextSize(centre.c_str()).x, q.y), dim, centre.c_str());
    draw->AddText(ImVec2(q.x + bar_w - ImGui::CalcTextSize(hi.c_str()).x, q.y), dim, hi.c_str());
    ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
    if (!caption) return;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextDisabled("%s", ctx.t(normalised ? "1: the patch brings the clean metric back; 0: it changes nothing."
                                               : "White: the corrupted run's metric; red above it, blue below."));
    ImGui::PopTextWrapPos();
}

// The estimate's grid, or the one line saying why there is none.
void estimate_column(PanelContext& ctx, const PatchingResult& res, const GridAxes& axes, const SequenceView& seq,
                     float width) {
    ImGui::TextUnformatted(ctx.t("Gradient estimate (attribution patching)"));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("metric(corrupted) + (clean − corrupted) · ∂metric/∂piece, from one backward "
                                      "pass at the corrupted run."));
    if (!res.gradient) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        ImGui::TextUnformatted(res.gradient.error().message.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        return;
    }
    const double range = grid_range(*res.gradient, ctx.view.output.patching.normalised);
    grid_heatmap(ctx, "##patching_estimate", *res.gradient, res, axes, seq, range, width);
    legend(ctx, res, range, width, false);
}

// The two runs' metric, the grids side by side (or one above the other in a narrow window), and their agreement.
void result_section(PanelContext& ctx, const PatchingResult& res) {
    if (!res.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", res.error.c_str());
        ImGui::PopStyleColor();
        return;
    }
    ImGui::Text(ctx.t("Clean: %s   Corrupted: %s   Difference: %s"), value_text(res.clean).c_str(),
                value_text(res.corrupt).c_str(), value_text(res.clean - res.corrupt).c_str());
    if (!res.exact) {
        ImGui::TextColored(kErrorColor, "%s", res.exact.error().message.c_str());
        return;
    }
    if (ctx.view.output.patching.normalised && res.clean == res.corrupt)
        text_disabled_wrapped(ctx.t("The clean and corrupted metrics are equal: there is nothing to normalise by."));
    const GridAxes axes = grid_axes(ctx.stepper(), res.exact->piece);
    const SequenceView seq = column_sequence(ctx, axes);
    const double range = grid_range(*res.exact, ctx.view.output.patching.normalised);
    const bool two_columns = ImGui::GetContentRegionAvail().x >= 40.0f * ctx.em;
    if (!ImGui::BeginTable("##patching_columns", two_columns ? 2 : 1, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    const float col_w = ImGui::GetContentRegionAvail().x;
    ImGui::TextUnformatted(ctx.t("Exact: one patched run per cell"));
    grid_heatmap(ctx, "##patching_exact", *res.exact, res, axes, seq, range, col_w);
    legend(ctx, res, range, col_w, true);
    if (two_columns)
        ImGui::TableNextColumn();
    else
        ImGui::Spacing();
    estimate_column(ctx, res, axes, seq, ImGui::GetContentRegionAvail().x);
    ImGui::EndTable();
    if (std::isfinite(res.correlation))
        ImGui::Text(ctx.t("The estimate against the exact grid: Pearson r = %.3f"), res.correlation);
}

}  // namespace

void draw_patching_view(PanelContext& ctx) {
    PatchingCache& c = ctx.caches.get<PatchingCache>();
    const TraceEntry* logits = ctx.stepper().entry(StepId::head(StepKind::logits, ctx.config()));  // (N, V)
    if (!logits) {
        text_not_run_yet(ctx);
        return;
    }
    const WhyOutputState& w = ctx.view.output.why;
    AttributionChoice choice;
    choice.kind = w.diff ? AttributionMetricKind::logit_diff : AttributionMetricKind::logit;
    choice.token = w.token;
    choice.other = w.other;
    choice.position = w.position;
    const auto metric = resolve_metric(logits->value, choice);
    if (!metric) {
        ImGui::TextColored(kErrorColor, "%s", metric.error().message.c_str());
        return;
    }
    metric_line(ctx, *metric);
    const CorruptedInput corrupted =
        read_corrupted_input(ctx.session.model(), ctx.stepper().inputs(), ctx.view.output.patching.corrupt);
    if (!corrupted_line(ctx, corrupted)) return;
    const std::vector<PatchPiece> pieces = model_pieces(ctx.stepper());
    if (pieces.empty()) {
        text_disabled_wrapped(ctx.t("This model has no pieces to patch."));
        return;
    }
    const PatchPiece piece = piece_picker(ctx, pieces);
    ImGui::Separator();
    PatchingTracker& t = tracker(c);
    t.update(ctx.stepper(), corrupted.inputs, *metric, piece);
    // As the app's progress card: a grid done within kCardAfterSeconds shows none (the last one stays meanwhile).
    if (t.run().busy() && t.run().progress().seconds >= kCardAfterSeconds) progress_card(ctx, t);
    if (t.cancelled()) {
        ImGui::TextDisabled("%s", ctx.t("Cancelled."));
        ImGui::SameLine();
        if (ImGui::SmallButton(ctx.t("Run again"))) t.retry();
    }
    const std::optional<PatchingResult>& result = t.result();
    if (result && result->exact && result->exact->piece != piece) return;  // another piece's, until it comes
    if (result) result_section(ctx, *result);
}

}  // namespace attnlab::gui
