// Steps, seed, batch and threads: the fields a task's run and an opened model's run both have.
#include "panels/train_form_fields.h"

#include "platform/threads.h"

#include <algorithm>
#include <string>

namespace attnlab::gui {

void field_label(const char* label, float width, bool first) {
    const float em = ImGui::GetFontSize(), gap = 1.2f * em;
    if (!first) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        const float need = gap + ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x + width;
        if (ImGui::GetItemRectMax().x + need <= right) ImGui::SameLine(0.0f, gap);
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
}

void draw_run_fields(PanelContext& ctx, const char* batch_tip) {
    TrainForm& f = ctx.view.train;
    const float em = ctx.em;
    field_label(ctx.t("Steps"), 7.5f * em, false);
    ImGui::InputInt("##steps", &f.steps, 100, 1000);
    field_label(ctx.t("Seed"), 6.5f * em, false);
    ImGui::InputInt("##seed", &f.seed);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("fixes the held-out split, the initial weights, the batches and dropout"));
    field_label(ctx.t("Batch"), 6.5f * em, false);
    ImGui::InputInt("##batch", &f.batch_size, 8, 32);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", batch_tip);
    const int cores = platform::hardware_threads();  // 1 in the page
    field_label(ctx.t("Threads"), 4.5f * em, false);
    if (ImGui::BeginCombo("##threads", f.threads == 0 ? ctx.t("auto") : std::to_string(f.threads).c_str())) {
        if (ImGui::Selectable(ctx.t("auto"), f.threads == 0)) f.threads = 0;
        for (int n = 1; n <= std::max(cores, 2); ++n)
            if (ImGui::Selectable(std::to_string(n).c_str(), n == f.threads)) f.threads = n;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s",
            ctx.t("the batch is split across this many threads; auto: every core but one, which draws the views"));
    f.steps = std::clamp(f.steps, 1, 10000000);
    f.seed = std::max(f.seed, 0);
    f.batch_size = std::clamp(f.batch_size, 1, 4096);
    f.threads = std::clamp(f.threads, 0, 64);
}

}  // namespace attnlab::gui
