// The output view: per position, the top-k of p = softmax(logits / T) (N, V) as bars. What a
// position predicts is the head's (its step record): the next token, with the buttons that append
// one (argmax or a sample) or translate greedily to <eos>; or, for BERT's masked-LM head, the token
// at that position.
#include "panels/panel_context.h"
#include "panels/step_explanation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace attnlab::gui {

namespace {

constexpr int kMaxTopK = 10;

// Greyed text that wraps at the window's edge.
struct Candidate {
    int id = 0;
    float p = 0.0f;
};

struct PositionPrediction {
    std::vector<Candidate> top;  // the kMaxTopK most probable, best first
    float entropy_bits = 0.0f;
    int next = -1;  // the token that really follows (teacher forcing), or -1
    float next_p = 0.0f;
    int next_rank = 0;  // 1 = the most probable
};

// Derived from the trace, kept between frames so a frame costs nothing until the logits or T change.
struct PredictionCache {
    uint64_t logits_version = 0;
    float temperature = 0.0f;
    std::vector<PositionPrediction> rows;
};

// softmax(row / T), reduced to what the view shows. `next` is the following token's id, or -1.
PositionPrediction predict_row(ConstRowVecMap logits, float temperature, int next) {
    const float max_logit = logits.maxCoeff();
    std::vector<float> p(static_cast<size_t>(logits.size()));
    double sum = 0.0;
    for (size_t j = 0; j < p.size(); ++j)
        sum += p[j] = std::exp((logits[static_cast<Eigen::Index>(j)] - max_logit) / temperature);
    PositionPrediction out;
    for (float& v : p) {
        v = static_cast<float>(v / sum);
        if (v > 0.0f) out.entropy_bits -= v * std::log2(v);
    }
    std::vector<int> ids(p.size());
    std::iota(ids.begin(), ids.end(), 0);
    const size_t k = std::min<size_t>(kMaxTopK, ids.size());
    std::partial_sort(ids.begin(), ids.begin() + static_cast<long>(k), ids.end(),
                      [&](int a, int b) { return p[static_cast<size_t>(a)] > p[static_cast<size_t>(b)]; });
    for (size_t i = 0; i < k; ++i) out.top.push_back({ids[i], p[static_cast<size_t>(ids[i])]});
    if (next >= 0 && static_cast<size_t>(next) < p.size()) {
        out.next = next;
        out.next_p = p[static_cast<size_t>(next)];
        out.next_rank =
            1 + static_cast<int>(std::count_if(p.begin(), p.end(), [&](float v) { return v > out.next_p; }));
    }
    return out;
}

const std::vector<PositionPrediction>& predictions(PanelContext& ctx, const TraceEntry& logits, Prediction predicts) {
    PredictionCache& c = ctx.caches.get<PredictionCache>();
    if (c.logits_version == logits.version && c.temperature == ctx.view.temperature) return c.rows;
    const bool teacher_forced = predicts == Prediction::next_token;  // position r predicts tgt[r + 1]
    const std::vector<int>& ids = ctx.stepper().inputs().tgt_ids;
    c = {logits.version, ctx.view.temperature, {}};
    for (int64_t r = 0; r < logits.value.dim(0); ++r) {
        const size_t following = static_cast<size_t>(r) + 1;
        const int next = teacher_forced && following < ids.size() ? ids[following] : -1;
        c.rows.push_back(predict_row(logits.value.row(r), ctx.view.temperature, next));
    }
    return c.rows;
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

// k horizontal bars: token label, bar ∝ p (full width = 100%), percentage. The true next token is green.
void probability_bars(const PanelContext& ctx, const PositionPrediction& pred, int position, const float* logits_row,
                      float width) {
    const std::optional<Vocab>& vocab = output_vocab(ctx);
    const int k = std::min<int>(ctx.view.top_k, static_cast<int>(pred.top.size()));
    const float line = ImGui::GetTextLineHeightWithSpacing(), em = ctx.em;
    float label_w = 2.0f * em;
    for (int i = 0; i < k; ++i)
        label_w =
            std::max(label_w, ImGui::CalcTextSize(token_text(vocab, pred.top[static_cast<size_t>(i)].id).c_str()).x);
    label_w = std::min(label_w, 7.0f * em) + 0.5f * em;
    const float pct_w = ImGui::CalcTextSize("100.0%").x + 0.4f * em;
    const float bar_w = std::max(2.0f * em, width - label_w - pct_w);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
    const ImU32 truth = IM_COL32(90, 200, 120, 255);
    for (int i = 0; i < k; ++i) {
        const Candidate& c = pred.top[static_cast<size_t>(i)];
        const float y = origin.y + static_cast<float>(i) * line;
        const std::string label = token_text(vocab, c.id);
        const bool is_next = c.id == pred.next;
        const ImVec2 lsize = ImGui::CalcTextSize(label.c_str());
        draw->PushClipRect(ImVec2(origin.x, y), ImVec2(origin.x + label_w - 0.4f * em, y + line), true);
        draw->AddText(ImVec2(origin.x + std::max(0.0f, label_w - 0.5f * em - lsize.x), y), is_next ? truth : text,
                      label.c_str());
        draw->PopClipRect();
        const ImVec2 a(origin.x + label_w, y + line * 0.12f), b(a.x + bar_w * c.p, y + line * 0.82f);
        draw->AddRectFilled(a, ImVec2(a.x + bar_w, b.y), ImGui::GetColorU32(ImGuiCol_FrameBg));
        draw->AddRectFilled(a, b, is_next ? truth : with_alpha(bar, i == 0 ? 1.0f : 0.65f));
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * static_cast<double>(c.p));
        draw->AddText(ImVec2(a.x + bar_w + 0.4f * em, y), text, pct);
        const bool hovered = ImGui::IsMouseHoveringRect(ImVec2(origin.x, y), ImVec2(origin.x + width, y + line));
        if (hovered && ImGui::IsWindowHovered()) {
            ImGui::BeginTooltip();
            ImGui::Text("\"%s\"  (id %d)", label.c_str(), c.id);
            ImGui::Text("p = %.4f   logit = %.3f", static_cast<double>(c.p), static_cast<double>(logits_row[c.id]));
            if (is_next)
                ImGui::TextColored(ImVec4(0.35f, 0.78f, 0.47f, 1.0f), "%s", ctx.t("the token that really follows"));
            step_explanation_section(ctx, StepId::head(StepKind::probs, ctx.config()), {0, position, -1});
            ImGui::EndTooltip();
        }
    }
    ImGui::Dummy(ImVec2(width, static_cast<float>(k) * line));
}

// "actual: red 12.3% (#3)" under a position whose following token is known.
void next_token_note(const PanelContext& ctx, const PositionPrediction& pred) {
    if (pred.next < 0) return;
    ImGui::TextColored(ImVec4(0.35f, 0.78f, 0.47f, 1.0f), "%s: %s  %.1f%%  (#%d)", ctx.t("actual next"),
                       token_text(output_vocab(ctx), pred.next).c_str(), 100.0 * static_cast<double>(pred.next_p),
                       pred.next_rank);
}

// "Sample" and its seed live in ImGui's window storage until ViewState has fields for them.
void generation_controls(PanelContext& ctx) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID sample_id = ImGui::GetID("output_sample"), seed_id = ImGui::GetID("output_seed");
    bool sample = storage->GetBool(sample_id, false);
    const int seed = storage->GetInt(seed_id, 1);
    if (ImGui::Button(ctx.t("Generate next token")) &&
        ctx.session.generate_next(sample, ctx.view.temperature, static_cast<uint64_t>(seed)) && sample)
        storage->SetInt(seed_id, seed + 1);  // the next sample draws afresh
    ImGui::SameLine();
    if (ImGui::Checkbox(ctx.t("Sample"), &sample)) storage->SetBool(sample_id, sample);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s", ctx.t("Off: take the most probable token (argmax). On: draw one from p at this temperature."));
    if (sample) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s %d", ctx.t("Seed"), storage->GetInt(seed_id, 1));
    }
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    const bool prompt = ctx.config().arch == Arch::decoder_only;  // greedy decoding continues the prompt
    if (ImGui::Button(ctx.t(prompt ? "Continue to <eos>" : "Translate"))) ctx.session.translate();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t(prompt ? "Greedy decoding: append the argmax until <eos>."
                                             : "Greedy decoding: from <sos>, append the argmax until <eos>."));
    if (ctx.config().arch == Arch::encoder_decoder) {
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Clear target"))) ctx.session.set_tgt_text("");
    }
    const std::vector<int>& tgt = ctx.stepper().inputs().tgt_ids;
    if (!tgt.empty() && tgt.back() == ctx.config().eos_id)
        ImGui::TextDisabled("%s", ctx.t("The target ends with <eos>: the translation is finished."));
    if (!ctx.session.error().empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", ctx.session.error().c_str());
}

