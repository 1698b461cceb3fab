// Gradient norms by layer and attention entropies by head over a training run, from its ProbeRecord.
#include "panels/training_plots.h"

#include "panels/line_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

// Which attention's heads the entropy plot shows. Panel state, not saved: a new run (or model) starts
// again from the default, the first decoder layer's cross-attention, where a translator's alignment forms.
struct EntropyChoice {
    AttentionUse use = AttentionUse::cross;
    int layer = 0;
};

// The head view's colours (head_view.cpp), so a head has one colour in both views.
constexpr ImU32 kHeadColors[] = {
    IM_COL32(78, 161, 255, 255),  IM_COL32(255, 145, 40, 255),  IM_COL32(70, 195, 90, 255),
    IM_COL32(240, 80, 80, 255),   IM_COL32(180, 130, 240, 255), IM_COL32(225, 190, 40, 255),
    IM_COL32(250, 120, 200, 255), IM_COL32(50, 200, 200, 255),  IM_COL32(180, 125, 90, 255),
    IM_COL32(150, 150, 150, 255), IM_COL32(170, 210, 60, 255),  IM_COL32(120, 130, 255, 255),
};
constexpr ImU32 kUniformColor = IM_COL32(160, 160, 160, 200);

std::string format_int(const char* format, int v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

ImU32 mix(ImU32 a, ImU32 b, float t) {
    const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
    return ImGui::ColorConvertFloat4ToU32(
        ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, 1.0f));
}

// Encoder layers in blues and decoder layers in oranges, lighter near the input and deeper near the output,
// so a fall or rise with depth reads as a fall or rise through the shades.
ImU32 group_color(const ParamGroupId& id, int encoder_layers, int decoder_layers) {
    const auto depth = [](int layer, int n) {
        return n > 1 ? static_cast<float>(layer) / static_cast<float>(n - 1) : 0.0f;
    };
    switch (id.kind) {
        case ParamGroupKind::embeddings: return IM_COL32(70, 195, 90, 255);
        case ParamGroupKind::encoder_layer:
            return mix(IM_COL32(140, 200, 255, 255), IM_COL32(40, 90, 230, 255), depth(id.layer, encoder_layers));
        case ParamGroupKind::encoder_norm: return IM_COL32(50, 200, 200, 255);
        case ParamGroupKind::decoder_layer:
            return mix(IM_COL32(255, 200, 110, 255), IM_COL32(225, 80, 30, 255), depth(id.layer, decoder_layers));
        case ParamGroupKind::output_head: return IM_COL32(215, 110, 230, 255);
    }
    return IM_COL32(150, 150, 150, 255);
}

std::string group_label(const PanelContext& ctx, const ParamGroupId& id) {
    switch (id.kind) {
        case ParamGroupKind::embeddings: return ctx.t("embeddings");
        case ParamGroupKind::encoder_layer: return format_int(ctx.t("encoder %d"), id.layer);
        case ParamGroupKind::encoder_norm: return ctx.t("encoder final norm");
        case ParamGroupKind::decoder_layer: return format_int(ctx.t("decoder %d"), id.layer);
        case ParamGroupKind::output_head: return ctx.t("output head");
    }
    return "";
}

const char* use_label(const PanelContext& ctx, AttentionUse use) {
    switch (use) {
        case AttentionUse::encoder_self: return ctx.t("Encoder self-attention");
        case AttentionUse::decoder_self: return ctx.t("Decoder self-attention");
        case AttentionUse::cross: return ctx.t("Cross-attention");
    }
    return "";
}

float x_max(const PanelContext& ctx, const TrainProgress& p) {
    return static_cast<float>(std::max(p.run ? p.total : ctx.view.train.steps, 1));
}

// A title, then a dim note after it when both fit within `right` (else the note on hover), and `tooltip` on hover.
void header(const char* title, const char* note, const char* tooltip, float right) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title);
    bool hovered = ImGui::IsItemHovered();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const bool note_fits = *note && ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(note).x <= right;
    if (note_fits) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", note);
        hovered = hovered || ImGui::IsItemHovered();
    }
    if (!hovered) return;
    if (*note && !note_fits)
        ImGui::SetTooltip("%s\n\n%s", note, tooltip);
    else
        ImGui::SetTooltip("%s", tooltip);
}

