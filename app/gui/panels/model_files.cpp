// A new random model from a preset, seed and head count; opening (typed path, file dialog,
// bundled and recent files; a Hugging Face folder too; through the App's ModelOpener, which
// explains a failure at the top of the views) and saving .safetensors model files.
#include "panels/model_files.h"

#include "default_model.h"

#include "model_opener.h"
#include "panels/input_fields.h"
#include "save_suggestion.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>

namespace attnlab::gui {

namespace {

// Head counts that divide C (up to 32), so D = C / H is whole.
std::vector<int> head_choices(int d_model) {
    std::vector<int> out;
    for (int h = 1; h <= std::min(32, d_model); h *= 2)
        if (d_model % h == 0) out.push_back(h);
    return out;
}

// Saves the model to `typed`, made absolute (save_location), so the status line and the menu bar name the folder it went to. A
// success also clears an earlier open's failure notice: the model on screen is now saved, not missing.
void save_model(PanelContext& ctx, ImGuiID field, const std::string& typed) {
    const char* home = std::getenv("HOME");
    const std::string where = save_location(typed, home ? home : "");
    const bool saved = ctx.session.save_model_file(where);
    note_command(field, saved, ctx.session);
    if (!saved) return;
    ctx.status = std::string(ctx.t("Saved")) + " " + where;
    model_opener(ctx).dismiss();
}

// A list of files by name (full path in the tooltip); returns the one clicked, or "".
std::string file_list(const PanelContext& ctx, const char* title, const std::vector<std::string>& files) {
    ImGui::TextDisabled("%s", title);
    if (files.empty()) {
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextDisabled(": %s", ctx.t("none yet"));
    }
    std::string clicked;
    ImGui::PushID(title);
    ImGui::Indent();
    for (const auto& f : files) {
        ImGui::PushID(f.c_str());
        if (ImGui::Selectable(model_display_name(f).c_str(), f == ctx.session.model_name())) clicked = f;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.c_str());
        ImGui::PopID();
    }
    ImGui::Unindent();
    ImGui::PopID();
    return clicked;
}

// Width left for a field followed by buttons with these labels on the same line.
float field_width(std::initializer_list<const char*> buttons) {
    const ImGuiStyle& s = ImGui::GetStyle();
    float w = ImGui::GetContentRegionAvail().x;
    for (const char* b : buttons) w -= ImGui::CalcTextSize(b).x + 2.0f * s.FramePadding.x + s.ItemSpacing.x;
    return w;
}

// The path typed into "Open and save", kept in the panel caches: a new model starts with an empty field.
struct TypedOpenPath {
    std::string path;
};

}  // namespace

bool path_field(const char* id, const char* hint, std::string& typed) {
    ImGui::InputTextWithHint(id, hint, &typed);  // `typed` follows every letter, so Open reads it too
    return ImGui::IsItemDeactivated() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                          ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter)));
}