void display_controls(PanelContext& ctx) {
    ImGui::SetNextItemWidth(10.0f * ctx.em);
    ImGui::SliderFloat(ctx.t("Temperature"), &ctx.view.temperature, 0.1f, 5.0f, "T = %.2f",
                       ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s",
                          ctx.t("p = softmax(logits / T): T < 1 sharpens, T > 1 flattens. Display and sampling only."));
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    ImGui::SetNextItemWidth(8.0f * ctx.em);
    ImGui::SliderInt(ctx.t("Top k"), &ctx.view.top_k, 1, kMaxTopK);
    ctx.view.temperature = std::clamp(ctx.view.temperature, 0.1f, 5.0f);
    ctx.view.top_k = std::clamp(ctx.view.top_k, 1, kMaxTopK);
}

// The last position, large: what the model would append next.
void next_prediction(const PanelContext& ctx, const PositionPrediction& pred, int position, const float* logits_row,
                     const std::string& last) {
    ImGui::Text("%s  ·  %s \"%s\"", ctx.t("Next-token prediction"), ctx.t("after"), last.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %.2f %s)", ctx.t("entropy"), static_cast<double>(pred.entropy_bits), ctx.t("bits"));
    probability_bars(ctx, pred, position, logits_row, std::min(ImGui::GetContentRegionAvail().x, 36.0f * ctx.em));
}