void gradient_plot(const PanelContext& ctx, const TrainProgress& p, ImVec2 size) {
    const ProbeRecord& r = p.probes;
    int encoder_layers = 0, decoder_layers = 0;
    for (const ParamGroupId& g : r.groups()) {
        if (g.kind == ParamGroupKind::encoder_layer) encoder_layers = std::max(encoder_layers, g.layer + 1);
        if (g.kind == ParamGroupKind::decoder_layer) decoder_layers = std::max(decoder_layers, g.layer + 1);
    }
    std::vector<PlotSeries> series;
    for (size_t g = 0; g < r.groups().size(); ++g) {
        PlotSeries s{
            group_label(ctx, r.groups()[g]), group_color(r.groups()[g], encoder_layers, decoder_layers), {}, 1.6f};
        s.value_format = "%.3g";
        for (size_t i = 0; i < r.size(); ++i)
            if (const float v = r.grad_norm(i, g); std::isfinite(v) && v > 0.0f)
                s.points.emplace_back(static_cast<float>(r.step(i)), v);
        series.push_back(std::move(s));
    }
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = "";  // the header above says it
    axes.x_max = x_max(ctx, p);
    axes.log_y = true;  // norms that shrink or explode differ by factors: equal factors, equal distances
    axes.empty_note = p.run ? ctx.t("no step yet") : ctx.t("Press Start to train.");
    line_plot("##grad_norms", size, axes, series);
}

