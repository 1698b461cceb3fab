// The output view: per position, the most probable tokens of p = softmax(logits / T) (N, V) as
// bars. What a position predicts is the head's (its step record): the next token, with the buttons
// that append one (argmax, or a sample cut by top-k and top-p as core/sampling.h does it) or
// translate greedily to <eos>, or play token by token (generation_strip.h: the large bars then show the
// position that chose the newest token); or, for BERT's masked-LM head, the token at that position. While
// Sample is on, the bars show the sampling set: kept tokens with p → their renormalised p, cut ones dimmed.
// "Why this output?" beside the predictions explains one logit by its components (panels/why_output.h), and
// "Patching" shows which layers and positions carry a corrupted input's change to it (panels/patching_view.h).
#include "output_prediction.h"
#include "panels/generation_strip.h"
#include "panels/loss_controls.h"
#include "panels/panel_context.h"
#include "panels/patching_view.h"
#include "panels/sampling_text.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"
#include "panels/why_output.h"
#include "prediction_rows.h"
#include "sampling.h"
#include "translation_record.h"
#include "widgets/radio_row.h"

#include "forward/mechanisms/soft_cap.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

constexpr int kMaxBars = 10;        // bars per position
constexpr int kMaxSampleTopK = 50;  // the Top k slider's end while sampling (0 is "all")

// Derived from the trace, kept between frames so a frame costs nothing until the logits or the options change, and
// then only the rows that changed (prediction_rows.h).
struct PredictionCache {
    uint64_t logits_version = 0;
    SamplingOptions options{0.0f, 0, 0.0f};
    bool sampling = false;
    PredictionRows rows;
};

// Whether the bars show the sampling set: a next-token head that generates, with Sample on.
bool shows_sampling(const PanelContext& ctx, bool generates) { return generates && ctx.view.output.sample; }

// What Generate draws from: the sampling set leaves out the ids the model never generates (Marian's <pad>).
SamplingOptions sampling_options(const PanelContext& ctx) {
    return {ctx.view.output.temperature, ctx.view.output.top_k, ctx.view.output.top_p,
            ctx.stepper().config().never_generated};
}

const std::vector<PositionPrediction>& predictions(PanelContext& ctx, const TraceEntry& logits, Prediction predicts,
                                                   bool sampling) {
    PredictionCache& c = ctx.caches.get<PredictionCache>();
    const SamplingOptions o = sampling_options(ctx);
    if (c.logits_version == logits.version && c.sampling == sampling && c.options.temperature == o.temperature &&
        c.options.top_k == o.top_k && c.options.top_p == o.top_p)
        return c.rows.rows();
    const bool teacher_forced = predicts == Prediction::next_token;  // position r predicts tgt[r + 1]
    const std::vector<int>& ids = ctx.stepper().inputs().tgt_ids;
    std::vector<int> next(static_cast<size_t>(logits.value.dim(0)), -1);
    for (size_t r = 0; teacher_forced && r < next.size() && r + 1 < ids.size(); ++r) next[r] = ids[r + 1];
    const int64_t rows_kept = ctx.stepper().rows_kept_since(final_logits_of(ctx.config()), c.logits_version);
    c.logits_version = logits.version;
    c.options = o;
    c.sampling = sampling;
    return c.rows.update(logits.value, next, o, sampling, kMaxBars, rows_kept);
}

// How many bars a position shows: top k of them (all: kMaxBars) without sampling; with it, the
// top-k set and the first token it cuts, dimmed, so the cut shows.
int bars_shown(const PanelContext& ctx, bool sampling) {
    const int k = ctx.view.output.top_k;
    if (k <= 0 || k >= kMaxBars) return kMaxBars;
    return sampling ? k + 1 : k;
}

// A token as a bar's label: the space token quoted, so it shows.
std::string token_text(const std::optional<Vocab>& vocab, int id) {
    const std::string t = token_or_id(vocab, id);
    return t == " " ? "' '" : t;
}

ImU32 with_alpha(ImU32 color, float alpha) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

