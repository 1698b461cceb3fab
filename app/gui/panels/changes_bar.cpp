// The changes bar: "Changed from the file: 2 heads off × · LayerNorm: Pre-LN (trained with Post-LN) ×".
// It reads model_changes (app/model) once per session change and undoes an item by undo_change.
#include "panels/changes_bar.h"

#include "model_changes.h"

#include "forward/mechanisms/norm.h"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

const ImVec4 kAmber(1.0f, 0.72f, 0.2f, 1.0f);

// The list, recomputed only when the session may have changed.
struct ChangesCache {
    uint64_t serial = 0, generation = 0;
    std::vector<ModelChange> changes;
};

// The switch's name; the norm switch names the model's own norm (the Llama template's is RMSNorm).
const char* switch_name(ConfigSwitch s, const NormMechanism& norm) {
    switch (s) {
        case ConfigSwitch::layer_norm: return norm.rms() ? tr_noop("RMSNorm") : tr_noop("LayerNorm");
        case ConfigSwitch::activation: return tr_noop("Activation");
        case ConfigSwitch::positional: return tr_noop("Positions");
        case ConfigSwitch::scale_embedding: return tr_noop("Embedding × √d_model");
        case ConfigSwitch::final_norm: return tr_noop("Final norm");
        case ConfigSwitch::other: return tr_noop("Other settings");
    }
    return "";
}

// The switch's value in `c`, in English for ctx.t (the activations' names are notation in both languages).
const char* switch_value(const ModelConfig& c, ConfigSwitch s) {
    switch (s) {
        case ConfigSwitch::layer_norm: {
            const NormMechanism norm(c);
            if (norm.rms()) return norm.before_sublayer() ? tr_noop("Pre-norm") : tr_noop("Post-norm");
            return norm.before_sublayer() ? tr_noop("Pre-LN") : tr_noop("Post-LN");
        }
        case ConfigSwitch::activation:
            switch (c.activation) {
                case Activation::relu: return "ReLU";
                case Activation::gelu: return "GELU";
                case Activation::gelu_tanh: return "GELU-tanh";
                case Activation::silu: return "SiLU";
            }
            return "";
        case ConfigSwitch::positional:
            return c.positional == Positional::sinusoidal ? tr_noop("Sinusoidal")
                   : c.positional == Positional::learned  ? tr_noop("Learned")
                                                          : tr_noop("None");
        case ConfigSwitch::scale_embedding: return c.scale_embedding ? tr_noop("on") : tr_noop("off");
        case ConfigSwitch::final_norm: return c.final_norm ? tr_noop("on") : tr_noop("off");
        case ConfigSwitch::other: return "";
    }
    return "";
}

const char* bar_title(ModelOrigin origin) {
    switch (origin) {
        case ModelOrigin::file: return tr_noop("Changed from the file:");
        case ModelOrigin::training: return tr_noop("Changed from the trained weights:");
        case ModelOrigin::random: return tr_noop("Changed from the random model:");
    }
    return "";
}

// The item as the bar shows it, without its × .
std::string item_text(const PanelContext& ctx, const ModelChange& c) {
    char buf[192];
    const long long n = static_cast<long long>(c.count);
    switch (c.kind) {
        case ChangeKind::heads_off:
            std::snprintf(buf, sizeof buf, n == 1 ? ctx.t("1 head off") : ctx.t("%lld heads off"), n);
            break;
        case ChangeKind::mask_cells:
            std::snprintf(buf, sizeof buf, n == 1 ? ctx.t("1 mask cell flipped") : ctx.t("%lld mask cells flipped"), n);
            break;
        case ChangeKind::weights:
            if (n < 0)
                std::snprintf(buf, sizeof buf, ctx.t("weights edited in %d tensors"), c.tensors);
            else
                std::snprintf(buf, sizeof buf, n == 1 ? ctx.t("1 weight edited") : ctx.t("%lld weights edited"), n);
            break;
        case ChangeKind::config:
            if (c.which == ConfigSwitch::other) return ctx.t("Other settings");
            return switch_change_text(ctx.config(), ctx.session.model().config, c.which, ctx.session.origin(),
                                      ctx.view.settings.korean);
    }
    return buf;
}

const char* item_tooltip(const ModelChange& c) {
    switch (c.kind) {
        case ChangeKind::heads_off:
            return tr_noop("Switched-off heads add nothing to their layer. Click to switch every head back on.");
        case ChangeKind::mask_cells: return tr_noop("Click to reset every mask to what the tokens make.");
        case ChangeKind::weights: return tr_noop("Click to put back the weights as loaded.");
        case ChangeKind::config:
            return c.which == ConfigSwitch::other
                       ? tr_noop("Click to restore every setting as loaded.")
                       : tr_noop("The weights were not made for this switch. Click to switch it back.");
    }
    return "";
}

// Places the next item on the line of the last one if `width` fits, else on a new line.
void flow(float width) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

}  // namespace

std::string switch_change_text(const ModelConfig& live, const ModelConfig& loaded, ConfigSwitch which,
                               ModelOrigin origin, bool korean) {
    char buf[192];
    const char* format = tr(korean, origin == ModelOrigin::random ? "%s: %s (was %s)" : "%s: %s (trained with %s)");
    std::snprintf(buf, sizeof buf, format, tr(korean, switch_name(which, NormMechanism(live))),
                  tr(korean, switch_value(live, which)), tr(korean, switch_value(loaded, which)));
    return buf;
}

void draw_changes_bar(PanelContext& ctx) {
    ChangesCache& cache = ctx.caches.get<ChangesCache>();
    if (cache.serial != ctx.session.model_serial() || cache.generation != ctx.session.generation()) {
        cache.serial = ctx.session.model_serial();
        cache.generation = ctx.session.generation();
        cache.changes = model_changes(ctx.session);
    }
    if (cache.changes.empty()) return;
    const std::vector<ModelChange> changes = cache.changes;  // an undo below recomputes the cache next frame
    ImGui::PushID("changes_bar");
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kAmber, "%s", ctx.t(bar_title(ctx.session.origin())));
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(kAmber.x, kAmber.y, kAmber.z, 0.22f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(kAmber.x, kAmber.y, kAmber.z, 0.45f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(kAmber.x, kAmber.y, kAmber.z, 0.65f));
    bool failed = false;
    for (size_t i = 0; i < changes.size(); ++i) {
        const std::string label = item_text(ctx, changes[i]) + "  ×##" + std::to_string(i);
        flow(button_width(label.c_str()));
        if (ImGui::SmallButton(label.c_str())) failed |= !undo_change(ctx.session, changes[i]);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t(item_tooltip(changes[i])));
    }
    if (changes.size() > 1) {
        const char* all = ctx.t("Undo all");
        flow(button_width(all));
        if (ImGui::SmallButton(all)) failed |= !undo_all_changes(ctx.session);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("Every head on, every mask reset, the weights and switches as loaded."));
    }
    ImGui::PopStyleColor(3);
    ImGui::PopID();
    if (failed) ctx.status = ctx.session.error();
}

}  // namespace attnlab::gui
