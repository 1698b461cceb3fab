#include "panels/loss_controls.h"

#include "loss_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// The loss being edited: the session's until the user changes a field, then theirs until applied.
struct LossForm {
    LossSpec spec;
    uint64_t synced = 0;  // the session generation the form last copied
    bool edited = false;
};

// A token id field with the token's text after it (its "#id" when the model has no vocabulary).
bool token_field(const PanelContext& ctx, const char* label, const char* id, int* token) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(5.0f * ctx.em);
    const bool changed = ImGui::InputInt(id, token, 0);
    *token = std::max(*token, 0);
    ImGui::SameLine();
    const std::string name = loss_token_name(ctx.session, *token);
    const bool by_id = name == "#" + std::to_string(*token);  // no vocabulary: "#2023", a word in quotes
    ImGui::TextDisabled(by_id ? "%s" : "“%s”", name.c_str());
    return changed;
}

void loss_form(PanelContext& ctx) {
    LossForm& form = ctx.caches.get<LossForm>();
    if (!form.edited && form.synced != ctx.session.generation()) {
        form.spec = ctx.session.loss();
        form.synced = ctx.session.generation();
    }
    LossSpec& f = form.spec;
    int kind = static_cast<int>(f.kind);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Loss"));
    const char* kinds[] = {tr_noop("next token"), tr_noop("one token"), tr_noop("logit difference")};
    for (int k = 0; k < 3; ++k) {
        if (k == 0 && !ctx.config().has_decoder()) continue;  // an encoder predicts masked tokens, not next ones
        ImGui::SameLine();
        if (ImGui::RadioButton(ctx.t(kinds[k]), &kind, k)) form.edited = true;
    }
    if (static_cast<LossKind>(kind) != f.kind) f = loss_of_kind(ctx.session, f, static_cast<LossKind>(kind));
    if (f.kind != LossKind::next_token) {
        int position = static_cast<int>(std::max<int64_t>(f.position, 0));
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(ctx.t("position"));
        ImGui::SameLine();
        ImGui::SetNextItemWidth(5.0f * ctx.em);
        if (ImGui::InputInt("##loss_position", &position, 1)) form.edited = true;
        f.position = std::max(position, 0);
        same_line_if_fits(14.0f * ctx.em, ctx.em);
        if (token_field(ctx, f.kind == LossKind::token ? ctx.t("token") : "A", "##loss_token", &f.token))
            form.edited = true;
        if (f.kind == LossKind::logit_diff) {
            same_line_if_fits(14.0f * ctx.em, ctx.em);
            if (token_field(ctx, "B", "##loss_other", &f.other)) form.edited = true;
        }
    }
    ImGui::TextDisabled("%s", loss_definition(ctx, f).c_str());
    if (form.edited) {
        if (ImGui::Button(ctx.t("Apply the loss"))) {
            if (ctx.session.set_loss(f)) form.edited = false;
        }
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Cancel"))) form.edited = false, form.synced = 0;
        if (!ctx.session.error().empty())
            ImGui::TextColored(ImVec4(1, .5f, .35f, 1), "%s", ctx.session.error().c_str());
    }
}

// ‖∂L/∂x‖ as an orange bar with its value after it, in the rest of the table cell, on the token's text line.
void saliency_bar(const PanelContext& ctx, float share, float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
    const float cell = ImGui::GetContentRegionAvail().x, line = ImGui::GetTextLineHeight();
    const ValueBarLayout l =
        value_bar_layout(share, cell, ImGui::CalcTextSize("0.000e-00").x, 0.4f * ctx.em);  // every row's the same
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float top = at.y + 0.12f * line, bottom = at.y + 0.88f * line;
    draw->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + l.track_width, bottom), ImGui::GetColorU32(ImGuiCol_FrameBg));
    draw->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + l.fill_width, bottom), IM_COL32(255, 140, 40, 255));
    const float text_w = ImGui::CalcTextSize(text).x;  // right-aligned, at or after l.text_x
    draw->AddText(ImVec2(at.x + cell - text_w, at.y), ImGui::GetColorU32(ImGuiCol_Text), text);
    ImGui::Dummy(ImVec2(cell, line));
}

