// The history beside the session's model: Play, the slider, and the copy losses and head scores at its step.
#include "panels/checkpoint_slider.h"

#include "checkpoint_player.h"
#include "panels/induction_plots.h"
#include "panels/input_fields.h"
#include "panels/tour_target.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace attnlab::gui {

namespace {

constexpr ImU32 kFirstCopyColor = IM_COL32(96, 156, 255, 255);  // as induction_plots draws the copies
constexpr ImU32 kSecondCopyColor = IM_COL32(255, 150, 60, 255);
const ImVec4 kErrorColor(1.0f, 0.35f, 0.3f, 1.0f);

// The heading, and what the history is: its file and how many checkpoints, beside it when it fits.
void history_heading(PanelContext& ctx, const CheckpointPlayer& player) {
    mark_tour_section(ctx, TourTaskKind::scrub_checkpoint);  // the tour's slider: shown from this heading
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Training history"));
    char about[256];
    std::snprintf(about, sizeof about, ctx.t("%s · %d checkpoints"), model_display_name(player.history_path()).c_str(),
                  static_cast<int>(player.history().checkpoints.size()));
    same_line_if_fits(ImGui::CalcTextSize(about).x, ImGui::GetStyle().ItemSpacing.x);
    ImGui::TextDisabled("%s", about);
}

// Play or Pause, the slider over the checkpoints, and the step with the loss on either copy at it.
void slider_row(PanelContext& ctx, CheckpointPlayer& player) {
    const TrainingHistory& h = player.history();
    const int n = static_cast<int>(h.checkpoints.size());
    const ImGuiID field = ImGui::GetID("##checkpoint");
    const char* play = player.playing() ? ctx.t("Pause") : ctx.t("Play");
    const float play_w = std::max(button_width_for(ctx.t("Play")), button_width_for(ctx.t("Pause")));
    if (ImGui::Button(play, ImVec2(play_w, 0.0f))) {
        if (player.playing())
            player.pause();
        else
            player.play(ImGui::GetTime());
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Walks through the checkpoints, one every second or so; every view follows."));
    ImGui::SameLine();
    int index = player.selected();
    const HistoryCheckpoint& at = h.checkpoints[static_cast<size_t>(index)];
    char step[64];
    std::snprintf(step, sizeof step, ctx.t("step %d"), at.step);
    ImGui::SetNextItemWidth(std::max(8.0f * ctx.em, std::min(30.0f * ctx.em, ImGui::GetContentRegionAvail().x)));
    if (ImGui::SliderInt("##checkpoint", &index, 0, n - 1, step, ImGuiSliderFlags_AlwaysClamp) &&
        index != player.selected()) {
        player.pause();
        if (!player.show(ctx.session, index)) note_command(field, false, ctx.session);
    }
    mark_tour_target(ctx, TourTaskKind::scrub_checkpoint);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Drag to a checkpoint: every view shows the model as it was at that step."));
    // The loss on either copy at the slider's step, in the plots' colours; each on the next line when it does not fit.
    char first[96], second[96];
    std::snprintf(first, sizeof first, "%s %.2f", ctx.t("first copy"), at.copies.first);
    std::snprintf(second, sizeof second, "%s %.2f", ctx.t("second copy"), at.copies.second);
    const float gap = 1.2f * ctx.em;
    same_line_if_fits(ImGui::CalcTextSize(first).x, gap);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kFirstCopyColor), "%s", first);
    same_line_if_fits(ImGui::CalcTextSize(second).x, gap);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kSecondCopyColor), "%s", second);
    field_error(ctx.session, field);
    char shown[160];
    if (player.shown())
        std::snprintf(shown, sizeof shown, ctx.t("The views show step %d."), at.step);
    else
        std::snprintf(shown, sizeof shown, "%s", ctx.t("The views show the model as its file has it."));
    text_disabled_wrapped(shown);
}

// The copy losses and the head scores: side by side when wide enough, else each in a tab.
void history_plots(PanelContext& ctx, const CheckpointPlayer& player, float height) {
    const InductionRecord& r = player.record();
    const InductionPlotFocus focus{static_cast<float>(std::max(r.step(r.size() - 1), 1)), player.selected()};
    const float em = ctx.em, avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
    if (avail >= 64.0f * em) {
        const float losses_w = std::floor(0.36f * avail);
        draw_copy_losses(ctx, r, focus, ImVec2(losses_w, height));
        ImGui::SameLine(0.0f, spacing);
        draw_head_scores(ctx, r, focus, ImVec2(avail - losses_w - spacing, height));
        return;
    }
    const float y0 = ImGui::GetCursorPosY();
    if (!ImGui::BeginTabBar("##history_plots")) return;
    const auto rest = [&] { return ImVec2(ImGui::GetContentRegionAvail().x, height - (ImGui::GetCursorPosY() - y0)); };
    // Fixed ids after ###, so a change of language keeps the open tab.
    const std::string losses_tab = std::string(ctx.t("Loss on each copy")) + "###history_losses";
    const std::string heads_tab = std::string(ctx.t("Induction score by head")) + "###history_heads";
    if (ImGui::BeginTabItem(losses_tab.c_str())) {
        draw_copy_losses(ctx, r, focus, rest());
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(heads_tab.c_str())) {
        draw_head_scores(ctx, r, focus, rest());
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

}  // namespace

bool draw_checkpoint_history(PanelContext& ctx, float height) {
    CheckpointPlayer& player = ctx.caches.get<CheckpointPlayer>();
    player.follow(ctx.session);
    if (!player.error().empty()) {
        ImGui::TextColored(kErrorColor, "%s", ctx.t("The training history beside this model could not be read:"));
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kErrorColor, "%s", player.error().c_str());
        ImGui::PopTextWrapPos();
        return false;  // the run's plots below, as for a model without one
    }
    if (!player.has_history()) return false;
    player.advance(ctx.session, ImGui::GetTime());
    const float y0 = ImGui::GetCursorPosY();
    ImGui::PushID("checkpoint_history");
    history_heading(ctx, player);
    slider_row(ctx, player);
    // The plots with the slider are the tour's target: scrolled to, they show together with it (at 14 em, readable).
    ImGui::BeginGroup();
    history_plots(ctx, player, std::max(14.0f * ctx.em, height - (ImGui::GetCursorPosY() - y0)));
    ImGui::EndGroup();
    mark_tour_target(ctx, TourTaskKind::scrub_checkpoint);
    ImGui::PopID();
    return true;
}

}  // namespace attnlab::gui