// One card per position, wrapping; when generating, the last one (the next-token prediction) is outlined.
// "i  token →" heads a card: what follows token i, or what the token at i is.
void position_grid(PanelContext& ctx, const std::vector<PositionPrediction>& rows, const Tensor& logits,
                   const SequenceView& seq, bool generates) {
    const float em = ctx.em, card_w = 17.0f * em;
    const float card_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(ctx.view.top_k + 2) +
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
                         ImGui::GetContentRegionAvail().x);
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
    const bool next_token = head_prediction(ctx).value_or(Prediction::next_token) == Prediction::next_token;
    const bool generates = next_token && ctx.config().has_decoder();
    if (generates) generation_controls(ctx);
    display_controls(ctx);
    const TraceEntry* logits = ctx.stepper().entry(StepId::head(StepKind::logits, ctx.config()));  // (N, V)
    if (!logits) {
        text_not_run_yet(ctx);
        return;
    }
    const std::vector<PositionPrediction>& rows =
        predictions(ctx, *logits, next_token ? Prediction::next_token : Prediction::masked_tokens);
    if (rows.empty()) return;
    const SequenceView seq = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    const size_t last = rows.size() - 1;
    ImGui::Separator();
    if (generates) {
        next_prediction(ctx, rows[last], static_cast<int>(last),
                        logits->value.data.data() + last * static_cast<size_t>(logits->value.dim(1)),
                        last < seq.labels.size() ? seq.labels[last] : "");
        ImGui::Separator();
    }
    ImGui::TextUnformatted(ctx.t(next_token ? "Next-token probabilities at every position"
                                            : "Masked-token probabilities: the token at each position"));
    text_disabled_wrapped(ctx.t(next_token ? "Teacher forcing: position i sees tokens 0..i and predicts token i + 1."
                                           : "Every position sees the whole sentence; the model was trained to fill in "
                                             "the tokens hidden behind [MASK]."));
    position_grid(ctx, rows, logits->value, seq, generates);
}

}  // namespace attnlab::gui