// One stack's tokens: ‖∂L/∂x‖ as a bar, and gradient × input signed.
void saliency_table(const PanelContext& ctx, const SequenceView& seq, const TokenSaliency& s) {
    const float largest = *std::max_element(s.gradient_norm.begin(), s.gradient_norm.end());
    if (!ImGui::BeginTable("saliency", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn(ctx.t("token"));
    ImGui::TableSetupColumn("||∂L/∂x||", ImGuiTableColumnFlags_WidthFixed, 14.0f * ctx.em);
    ImGui::TableSetupColumn(ctx.t("gradient × input"));
    ImGui::TableHeadersRow();
    for (size_t t = 0; t < s.gradient_norm.size() && t < seq.labels.size(); ++t) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(seq.labels[t].c_str());
        ImGui::TableNextColumn();
        const float share = largest > 0.0f ? s.gradient_norm[t] / largest : 0.0f;
        saliency_bar(ctx, share, s.gradient_norm[t]);
        ImGui::TableNextColumn();
        const float gi = s.gradient_times_input[t];
        ImGui::TextColored(gi >= 0.0f ? ImVec4(1.0f, 0.55f, 0.3f, 1.0f) : ImVec4(0.4f, 0.65f, 1.0f, 1.0f), "%+.3g",
                           static_cast<double>(gi));
    }
    ImGui::EndTable();
}

}  // namespace

ValueBarLayout value_bar_layout(float share, float cell_width, float text_width, float gap) {
    ValueBarLayout l;
    l.track_width = std::max(0.0f, cell_width - text_width - gap);
    l.fill_width = std::clamp(share, 0.0f, 1.0f) * l.track_width;
    l.text_x = cell_width - text_width;  // right-aligned, after the whole track
    return l;
}

void draw_loss_section(PanelContext& ctx) {
    Session& s = ctx.session;
    if (!s.in_backward() && !ImGui::CollapsingHeader(ctx.t("Loss and backward pass"))) return;
    if (s.in_backward()) ImGui::TextUnformatted(ctx.t("Loss and backward pass"));
    loss_form(ctx);
    if (!s.backward_unavailable().empty()) {
        ImGui::TextColored(ImVec4(1, .6f, .3f, 1), "%s", s.backward_unavailable().c_str());
        return;
    }
    if (const BackwardPass* pass = s.backward())
        ImGui::Text("L = %.5g   (%s %d / %d)", pass->loss(), ctx.t("backward step"), static_cast<int>(pass->cursor()),
                    static_cast<int>(pass->size()));
    if (s.timeline_cursor() < s.timeline_size()) {
        if (ImGui::Button(ctx.t("Run the backward pass"))) s.run_to(s.timeline_size());
        ImGui::SameLine();
        ImGui::TextDisabled("%s", ctx.t("the gradient of the loss at every step, last step first"));
    }
    const ModelConfig& c = ctx.config();
    for (const Stack stack : {Stack::encoder, Stack::decoder}) {
        if (stack == Stack::encoder ? !c.has_encoder() : !c.has_decoder()) continue;
        const std::optional<TokenSaliency> saliency = input_saliency(ctx, stack);
        if (!saliency) continue;
        ImGui::TextUnformatted(
            ctx.t(stack == Stack::encoder ? "Saliency of the source tokens" : "Saliency of the target tokens"));
        ImGui::PushID(stack == Stack::encoder ? "src" : "tgt");
        saliency_table(ctx, stack == Stack::encoder ? s.source() : s.target(), *saliency);
        ImGui::PopID();
    }
}

}  // namespace attnlab::gui