// A bar's tooltip: the token, its p (at T, and at T = 1 when they differ), and where sampling put it.
void bar_tooltip(const PanelContext& ctx, const PositionPrediction& pred, size_t rank, bool sampling, int position,
                 const float* logits_row, const std::string& label) {
    const Candidate& c = pred.top[rank];
    ImGui::BeginTooltip();
    ImGui::Text("\"%s\"  (id %d)", label.c_str(), c.id);
    const double T = static_cast<double>(ctx.view.output.temperature);
    if (temperatures_differ(ctx.view.output)) {
        ImGui::Text("p (T = %.2f) = %.4f   logit = %.3f", T, static_cast<double>(c.p),
                    static_cast<double>(logits_row[c.id]));
        ImGui::TextDisabled("p (T = 1, %s) = %.4f", ctx.t("the probs step"), static_cast<double>(c.p_t1));
    } else {
        ImGui::Text("p = %.4f   logit = %.3f", static_cast<double>(c.p), static_cast<double>(logits_row[c.id]));
    }
    if (sampling) {
        if (rank < static_cast<size_t>(pred.n_kept)) {
            ImGui::Text("%s: %.4f", ctx.t("renormalised over the sampling set"),
                        static_cast<double>(pred.kept_p(rank)));
        } else if (rank < static_cast<size_t>(pred.n_top_k)) {  // wrapped as the explanation under it is
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 30.0f * ctx.em);
            text_disabled_wrapped(top_p_cut_note(pred, sampling_options(ctx), ctx.view.settings.korean).c_str());
            ImGui::PopTextWrapPos();
        } else {
            ImGui::TextDisabled("%s", ctx.t("Cut by top k: it is not among the k most probable."));
        }
    }
    if (c.id == pred.next)
        ImGui::TextColored(ImVec4(0.35f, 0.78f, 0.47f, 1.0f), "%s", ctx.t("the token that really follows"));
    step_explanation_section(ctx, StepId::head(StepKind::probs, ctx.config()), {0, position, -1});
    ImGui::EndTooltip();
}

// A bar's percentage: "12.3%", or while sampling a kept token's "0.42% → 16.3%" (p, then renormalised p).
std::string bar_percent(const PositionPrediction& pred, size_t rank, bool kept_in_sampling) {
    const std::string p = percent_text(pred.top[rank].p);
    return kept_in_sampling ? p + " → " + percent_text(pred.kept_p(rank)) : p;
}

