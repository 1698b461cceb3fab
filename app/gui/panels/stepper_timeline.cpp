// The timeline strip: the forward pass's steps [0, N) as cells; [0, cursor) have run.
#include "panels/stepper_timeline.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

const ImVec4 kNonFiniteColor(1.0f, 0.3f, 0.25f, 1.0f);

// A run of consecutive steps in one part of the model (a layer, the masks, the output head).
struct Block {
    size_t first = 0, count = 0;
    std::string key;  // encoder.layers.0, src, masks, output, ...
};

std::string block_key(const std::string& path) {
    if (path == "logits" || path == "probs") return "output";
    if (path.starts_with("encoder.layers.") || path.starts_with("decoder.layers.")) {
        const size_t end = path.find('.', sizeof("encoder.layers.") - 1);
        return path.substr(0, end);
    }
    return path.substr(0, path.find('.'));
}

std::vector<Block> blocks_of(const std::vector<Step>& steps) {
    std::vector<Block> blocks;
    for (size_t i = 0; i < steps.size(); ++i) {
        std::string key = block_key(steps[i].path);
        if (blocks.empty() || blocks.back().key != key) blocks.push_back({i, 0, std::move(key)});
        ++blocks.back().count;
    }
    return blocks;
}

// "Encoder 0" when it fits in `width` pixels, else "E0", else nothing.
std::string block_label(const PanelContext& ctx, const std::string& key, float width) {
    std::string full, brief;
    if (key.starts_with("encoder.layers.") || key.starts_with("decoder.layers.")) {
        const std::string layer = key.substr(key.rfind('.') + 1);
        const bool enc = key[0] == 'e';
        full = std::string(ctx.t(enc ? "Encoder" : "Decoder")) + " " + layer;
        brief = (enc ? "E" : "D") + layer;
    } else if (key == "src") {
        full = ctx.t("Source"), brief = "S";
    } else if (key == "tgt") {
        full = ctx.t("Target"), brief = "T";
    } else if (key == "masks") {
        full = ctx.t("Masks"), brief = "M";
    } else if (key == "output") {
        full = ctx.t("Output"), brief = "out";
    }
    if (ImGui::CalcTextSize(full.c_str()).x <= width) return full;
    if (ImGui::CalcTextSize(brief.c_str()).x <= width) return brief;
    return "";
}

void step_tooltip(const PanelContext& ctx, size_t i) {
    const Step& s = ctx.stepper().step(i);
    const bool run = i < ctx.stepper().cursor();
    ImGui::BeginTooltip();
    ImGui::TextDisabled("%d / %d  %s", static_cast<int>(i + 1), static_cast<int>(ctx.stepper().size()), s.path.c_str());
    ImGui::TextUnformatted(s.title.c_str());
    ImGui::TextColored(formula_color(ctx), "%s", s.formula.c_str());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(step_kind_color(step_kind(s.path))), "■ %s",
                       ctx.t(step_kind_name(step_kind(s.path))));
    ImGui::SameLine();
    ImGui::TextDisabled("· %s", run ? ctx.t("computed") : ctx.t("not run yet"));
    if (run)
        if (const TraceEntry* e = ctx.stepper().entry(s.path); e && e->non_finite > 0)
            ImGui::TextColored(kNonFiniteColor, "%s: %lld", ctx.t("NaN or infinite values"),
                               static_cast<long long>(e->non_finite));
    ImGui::TextDisabled("%s", ctx.t("Click to run the forward pass up to here."));
    ImGui::EndTooltip();
}

}  // namespace

StepKind step_kind(const std::string& path) {
    if (path.starts_with("masks.")) return StepKind::mask;
    if (path.find("_attn.") != std::string::npos) return StepKind::attention;
    if (path.find(".ffn.") != std::string::npos) return StepKind::ffn;
    if (path == "logits" || path == "probs") return StepKind::output;
    if (path.find("residual") != std::string::npos || path.find("norm") != std::string::npos ||
        path.ends_with(".output"))
        return StepKind::residual;
    return StepKind::embedding;
}