void draw_random_model(PanelContext& ctx) {
    const ImGuiID field = ImGui::GetID("##random");
    RandomModelSpec& spec = ctx.view.random_model;
    const float w = 5.0f * ctx.em;
    auto label = [&](const char* text, const char* tip) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(text);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        ImGui::SameLine(5.5f * ctx.em);
        ImGui::SetNextItemWidth(w);
    };
    auto pick = [&](const char* id, int& value, std::initializer_list<int> options) {
        if (!ImGui::BeginCombo(id, std::to_string(value).c_str())) return;
        for (int o : options)
            if (ImGui::Selectable(std::to_string(o).c_str(), o == value)) value = o;
        ImGui::EndCombo();
    };

    if (ImGui::Button("tiny")) spec.use_preset("tiny");
    ImGui::SameLine();
    if (ImGui::Button("base")) spec.use_preset("base");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("tiny: C=64, 2+2 layers; base: the paper's C=512, 6+6 layers"));
    ImGui::SameLine();
    ImGui::TextUnformatted(ctx.t("Seed"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(6.0f * ctx.em);
    int seed = static_cast<int>(spec.seed);
    if (ImGui::InputInt("##seed", &seed)) spec.seed = static_cast<uint64_t>(std::max(seed, 0));

    label("C", ctx.t("d_model: the width of every token vector"));
    pick("##d_model", spec.d_model, {16, 32, 64, 128, 256, 512, 768});
    ImGui::SameLine();
    ImGui::TextUnformatted("H");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    const std::vector<int> heads = head_choices(spec.d_model);
    if (spec.d_model % spec.n_heads != 0) spec.n_heads = heads.back();
    if (ImGui::BeginCombo("##heads", std::to_string(spec.n_heads).c_str())) {
        for (int h : heads)
            if (ImGui::Selectable(std::to_string(h).c_str(), h == spec.n_heads)) spec.n_heads = h;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextDisabled("D = %d", spec.d_model / spec.n_heads);
    label("L", ctx.t("layers per stack (encoder and decoder)"));
    value_slider_int(nullptr, "##layers", &spec.n_layers, 1, 8, "%d", 4.0f * ctx.em);
    ImGui::SameLine();
    ImGui::TextUnformatted("F");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    pick("##d_ff", spec.d_ff, {32, 64, 128, 256, 512, 1024, 2048, 3072});

    ModelConfig preview = ctx.config();
    preview.d_model = spec.d_model, preview.n_heads = spec.n_heads, preview.d_ff = spec.d_ff;
    preview.n_encoder_layers = preview.has_encoder() ? spec.n_layers : 0;
    preview.n_decoder_layers = preview.has_decoder() ? spec.n_layers : 0;
    if (ImGui::Button(ctx.t("New random model"))) note_command(field, ctx.session.new_random_model(spec), ctx.session);
    ImGui::SameLine();
    ImGui::TextDisabled("%.2f M %s", static_cast<double>(parameter_count(preview)) / 1e6, ctx.t("Parameters"));
    field_error(ctx.session, field);
}

void draw_open_save(PanelContext& ctx) {
    ModelOpener& opener = model_opener(ctx);
    const char* open_label = ctx.t("Open");
    const char* browse_label = ctx.t("Browse...");
    std::string& open_path = ctx.caches.get<TypedOpenPath>().path;
    ImGui::SetNextItemWidth(field_width({open_label, browse_label}));
    bool open = path_field("##open_path", ctx.t("model.safetensors or a Hugging Face folder"), open_path);
    ImGui::SameLine();
    open |= ImGui::Button(open_label);
    if (open && !open_path.empty()) opener.open(ctx.session, open_path);
    ImGui::SameLine();
    // The dialog runs on its own thread, in its own window: this one keeps drawing meanwhile.
    ImGui::BeginDisabled(opener.browsing());
    if (ImGui::Button(browse_label)) opener.browse(ctx.t("Open a model"));
    ImGui::EndDisabled();
    if (opener.browsing()) {
        ImGui::TextDisabled("%s", ctx.t("Choosing a file…"));
    } else if (opener.dialog_note()) {
        text_disabled_wrapped(ctx.t(opener.dialog_note()));
        if (ImGui::IsItemHovered() && !opener.dialog_detail().empty())
            ImGui::SetTooltip("%s", opener.dialog_detail().c_str());
    }
    std::string picked = file_list(ctx, ctx.t("Bundled models"), bundled_model_files(ctx.paths.assets));
    if (std::string recent = file_list(ctx, ctx.t("Recent files"), ctx.view.settings.recent_files); !recent.empty())
        picked = std::move(recent);  // copied: opening reorders the recent list
    if (!picked.empty()) opener.open(ctx.session, picked);

    ImGui::Spacing();
    const ImGuiID save_field = ImGui::GetID("##save_path");
    const std::string& name = ctx.session.model_name();
    const char* home = std::getenv("HOME");
    const std::string fallback = save_suggestion(name, ctx.paths.assets + "/models", home ? home : "");
    const char* save_label = ctx.t("Save");
    std::string save_path;
    ImGui::SetNextItemWidth(field_width({save_label}));
    bool save = remembered_text_field("##save_path", "model.safetensors", fallback, save_path);
    ImGui::SameLine();
    save |= ImGui::Button(save_label);
    if (save && !save_path.empty()) save_model(ctx, save_field, save_path);
    field_error(ctx.session, save_field);
}

}  // namespace attnlab::gui