// Horizontal bars: token label, bar ∝ p (full width = 100%), percentage. The true next token is
// green. While sampling, a kept token's bar carries a faint extension to its renormalised p and its
// text reads "p → renormalised p"; a cut token is drawn dimmed, below a line at the cut.
void probability_bars(const PanelContext& ctx, const PositionPrediction& pred, int position, const float* logits_row,
                      float width, bool sampling) {
    const std::optional<Vocab>& vocab = output_vocab(ctx);
    const int k = std::min<int>(bars_shown(ctx, sampling), static_cast<int>(pred.top.size()));
    const float line = ImGui::GetTextLineHeightWithSpacing(), em = ctx.em;
    if (!pred.error.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        ImGui::TextDisabled("%s", pred.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    float label_w = 2.0f * em;
    for (int i = 0; i < k; ++i)
        label_w =
            std::max(label_w, ImGui::CalcTextSize(token_text(vocab, pred.top[static_cast<size_t>(i)].id).c_str()).x);
    label_w = std::min(label_w, (sampling ? 4.5f : 7.0f) * em) + 0.5f * em;
    float pct_w = ImGui::CalcTextSize(sampling ? "100.0% → 100.0%" : "100.0%").x;  // small p may print wider
    for (int i = 0; i < k; ++i)
        pct_w = std::max(
            pct_w,
            ImGui::CalcTextSize(bar_percent(pred, static_cast<size_t>(i), sampling && i < pred.n_kept).c_str()).x);
    pct_w += 0.4f * em;
    const float bar_w = std::max(2.0f * em, width - label_w - pct_w);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
    const ImU32 truth = IM_COL32(90, 200, 120, 255);
    for (int i = 0; i < k; ++i) {
        const size_t rank = static_cast<size_t>(i);
        const Candidate& c = pred.top[rank];
        const bool kept = !sampling || i < pred.n_kept;
        const float y = origin.y + static_cast<float>(i) * line;
        const std::string label = token_text(vocab, c.id);
        const bool is_next = c.id == pred.next;
        const ImVec2 lsize = ImGui::CalcTextSize(label.c_str());
        const ImU32 label_color = is_next ? (kept ? truth : with_alpha(truth, 0.5f)) : (kept ? text : dim);
        draw->PushClipRect(ImVec2(origin.x, y), ImVec2(origin.x + label_w - 0.4f * em, y + line), true);
        draw->AddText(ImVec2(origin.x + std::max(0.0f, label_w - 0.5f * em - lsize.x), y), label_color, label.c_str());
        draw->PopClipRect();
        const ImVec2 a(origin.x + label_w, y + line * 0.12f), b(a.x + bar_w * c.p, y + line * 0.82f);
        draw->AddRectFilled(a, ImVec2(a.x + bar_w, b.y), ImGui::GetColorU32(ImGuiCol_FrameBg));
        const ImU32 fill = is_next ? truth : bar;
        if (sampling && kept)  // the renormalised p, faint, behind the raw p
            draw->AddRectFilled(a, ImVec2(a.x + bar_w * pred.kept_p(rank), b.y), with_alpha(fill, 0.3f));
        draw->AddRectFilled(a, b, with_alpha(fill, !kept ? 0.25f : is_next || i == 0 ? 1.0f : 0.65f));
        draw->AddText(ImVec2(a.x + bar_w + 0.4f * em, y), kept ? text : dim,
                      bar_percent(pred, rank, sampling && kept).c_str());
        if (sampling && i == pred.n_kept && i > 0)  // the cut, between the last kept and the first cut token
            draw->AddLine(ImVec2(origin.x, y), ImVec2(origin.x + width, y), with_alpha(bar, 0.8f), 1.0f);
        const bool hovered = ImGui::IsMouseHoveringRect(ImVec2(origin.x, y), ImVec2(origin.x + width, y + line));
        if (hovered && ImGui::IsWindowHovered()) bar_tooltip(ctx, pred, rank, sampling, position, logits_row, label);
    }
    ImGui::Dummy(ImVec2(width, static_cast<float>(k) * line));
}

// "actual: red 12.3% (#3)" under a position whose following token is known.
void next_token_note(const PanelContext& ctx, const PositionPrediction& pred) {
    if (pred.next < 0) return;
    ImGui::TextColored(ImVec4(0.35f, 0.78f, 0.47f, 1.0f), "%s: %s  %s  (#%d)", ctx.t("actual next"),
                       token_text(output_vocab(ctx), pred.next).c_str(), percent_text(pred.next_p).c_str(),
                       pred.next_rank);
}

void generation_controls(PanelContext& ctx) {
    OutputViewState& v = ctx.view.output;
    if (ImGui::Button(ctx.t("Generate next token")) &&
        ctx.session.generate_next(v.sample, v.temperature, static_cast<uint64_t>(v.sample_seed), v.top_k, v.top_p) &&
        v.sample)
        ++v.sample_seed;  // the next sample draws afresh
    ImGui::SameLine();
    ImGui::Checkbox(ctx.t("Sample"), &v.sample);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n%s",
                          ctx.t("Off: take the most probable token (argmax). On: draw one from p at this temperature."),
                          ctx.t("Top k and top p cut the tokens it draws from; the bars show which stay in."));
    if (v.sample) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s %d", ctx.t("Seed"), v.sample_seed);
    }
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    const bool prompt = ctx.config().arch == Arch::decoder_only;  // greedy decoding continues the prompt
    if (ImGui::Button(ctx.t(prompt ? "Continue to <eos>" : "Translate"))) {
        if (prompt)
            ctx.session.translate();
        else  // remembered, so the Input view calls the target translated until it is edited
            ctx.caches.get<TranslationRecord>().translate(ctx.session);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t(prompt ? "Greedy decoding: append the argmax until <eos>."
                                             : "Greedy decoding: from <sos>, append the argmax until <eos>."));
    if (ctx.config().arch == Arch::encoder_decoder) {
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Clear target"))) ctx.session.set_tgt_text("");
    }
    generation_animation_controls(ctx);
    if (const std::string end = target_end_note(ctx.session, ctx.view.settings.korean); !end.empty())
        ImGui::TextDisabled("%s", end.c_str());
    if (!ctx.session.error().empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", ctx.session.error().c_str());
}

// Temperature and Top k always; Top p where the model generates (enabled while Sample is on). With
// Sample on, Top k runs to kMaxSampleTopK and 0 is "all"; otherwise it only sets how many bars show.
void display_controls(PanelContext& ctx, bool generates) {
    OutputViewState& v = ctx.view.output;
    const bool sampling = shows_sampling(ctx, generates);
    const float gap = 2.0f * ctx.em, slider_w = 8.0f * ctx.em;
    value_slider_float(ctx.t("Temperature"), "##temperature", &v.temperature, 0.1f, 5.0f, "T = %.2f", slider_w,
                       ImGuiSliderFlags_Logarithmic);
    mark_tour_target(ctx, TourTaskKind::change_temperature);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s",
                          ctx.t("p = softmax(logits / T): T < 1 sharpens, T > 1 flattens. Display and sampling only."));
    same_line_if_fits(value_slider_width(ctx.t("Top k"), "50", slider_w), gap);
    value_slider_int(ctx.t("Top k"), "##top_k", &v.top_k, sampling ? 0 : 1, sampling ? kMaxSampleTopK : kMaxBars,
                     v.top_k == 0 ? ctx.t("all") : "%d", slider_w);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t(sampling ? "Sampling keeps only the k most probable tokens (all: no cut). "
                                                 "The bars show at most 10."
                                               : "How many of the most probable tokens each position shows."));
    if (generates) {  // beside Top k when it fits, else on the next line (a narrow window)
        same_line_if_fits(value_slider_width(ctx.t("Top p"), "1.00", slider_w), gap);
        ImGui::BeginDisabled(!sampling);
        value_slider_float(ctx.t("Top p"), "##top_p", &v.top_p, 0.05f, 1.0f, "%.2f", slider_w);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", ctx.t(sampling ? "Nucleus sampling: of the top k, keep the fewest most probable "
                                                     "tokens whose p adds up to at least top p (1: no cut)."
                                                   : "Turn on Sample to draw with top p."));
    }
    v.temperature = std::clamp(v.temperature, 0.1f, 5.0f);
    v.top_k = std::clamp(v.top_k, 0, kMaxSampleTopK);
    v.top_p = std::clamp(v.top_p, 0.05f, 1.0f);
    // The bars are p at T; the stepper's probs step is T = 1. Both say so whenever the two differ.
    if (temperatures_differ(v))
        ImGui::TextColored(ImVec4(0.95f, 0.72f, 0.35f, 1.0f), ctx.t("Bars: p at T = %.2f (the probs step is T = 1)"),
                           static_cast<double>(v.temperature));
}