// The use and layer of the attention whose heads the entropy plot shows: after the last item if they fit
// before `right` (unless `first`), else on a line of their own.
void entropy_choice(const PanelContext& ctx, const ProbeRecord& r, EntropyChoice& choice, float right, bool first) {
    // A choice the model lacks (cross-attention in a decoder-only model, a layer past its depth): its first attention.
    const std::vector<AttentionSite>& sites = r.sites();
    if (!sites.empty() && std::find(sites.begin(), sites.end(), AttentionSite{choice.use, choice.layer}) == sites.end())
        choice = {sites.front().use, sites.front().layer};
    int layers[3] = {0, 0, 0};  // per AttentionUse
    for (const AttentionSite& s : r.sites())
        layers[static_cast<int>(s.use)] = std::max(layers[static_cast<int>(s.use)], s.layer + 1);
    const ImGuiStyle& style = ImGui::GetStyle();
    float use_w = 0.0f;
    for (AttentionUse u : {AttentionUse::encoder_self, AttentionUse::decoder_self, AttentionUse::cross})
        use_w = std::max(use_w, ImGui::CalcTextSize(use_label(ctx, u)).x);
    use_w += ImGui::GetFrameHeight() + 2.0f * style.FramePadding.x;
    const char* layer_text = ctx.t("Layer");
    const float layer_w = ImGui::GetFrameHeight() + 2.0f * style.FramePadding.x + ImGui::CalcTextSize("00").x;
    const float need = use_w + style.ItemSpacing.x * 3.0f + ImGui::CalcTextSize(layer_text).x + layer_w +
                       ImGui::CalcTextSize("(?)").x;  // the help mark after it
    const float gap = 1.2f * ctx.em;
    if (!first && ImGui::GetItemRectMax().x + gap + need <= right) ImGui::SameLine(0.0f, gap);
    ImGui::BeginDisabled(r.sites().empty());  // before a run: what will be shown, nothing to choose yet
    ImGui::SetNextItemWidth(use_w);
    if (ImGui::BeginCombo("##entropy_use", use_label(ctx, choice.use))) {
        for (AttentionUse u : {AttentionUse::encoder_self, AttentionUse::decoder_self, AttentionUse::cross})
            if (layers[static_cast<int>(u)] > 0 && ImGui::Selectable(use_label(ctx, u), u == choice.use))
                choice.use = u;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(layer_text);
    ImGui::SameLine();
    const int n_layers = std::max(layers[static_cast<int>(choice.use)], 1);
    choice.layer = std::clamp(choice.layer, 0, n_layers - 1);
    ImGui::SetNextItemWidth(layer_w);
    if (ImGui::BeginCombo("##entropy_layer", std::to_string(choice.layer).c_str())) {
        for (int l = 0; l < n_layers; ++l)
            if (ImGui::Selectable(std::to_string(l).c_str(), l == choice.layer)) choice.layer = l;
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
}

void entropy_plot(const PanelContext& ctx, const TrainProgress& p, const EntropyChoice& choice, ImVec2 size) {
    const ProbeRecord& r = p.probes;
    const auto it = std::find(r.sites().begin(), r.sites().end(), AttentionSite{choice.use, choice.layer});
    std::vector<PlotSeries> series;
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = "";
    axes.x_max = x_max(ctx, p);
    axes.empty_note = ctx.t("Press Start to train.");
    if (it != r.sites().end() && !r.empty()) {
        const size_t site = static_cast<size_t>(it - r.sites().begin());
        for (int h = 0; h < r.n_heads(); ++h) {
            PlotSeries s{format_int(ctx.t("head %d"), h),
                         kHeadColors[static_cast<size_t>(h) % std::size(kHeadColors)],
                         {},
                         1.8f};
            s.value_format = "%.3f";
            for (size_t i = 0; i < r.size(); ++i)
                s.points.emplace_back(static_cast<float>(r.step(i)), r.entropy(i, site, h));
            series.push_back(std::move(s));
        }
        // What a head that looks at every key alike would score: where untrained heads start.
        const float uniform = r.uniform_entropy(site);
        PlotSeries even{ctx.t("every key alike"), kUniformColor, {{0.0f, uniform}, {axes.x_max, uniform}}, 1.0f};
        even.value_format = "%.3f";
        series.push_back(std::move(even));
        if (uniform > 0.0f) axes.fixed_y = true, axes.y_min = 0.0f, axes.y_max = 1.1f * uniform;
    }
    line_plot("##entropy", size, axes, series);
}

}  // namespace

void draw_gradient_norms(PanelContext& ctx, const TrainProgress& p, ImVec2 size, bool titled) {
    ImGui::BeginGroup();
    const float top = ImGui::GetCursorPosY(), right = ImGui::GetCursorScreenPos().x + size.x;
    const char* about = ctx.t(
        "The length (L2 norm) of the loss's gradient over each layer's parameters, for the step's batch, "
        "before the gradient is clipped. Lines falling together: the model is settling. A line far above "
        "the rest, or rising fast: gradients exploding there; one sinking towards zero: that part has "
        "stopped learning.");
    const char* note = ctx.t("|∂L/∂θ| of each layer's parameters, before clipping");
    if (titled) {
        header(ctx.t("Gradient norm by layer"), note, about, right);
    } else {
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("%s", note);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", about);
    }
    const float header_h = ImGui::GetCursorPosY() - top;
    gradient_plot(ctx, p, ImVec2(size.x, std::max(6.0f * ctx.em, size.y - header_h)));
    ImGui::EndGroup();
}

void draw_head_entropies(PanelContext& ctx, const TrainProgress& p, ImVec2 size, bool titled) {
    ImGui::BeginGroup();
    ImGui::PushID("entropy");
    const float top = ImGui::GetCursorPosY(), right = ImGui::GetCursorScreenPos().x + size.x;
    const char* about = ctx.t(
        "Each head's attention entropy, −Σ p·ln p over the keys, averaged over the query rows, in nats, on one "
        "held-out pair. 0: every row on one key; the grey line: every key alike. Heads that sharpen as training "
        "goes on are heads finding their job.");
    const std::string pair = !p.run        ? std::string()
                             : p.job.opened ? std::string(ctx.t("on the first sequence of the first batch"))
                                            : std::string(ctx.t("held-out pair:")) + " " + join_words(p.probe_example.src) +
                                                  "  →  " + join_words(p.probe_example.tgt);
    const std::string tooltip = pair.empty() ? std::string(about) : std::string(about) + "\n\n" + pair;
    EntropyChoice& choice = ctx.caches.get<EntropyChoice>();
    if (titled) {
        header(ctx.t("Attention entropy by head"), "", tooltip.c_str(), right);
        entropy_choice(ctx, p.probes, choice, right, false);
    } else {
        entropy_choice(ctx, p.probes, choice, right, true);
    }
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip.c_str());
    // The pair beside the choice when it fits; else on a line of its own when the plot can spare it (else it
    // is in the tooltips).
    if (!pair.empty()) {
        const float gap = 1.2f * ctx.em, w = ImGui::CalcTextSize(pair.c_str()).x;
        const bool beside = ImGui::GetItemRectMax().x + gap + w <= right;
        if (beside || size.y - (ImGui::GetCursorPosY() - top) >= 18.0f * ctx.em) {
            if (beside) ImGui::SameLine(0.0f, gap);
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + (beside ? w + 1.0f : size.x));
            ImGui::AlignTextToFramePadding();
            ImGui::TextDisabled("%s", pair.c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", about);
        }
    }
    const float header_h = ImGui::GetCursorPosY() - top;
    entropy_plot(ctx, p, choice, ImVec2(size.x, std::max(6.0f * ctx.em, size.y - header_h)));
    ImGui::PopID();
    ImGui::EndGroup();
}

void draw_probe_plots(PanelContext& ctx, const TrainProgress& p, float height) {
    const float em = ctx.em, avail = ImGui::GetContentRegionAvail().x;
    const ImGuiStyle& style = ImGui::GetStyle();
    const bool side_by_side = avail >= 32.0f * em;
    const float left_w = side_by_side ? std::floor(avail * 0.58f) : avail;  // as the loss and scores above
    const float right_w = side_by_side ? avail - left_w - style.ItemSpacing.x : avail;
    const float left_x = ImGui::GetCursorPosX();
    const float column_h = side_by_side ? height : std::floor(0.5f * (height - style.ItemSpacing.y));
    draw_gradient_norms(ctx, p, ImVec2(left_w, column_h), true);
    if (side_by_side) ImGui::SameLine(left_x + left_w + style.ItemSpacing.x);
    draw_head_entropies(ctx, p, ImVec2(right_w, side_by_side ? column_h : height - column_h - style.ItemSpacing.y),
                        true);
}

}  // namespace attnlab::gui
