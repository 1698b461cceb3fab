// The playground view: a hand calculation of one small attention head, or the "why √d_k"
// experiment. This file draws the switch between them and the hand calculation's controls:
// presets, what is typed (Q, K, V or X and W), the sizes and the scaling.
#include "panels/playground_panel.h"

#include <string>

namespace attnlab::gui {

namespace {

const char* preset_description(PlaygroundPreset p) {
    switch (p) {
        case PlaygroundPreset::notes:
            return tr_noop(
                "The study notes' worked example (note 003): token 1 is their query input [1, 0, 1], token 2 their "
                "key input [0, 1, 0], with their W_Q and W_K (d_model 3, d_k 2). Query 1 may look at key 2 only, "
                "as in the notes, and the middle row of W_V makes v₂ their V = [2, 3]. Row 1 works out as "
                "q₁·k₂ = 1, 1/√2 ≈ 0.707, weight 1, output [2, 3].");
        case PlaygroundPreset::look_ahead:
            return tr_noop(
                "Three tokens under the look-ahead mask: query i sees keys 1 to i only. d_k = 4, so √d_k = 2 and "
                "the scaled scores are whole numbers. Typed as X and W, X is the identity, so Q = W_Q.");
        case PlaygroundPreset::random:
            return tr_noop(
                "Whole numbers from −2 to 2, small enough to check every cell by hand. Press again for another "
                "draw.");
        case PlaygroundPreset::none: break;
    }
    return "";
}

// A button that looks pressed while `active`; true when clicked.
bool toggle_button(const char* label, bool active) {
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    const bool clicked = ImGui::Button(label);
    if (active) ImGui::PopStyleColor();
    return clicked;
}

// "label  (2) (3) (4)": radio buttons from kHandMinSize to kHandMaxSize; true when `value` changed.
bool size_picker(const char* id, const char* label, int& value) {
    ImGui::PushID(id);
    ImGui::TextUnformatted(label);
    bool changed = false;
    for (int n = kHandMinSize; n <= kHandMaxSize; ++n) {
        ImGui::SameLine();
        if (ImGui::RadioButton(std::to_string(n).c_str(), value == n)) value = n, changed = true;
    }
    ImGui::PopID();
    return changed;
}

// A gap between groups of controls on one line.
float group_gap() { return 1.5f * ImGui::GetFontSize(); }

float picker_width(const char* label) {
    const float em = ImGui::GetFontSize();
    return ImGui::CalcTextSize(label).x + 3.0f * (ImGui::GetFrameHeight() + 1.6f * em);
}

// "Start from:" and the presets, each button on this line when it fits, else on the next.
void draw_presets(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Start from:"));
    const char* notes = ctx.t("The notes' worked example");
    same_line_if_fits(button_width_for(notes), spacing);
    if (toggle_button(notes, p.preset == PlaygroundPreset::notes)) {
        p.spec = notes_worked_example();
        p.preset = PlaygroundPreset::notes;
        p.focus_row = 0, p.focus_col = 1;
    }
    const char* look_ahead = ctx.t("Look-ahead mask, d_k = 4");
    same_line_if_fits(button_width_for(look_ahead), spacing);
    if (toggle_button(look_ahead, p.preset == PlaygroundPreset::look_ahead)) {
        p.spec = look_ahead_example();
        p.preset = PlaygroundPreset::look_ahead;
        p.focus_row = 1, p.focus_col = 1;
    }
    const char* random = ctx.t("Random whole numbers");
    same_line_if_fits(button_width_for(random), spacing);
    if (toggle_button(random, p.preset == PlaygroundPreset::random)) {
        randomize_hand_spec(p.spec, static_cast<uint64_t>(p.random_seed++));
        p.preset = PlaygroundPreset::random;
    }
}

// Input mode, sizes and scaling; any change leaves the preset.
void draw_settings(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    HandSpec& s = p.spec;
    const HandInput before = s.input;
    ImGui::TextUnformatted(ctx.t("Type:"));
    ImGui::SameLine();
    if (ImGui::RadioButton("Q, K, V", s.input == HandInput::qkv)) set_hand_input(s, HandInput::qkv);
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("X and W_Q, W_K, W_V"), s.input == HandInput::projected))
        set_hand_input(s, HandInput::projected);
    bool changed = s.input != before;

    int n_tokens = s.n_tokens(), d_model = s.d_model(), d_k = s.d_k();
    same_line_if_fits(picker_width(ctx.t("tokens")), group_gap());
    changed |= size_picker("tokens", ctx.t("tokens"), n_tokens);
    if (s.input == HandInput::projected) {
        same_line_if_fits(picker_width("d_model"), group_gap());
        changed |= size_picker("d_model", "d_model", d_model);
    }
    same_line_if_fits(picker_width("d_k"), group_gap());
    changed |= size_picker("d_k", "d_k", d_k);
    if (n_tokens != s.n_tokens() || d_model != s.d_model() || d_k != s.d_k())
        resize_hand_spec(s, n_tokens, d_model, d_k);
    same_line_if_fits(checkbox_width(ctx.t("Divide by √d_k")), group_gap());
    changed |= ImGui::Checkbox(ctx.t("Divide by √d_k"), &s.scale);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Switch it off to see the scores unscaled: the softmax gets more peaked."));
    if (changed) p.preset = PlaygroundPreset::none;
}

void draw_hand_calculation(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    draw_presets(ctx);
    draw_settings(ctx);
    std::string about = p.preset == PlaygroundPreset::none
                            ? ctx.t(
                                  "Type into the framed cells. Hover any result to see its arithmetic; click it to "
                                  "write out that query and key below.")
                            : ctx.t(preset_description(p.preset));
    if (p.preset == PlaygroundPreset::notes)
        about = about + "\n" +
                ctx.t(
                    "The notes write W_Q·Q = [1, 1, 2] and get q·k = 4, but a 3×2 W_Q times a column of 3 does not "
                    "fit; the product that does is the row x·W_Q = [2, 1] (and x·W_K = [0, 1]), which gives the "
                    "numbers here.");
    explanation(ctx, about.c_str());
    ImGui::Spacing();
    draw_hand_tables(ctx);
}

}  // namespace

void explanation(const PanelContext& ctx, const char* text) {
    if (!ctx.view.settings.presentation) {
        text_disabled_wrapped(text);
        return;
    }
    ImGui::TextDisabled("(?) %s", ctx.t("hover to read the explanation"));
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(36.0f * ctx.em);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void draw_playground_panel(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);  // ImGui's default edge lies under the scrollbar
    if (toggle_button(ctx.t("Hand calculation"), !p.experiment)) p.experiment = false;
    const char* why = ctx.t("Why divide by √d_k?");
    same_line_if_fits(button_width_for(why), ImGui::GetStyle().ItemSpacing.x);
    if (toggle_button(why, p.experiment)) p.experiment = true;
    if (!p.experiment) {
        const char* show = ctx.t("Show what is typed");
        same_line_if_fits(checkbox_width(show), 2.0f * ctx.em);
        ImGui::Checkbox(show, &p.show_inputs);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("Switch it off to give the results the room, for example on a projector."));
    }
    ImGui::Separator();
    if (p.experiment)
        draw_scaling_experiment(ctx);
    else
        draw_hand_calculation(ctx);
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