// "Sampling from 3 tokens holding 82.4% of p …": the set the next draw uses, and what top p counted in.
// Wrapped at spaces only, so that no number splits at its decimal point.
void draw_sampling_caption(const PanelContext& ctx, const PositionPrediction& pred) {
    text_disabled_wrapped(sampling_caption(pred, sampling_options(ctx), ctx.view.settings.korean).c_str());
}

// The last position, large: what the model would append next.
void next_prediction(const PanelContext& ctx, const PositionPrediction& pred, int position, const float* logits_row,
                     const std::string& last, bool sampling) {
    ImGui::Text("%s  ·  %s \"%s\"", ctx.t("Next-token prediction"), ctx.t("after"), last.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %.2f %s)", ctx.t("entropy"), static_cast<double>(pred.entropy_bits), ctx.t("bits"));
    if (sampling && pred.error.empty()) draw_sampling_caption(ctx, pred);
    probability_bars(ctx, pred, position, logits_row, std::min(ImGui::GetContentRegionAvail().x, 36.0f * ctx.em),
                     sampling);
}

// While the generation token by token shows its run: the position that chose the newest token, large,
// its bars green at the chosen one.
void chosen_token(const PanelContext& ctx, const PositionPrediction& pred, int position, const float* logits_row,
                  const std::string& chosen, bool sampling) {
    ImGui::Text(ctx.t("Position %d chose \"%s\""), position, chosen.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %.2f %s)", ctx.t("entropy"), static_cast<double>(pred.entropy_bits), ctx.t("bits"));
    text_disabled_wrapped(ctx.t("The distribution the newest token was chosen from; the chosen token is green."));
    probability_bars(ctx, pred, position, logits_row, std::min(ImGui::GetContentRegionAvail().x, 36.0f * ctx.em),
                     sampling);
}

