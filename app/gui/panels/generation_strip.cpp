// Play, Pause/Resume, Stop and the speed of the generation token by token, and the strip of the target's
// tokens it grows (see generation_strip.h).
#include "panels/generation_strip.h"

#include "translation_record.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// One line on how the run ended, or how far it is; empty before any run.
std::string run_status(const PanelContext& ctx, const GenerationPlayer& p) {
    char line[160];
    switch (p.end()) {
        case GenerationEnd::none:
            if (!p.active()) return "";
            std::snprintf(line, sizeof line, ctx.t("%d new tokens"), p.appended());
            return line;
        case GenerationEnd::eos: return ctx.t("Ended at <eos>.");
        case GenerationEnd::limit:
            std::snprintf(line, sizeof line, ctx.t("Ended at the limit of %d new tokens."), p.limit());
            return line;
        case GenerationEnd::max_len: return ctx.t("Ended: the target is max_len tokens long.");
        case GenerationEnd::stopped: return ctx.t("Stopped.");
        case GenerationEnd::interrupted: return ctx.t("Ended: the target was changed.");
        case GenerationEnd::error: return "";  // the session's error, shown under the controls
    }
    return "";
}

}  // namespace

void generation_animation_controls(PanelContext& ctx) {
    OutputViewState& o = ctx.view.output;
    GenerationPlayer& p = o.animation;
    const double now = ImGui::GetTime();
    if (!p.active()) {
        if (ImGui::Button(ctx.t("Play token by token"))) {
            ctx.view.stepper.playing = false;
            p.start(ctx.session, ctx.config().arch == Arch::encoder_decoder, now);
        }
        if (ImGui::IsItemHovered()) {
            char tip[400];
            std::snprintf(tip, sizeof tip,
                          ctx.t("Append one token at a time at this speed, until <eos> or %d new tokens. The newest "
                                "token is highlighted, and the bars show the distribution it was chosen from."),
                          GenerationPlayer::kDefaultLimit);
            ImGui::SetTooltip("%s", tip);
        }
    } else {
        if (ImGui::Button(ctx.t(p.playing() ? "Pause" : "Resume"))) p.playing() ? p.pause(now) : p.resume(now);
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Stop"))) p.stop();
    }
    ImGui::SameLine();
    value_slider_float(nullptr, "##tokens_per_second", &o.tokens_per_second, 0.25f, 10.0f, ctx.t("%.2f tokens/s"),
                       6.0f * ctx.em, ImGuiSliderFlags_Logarithmic);
    o.tokens_per_second = std::clamp(o.tokens_per_second, 0.25f, 10.0f);
    if (const std::string status = run_status(ctx, p); !status.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", status.c_str());
    }
    if (p.rate().count() > 0 && p.owns_target(ctx.session)) {
        ImGui::SameLine();
        ImGui::TextDisabled(ctx.t("model: %.1f tokens/s"), p.rate().tokens_per_second());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("How fast the model makes tokens: the last few tokens' compute time (each "
                                          "appended token's traced re-run), not the speed of the animation"));
    }
}