ImU32 step_kind_color(StepKind kind, float alpha) {
    float hue = 0.0f;
    switch (kind) {
        case StepKind::embedding: hue = 0.36f; break;  // green
        case StepKind::mask: hue = 0.78f; break;       // violet
        case StepKind::attention: hue = 0.58f; break;  // blue
        case StepKind::residual: hue = 0.14f; break;   // yellow
        case StepKind::ffn: hue = 0.03f; break;        // red-orange
        case StepKind::output: hue = 0.90f; break;     // pink
    }
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(hue, 0.6f, 0.95f, r, g, b);
    return ImGui::GetColorU32(ImVec4(r, g, b, alpha));
}

ImVec4 formula_color(const PanelContext& ctx) {
    return ctx.view.dark_theme ? ImVec4(0.55f, 0.8f, 1.0f, 1.0f) : ImVec4(0.05f, 0.3f, 0.65f, 1.0f);
}

const char* step_kind_name(StepKind kind) {
    switch (kind) {
        case StepKind::embedding: return "embedding";
        case StepKind::mask: return "mask";
        case StepKind::attention: return "attention";
        case StepKind::residual: return "residual & norm";
        case StepKind::ffn: return "feed-forward";
        case StepKind::output: return "output";
    }
    return "";
}

void draw_timeline(PanelContext& ctx, float cell_height) {
    const Stepper& stepper = ctx.stepper();
    const size_t n = stepper.size(), cursor = stepper.cursor();
    if (n == 0) return;
    const std::vector<Block> blocks = blocks_of(stepper.steps());
    const float gap = 0.3f * ctx.em, width = ImGui::GetContentRegionAvail().x;
    const float pitch = std::min(1.2f * ctx.em, (width - gap * static_cast<float>(blocks.size() - 1)) / static_cast<float>(n));
    const float cell_w = pitch > 4.0f ? pitch - 1.0f : pitch;
    const float label_h = ImGui::GetTextLineHeight();

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##timeline", ImVec2(width, cell_height + label_h));
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

    std::vector<float> xs(n);  // each cell's left edge
    float x = origin.x;
    for (const Block& b : blocks) {
        const float block_w = pitch * static_cast<float>(b.count);
        const float base = origin.y + cell_height + 2.0f;
        draw->AddLine(ImVec2(x, base), ImVec2(x + block_w - 1.0f, base), dim);
        draw->AddText(ImVec2(x, base), dim, block_label(ctx, b.key, block_w).c_str());
        for (size_t i = b.first; i < b.first + b.count; ++i, x += pitch) xs[i] = x;
        x += gap;
    }
    for (size_t i = 0; i < n; ++i)
        draw->AddRectFilled(ImVec2(xs[i], origin.y), ImVec2(xs[i] + cell_w, origin.y + cell_height),
                            step_kind_color(step_kind(stepper.step(i).path), i < cursor ? 1.0f : 0.22f));
    auto outline = [&](size_t i, ImU32 color) {
        draw->AddRect(ImVec2(xs[i] - 2.0f, origin.y - 2.0f), ImVec2(xs[i] + cell_w + 2.0f, origin.y + cell_height + 2.0f),
                      color, 0.0f, 0, 2.0f);
    };
    if (cursor > 0) outline(cursor - 1, ImGui::GetColorU32(ImGuiCol_Text));
    if (const auto bad = stepper.first_non_finite_step()) {  // where NaN/∞ first appears: a red frame and a mark below
        outline(*bad, ImGui::GetColorU32(kNonFiniteColor));
        const float cx = xs[*bad] + cell_w * 0.5f, top = origin.y + cell_height + 3.0f, half = 0.35f * ctx.em;
        draw->AddTriangleFilled(ImVec2(cx, top), ImVec2(cx - half, top + 2.0f * half), ImVec2(cx + half, top + 2.0f * half),
                                ImGui::GetColorU32(kNonFiniteColor));
    }
    if (!hovered && !active) return;
    // The cell under the mouse: the last one starting at or left of it (a gap belongs to the cell before).
    const float mouse_x = ImGui::GetIO().MousePos.x;
    const size_t under = static_cast<size_t>(std::max<std::ptrdiff_t>(
        0, std::upper_bound(xs.begin(), xs.end(), mouse_x) - xs.begin() - 1));
    outline(under, dim);
    step_tooltip(ctx, under);
    if (active && under + 1 != cursor) ctx.session.run_to(under + 1);
}

}  // namespace attnlab::gui