// One card per position, wrapping; when generating, the last one (the next-token prediction) is outlined.
// "i  token →" heads a card: what follows token i, or what the token at i is.
void position_grid(PanelContext& ctx, const std::vector<PositionPrediction>& rows, const Tensor& logits,
                   const SequenceView& seq, bool generates, bool sampling) {
    const float em = ctx.em, card_w = (sampling ? 19.0f : 17.0f) * em;
    const float card_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(bars_shown(ctx, sampling) + 2) +
                         ImGui::GetStyle().WindowPadding.y * 2.0f;
    const float avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
    const int per_line = std::max(1, static_cast<int>((avail + spacing) / (card_w + spacing)));
    for (size_t r = 0; r < rows.size(); ++r) {
        if (r % static_cast<size_t>(per_line) != 0) ImGui::SameLine();
        const bool last = generates && r + 1 == rows.size();
        if (last) ImGui::PushStyleColor(ImGuiCol_Border, ImGui::GetColorU32(ImGuiCol_PlotHistogram));
        ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, last ? 2.0f : 1.0f);
        ImGui::PushID(static_cast<int>(r));
        ImGui::BeginChild("card", ImVec2(card_w, card_h), true, ImGuiWindowFlags_NoScrollbar);
        const std::string label = r < seq.labels.size() ? seq.labels[r] : "";
        const bool unknown = r < seq.unknown.size() && seq.unknown[r];
        ImGui::Text("%zu  %s  →", r, label.c_str());
        if (unknown) {
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(1.0f, 0.63f, 0.24f, 1.0f), "<unk>");
        }
        if (last) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", ctx.t("next"));
        }
        probability_bars(ctx, rows[r], static_cast<int>(r), logits.data.data() + r * static_cast<size_t>(logits.dim(1)),
                         ImGui::GetContentRegionAvail().x, sampling);
        next_token_note(ctx, rows[r]);
        ImGui::EndChild();
        ImGui::PopID();
        ImGui::PopStyleVar();
        if (last) ImGui::PopStyleColor();
    }
}

// What the output head predicts, from the record of its logits step; nullopt before a model has one.
std::optional<Prediction> head_prediction(const PanelContext& ctx) {
    const std::optional<size_t> index = ctx.stepper().find(StepId::head(StepKind::logits, ctx.config()));
    return index ? ctx.stepper().step(*index).record.predicts : std::nullopt;
}

}  // namespace

void draw_output_panel(PanelContext& ctx) {
    bool& why = ctx.view.output.why.open;
    bool& patching = ctx.view.output.patching.open;
    if (ctx.caches.get<TourTargetProbe>().wanted == TourTaskKind::change_temperature)
        why = patching = false;  // its slider
    const int picked =
        radio_row({ctx.t("Predictions"), ctx.t("Why this output?"), ctx.t("Patching")}, patching ? 2 : why ? 1 : 0);
    if (picked >= 0) {
        why = picked == 1;
        patching = picked == 2;
    }
    if (patching) {
        draw_patching_view(ctx);
        return;
    }
    if (why) {
        draw_why_output(ctx);
        return;
    }
    const bool next_token = head_prediction(ctx).value_or(Prediction::next_token) == Prediction::next_token;
    const bool generates = next_token && ctx.config().has_decoder();  // BERT's masked-LM head does not
    const bool sampling = shows_sampling(ctx, generates);
    if (generates) generation_controls(ctx);
    display_controls(ctx, generates);
    draw_loss_section(ctx);
    const TraceEntry* logits = ctx.stepper().entry(final_logits_of(ctx.config()));  // (N, V), Gemma 2's capped
    if (!logits) {
        text_not_run_yet(ctx);
        return;
    }
    const std::vector<PositionPrediction>& rows =
        predictions(ctx, *logits, next_token ? Prediction::next_token : Prediction::masked_tokens, sampling);
    if (rows.empty()) return;
    const SequenceView seq = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    const size_t last = rows.size() - 1;
    ImGui::Separator();
    if (generates) {
        generated_tokens_strip(ctx);
        const GenerationPlayer& run = ctx.view.output.animation;
        const size_t row = run.appended() > 0 && run.owns_target(ctx.session) && last > 0 ? last - 1 : last;
        const float* logits_row = logits->value.data.data() + row * static_cast<size_t>(logits->value.dim(1));
        if (row != last)
            chosen_token(ctx, rows[row], static_cast<int>(row), logits_row,
                         last < seq.labels.size() ? seq.labels[last] : "", sampling);
        else
            next_prediction(ctx, rows[last], static_cast<int>(last), logits_row,
                            last < seq.labels.size() ? seq.labels[last] : "", sampling);
        ImGui::Separator();
    }
    ImGui::TextUnformatted(ctx.t(next_token ? "Next-token probabilities at every position"
                                            : "Masked-token probabilities: the token at each position"));
    text_disabled_wrapped(ctx.t(next_token ? "Teacher forcing: position i sees tokens 0..i and predicts token i + 1."
                                           : "Every position sees the whole sentence; the model was trained to fill in "
                                             "the tokens hidden behind [MASK]."));
    position_grid(ctx, rows, logits->value, seq, generates, sampling);
}

}  // namespace attnlab::gui
