// The Input view's corrupted input (corrupted_input_field.h).
#include "panels/corrupted_input_field.h"

#include "input_drafts.h"

#include <imgui_stdlib.h>

#include <cstdio>

namespace attnlab::gui {

std::string corrupted_error_text(const PanelContext& ctx, const CorruptedInput& corrupted) {
    if (corrupted.error.empty()) return "";
    if (corrupted.ids.empty() || static_cast<int>(corrupted.ids.size()) == corrupted.clean_length)
        return corrupted.error;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  ctx.t("The corrupted input has %d tokens and the clean one %d: patching needs the same number."),
                  static_cast<int>(corrupted.ids.size()), corrupted.clean_length);
    return buf;
}

void corrupted_tokens(const PanelContext& ctx, const CorruptedInput& corrupted) {
    for (size_t i = 0; i < corrupted.labels.size(); ++i) {
        const char* label = corrupted.labels[i].c_str();
        if (i > 0) ImGui::SameLine(0.0f, 0.4f * ctx.em);
        if (i > 0 && ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(label).x) ImGui::NewLine();
        if (corrupted.differs[i])
            ImGui::TextColored(ImVec4(0.95f, 0.72f, 0.35f, 1.0f), "%s", label);
        else
            ImGui::TextDisabled("%s", label);
    }
}

void draw_corrupted_input(PanelContext& ctx) {
    if (ctx.config().output_head == OutputHead::none) return;  // no logits, no metric to patch
    PatchingViewState& p = ctx.view.output.patching;
    const bool source = ctx.config().has_encoder();
    const std::optional<Vocab>& vocab = source ? ctx.session.model().src_vocab : ctx.session.model().tgt_vocab;
    ImGui::PushID("##corrupted");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t(source ? "Corrupted source, for patching" : "Corrupted prompt, for patching"));
    const CorruptedInput corrupted = read_corrupted_input(ctx.session.model(), ctx.stepper().inputs(), p.corrupt);
    if (!p.corrupt.empty()) {
        ImGui::SameLine();
        const bool mismatch = static_cast<int>(corrupted.ids.size()) != corrupted.clean_length;
        const ImVec4 colour = mismatch ? ImVec4(1.0f, 0.45f, 0.35f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
        ImGui::TextColored(colour, "%s = %d / %d", source ? "S" : "T", static_cast<int>(corrupted.ids.size()),
                           corrupted.clean_length);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("Its tokens, and the clean input's: patching needs the same number."));
    }
    const char* copy = ctx.t("Copy the clean input");
    const char* open = ctx.t("Patching →");
    same_line_if_fits(button_width_for(copy), ctx.em);
    if (ImGui::SmallButton(copy))
        p.corrupt = vocab ? (source ? ctx.session.src_text() : ctx.session.tgt_text())
                          : join_ids(source ? ctx.stepper().inputs().src_ids : ctx.stepper().inputs().tgt_ids);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Start from the clean input, then change a word."));
    same_line_if_fits(button_width_for(open), 0.5f * ctx.em);
    if (ImGui::SmallButton(open)) {
        p.open = true;
        ctx.view.output.why.open = false;
        ctx.view.bring_forward = View::output;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("The Output view's patching: which layers and positions carry the change."));
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##text", vocab ? ctx.t("The same number of tokens, a word changed")
                                             : ctx.t("Token ids, e.g. 4,7,9,2"),
                             &p.corrupt);
    if (!p.corrupt.empty()) {
        const std::string error = corrupted_error_text(ctx, corrupted);
        if (!error.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
            ImGui::TextWrapped("%s", error.c_str());
            ImGui::PopStyleColor();
        } else {
            corrupted_tokens(ctx, corrupted);
        }
    }
    ImGui::PopID();
}

}  // namespace attnlab::gui