namespace {

// What the last token cost: of layer 0's K (and V), the rows read from the cache and the rows computed now. A
// prefill computes every row of the prompt; each decoded token computes one and reads the others back.
void kv_cache_strip(const PanelContext& ctx) {
    const auto k = ctx.stepper().find(StepId::attention_at({AttentionUse::decoder_self, 0}, AttentionStage::k));
    const TraceEntry* e =
        k ? ctx.stepper().run_facts(StepId::attention_at({AttentionUse::decoder_self, 0}, AttentionStage::k)) : nullptr;
    if (!e) return;
    const auto rows = static_cast<int>(e->value.dim(1));
    const int from =
        static_cast<int>(std::clamp<int64_t>(ctx.stepper().last_computed_from(*k).value_or(rows), 0, rows));
    const double bytes = kv_cache_bytes_per_token(ctx.config()) * rows;
    char line[200];
    if (from == 0)
        std::snprintf(line, sizeof line, ctx.t("KV cache %s: prefill, all %d rows of K and V computed"),
                      format_bytes(bytes).c_str(), rows);
    else
        std::snprintf(line, sizeof line,
                      ctx.t("KV cache %s: %d rows read from the cache, %d computed for the new token"),
                      format_bytes(bytes).c_str(), from, rows - from);
    ImGui::TextUnformatted(line);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float cell = std::min(1.2f * ctx.em, (ImGui::GetContentRegionAvail().x - 1.0f) / std::max(rows, 1));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImU32 cached = ImGui::GetColorU32(ImGuiCol_FrameBgHovered), fresh = IM_COL32(255, 200, 40, 255);
    for (int r = 0; r < rows; ++r) {
        const ImVec2 a(at.x + r * cell, at.y), b(a.x + cell - 1.0f, at.y + cell);
        draw->AddRectFilled(a, b, r < from ? cached : fresh);
    }
    ImGui::Dummy(ImVec2(rows * cell, cell));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("One cell per token's K and V rows in every layer: grey read back from the "
                                      "cache, gold computed by this step"));
}

}  // namespace

void generated_tokens_strip(PanelContext& ctx) {
    const GenerationPlayer& p = ctx.view.output.animation;
    if (p.appended() == 0 || !p.owns_target(ctx.session)) return;
    const SequenceView seq = ctx.session.target();
    const size_t newest = seq.labels.size() - 1;
    const float age = p.newest_age(ImGui::GetTime(), ctx.view.output.tokens_per_second);
    ImGui::TextUnformatted(ctx.t("Output so far"));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float pad = 0.35f * ctx.em, gap = 0.3f * ctx.em, h = ImGui::GetTextLineHeight() + 2.0f * pad;
    const float left = ImGui::GetCursorScreenPos().x, right = left + ImGui::GetContentRegionAvail().x;
    ImVec2 at = ImGui::GetCursorScreenPos();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), frame = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const ImU32 made = ImGui::GetColorU32(ImGuiCol_PlotHistogram, 0.45f);
    for (size_t i = 0; i < seq.labels.size(); ++i) {
        const std::string& label = seq.labels[i];
        const float w = ImGui::CalcTextSize(label.c_str()).x + 2.0f * pad;
        if (at.x + w > right && at.x > left) at = ImVec2(left, at.y + h + gap);  // wrap
        const ImVec2 b(at.x + w, at.y + h);
        const bool generated = i >= p.first_position();
        draw->AddRectFilled(at, b, generated ? made : frame, 0.2f * ctx.em);
        if (i == newest) {  // bright as it appears, settling to the others' colour over its tick
            const float glow = 1.0f - 0.75f * age;
            draw->AddRectFilled(at, b, IM_COL32(255, 200, 40, static_cast<int>(200.0f * glow)), 0.2f * ctx.em);
            draw->AddRect(at, b, IM_COL32(255, 200, 40, 255), 0.2f * ctx.em, 0, 2.0f);
        }
        draw->AddText(ImVec2(at.x + pad, at.y + pad), i == newest && age < 0.5f ? IM_COL32(20, 20, 20, 255) : text,
                      label.c_str());
        at.x = b.x + gap;
    }
    ImGui::Dummy(ImVec2(right - left, at.y + h - ImGui::GetCursorScreenPos().y));
    kv_cache_strip(ctx);
}

std::string target_end_note(const Session& session, bool korean) {
    const ModelConfig& c = session.stepper().config();
    const std::optional<Vocab>& vocab = session.model().tgt_vocab;
    char note[200];
    switch (target_end(session)) {
        case TargetEnd::open: return "";
        case TargetEnd::eos:
            std::snprintf(note, sizeof note, tr(korean, "The target ends with %s: the translation is finished."),
                          token_or_id(vocab, c.eos_id).c_str());
            return note;
        case TargetEnd::length_limit:
            std::snprintf(note, sizeof note, tr(korean, "Stopped at the length limit, T = %d, without %s."), c.max_len,
                          token_or_id(vocab, c.eos_id).c_str());
            return note;
    }
    return "";
}

}  // namespace attnlab::gui
