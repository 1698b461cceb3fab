// The timeline strip: the forward pass's steps [0, N) as cells, then the backward pass's steps (one per forward step
// the loss reaches, last first) as a block of their own; [0, cursor) have run.
#include "panels/stepper_timeline.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

const ImVec4 kNonFiniteColor(1.0f, 0.3f, 0.25f, 1.0f);

// The part of the model a step belongs to: its stack's embeddings, the masks, one layer of a
// stack, a stack's output, or the output head.
struct BlockKey {
    enum class Part { embeddings, masks, layer, stack_output, head } part = Part::embeddings;
    Stack stack = Stack::encoder;
    int layer = -1;
    bool operator==(const BlockKey&) const = default;
};

BlockKey block_key(const StepId& id) {
    using Part = BlockKey::Part;
    switch (id.kind) {
        case StepKind::token_embedding:
        case StepKind::position:
        case StepKind::token_type:
        case StepKind::embedding_sum:
        case StepKind::embedding_norm:
        case StepKind::position_bias: return {Part::embeddings, id.stack};
        case StepKind::padding_mask:
        case StepKind::look_ahead_mask:
        case StepKind::attention_mask: return {Part::masks};
        case StepKind::attention:
        case StepKind::residual:
        case StepKind::norm:
        case StepKind::post_norm:
        case StepKind::ffn: return {Part::layer, id.stack, id.layer};
        case StepKind::stack_output: return {Part::stack_output, id.stack};
        case StepKind::head_transform:
        case StepKind::head_activation:
        case StepKind::head_norm:
        case StepKind::logits:
        case StepKind::capped_logits:
        case StepKind::probs: return {Part::head};
    }
    return {};
}

// A run of consecutive steps in one part of the model (a layer, the masks, the output head).
struct Block {
    size_t first = 0, count = 0;
    BlockKey key;
};

std::vector<Block> blocks_of(const std::vector<Step>& steps) {
    std::vector<Block> blocks;
    for (size_t i = 0; i < steps.size(); ++i) {
        const BlockKey key = block_key(steps[i].record.id);
        if (blocks.empty() || !(blocks.back().key == key)) blocks.push_back({i, 0, key});
        ++blocks.back().count;
    }
    return blocks;
}

// "Encoder 0" when it fits in `width` pixels, else "E0", else nothing. A stack's output has no label.
std::string block_label(const PanelContext& ctx, const BlockKey& key, float width) {
    using Part = BlockKey::Part;
    const bool enc = key.stack == Stack::encoder;
    std::string full, brief;
    switch (key.part) {
        case Part::layer: {
            const std::string layer = std::to_string(key.layer);
            full = std::string(ctx.t(enc ? "Encoder" : "Decoder")) + " " + layer;
            brief = (enc ? "E" : "D") + layer;
            break;
        }
        case Part::embeddings: full = ctx.t(enc ? "Source" : "Target"), brief = enc ? "S" : "T"; break;
        case Part::masks: full = ctx.t("Masks"), brief = "M"; break;
        case Part::head: full = ctx.t("Output"), brief = ctx.t("out"); break;
        case Part::stack_output: break;
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
    const TimelineGroup group = timeline_group(s.record.id.kind);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(timeline_group_color(group)), "■ %s",
                       ctx.t(timeline_group_name(group)));
    ImGui::SameLine();
    ImGui::TextDisabled("· %s", run ? ctx.t("computed") : ctx.t("not run yet"));
    if (run)
        if (const TraceEntry* e = ctx.stepper().run_facts(s.record.id); e && e->non_finite > 0)
            ImGui::TextColored(kNonFiniteColor, "%s: %lld", ctx.t("NaN or infinite values"),
                               static_cast<long long>(e->non_finite));
    ImGui::TextDisabled("%s", ctx.t("Click to run the forward pass up to here."));
    ImGui::EndTooltip();
}

// Backward step k: the gradient it computes and the forward step it goes back through.
void backward_tooltip(const PanelContext& ctx, size_t k) {
    const Session& session = ctx.session;
    const Step& s = ctx.stepper().step(session.backward_forward_index(k));
    ImGui::BeginTooltip();
    ImGui::TextDisabled("%s %d / %d  %s", ctx.t("backward"), static_cast<int>(k + 1),
                        static_cast<int>(session.backward_steps()), s.path.c_str());
    ImGui::Text("%s: %s", ctx.t("Backward through"), s.title.c_str());
    ImGui::TextColored(formula_color(ctx), "∂L/∂(%s) → ∂L/∂(%s)", ctx.t("its output"), ctx.t("its inputs"));
    const bool run = session.backward() && k < session.backward()->cursor();
    ImGui::TextDisabled("%s", run ? ctx.t("computed") : ctx.t("not run yet"));
    ImGui::TextDisabled("%s", ctx.t("Click to run the backward pass up to here."));
    ImGui::EndTooltip();
}

}  // namespace

TimelineGroup timeline_group(StepKind kind) {
    switch (kind) {
        case StepKind::token_embedding:
        case StepKind::position:
        case StepKind::token_type:
        case StepKind::embedding_sum:
        case StepKind::embedding_norm:
        case StepKind::position_bias: return TimelineGroup::embedding;
        case StepKind::padding_mask:
        case StepKind::look_ahead_mask:
        case StepKind::attention_mask: return TimelineGroup::mask;
        case StepKind::attention: return TimelineGroup::attention;
        case StepKind::residual:
        case StepKind::norm:
        case StepKind::post_norm:
        case StepKind::stack_output: return TimelineGroup::residual;
        case StepKind::ffn: return TimelineGroup::ffn;
        case StepKind::head_transform:
        case StepKind::head_activation:
        case StepKind::head_norm:
        case StepKind::logits:
        case StepKind::capped_logits:
        case StepKind::probs: return TimelineGroup::output;
    }
    return TimelineGroup::embedding;
}

ImU32 timeline_group_color(TimelineGroup group, float alpha) {
    float hue = 0.0f;
    switch (group) {
        case TimelineGroup::embedding: hue = 0.36f; break;  // green
        case TimelineGroup::mask: hue = 0.78f; break;       // violet
        case TimelineGroup::attention: hue = 0.58f; break;  // blue
        case TimelineGroup::residual: hue = 0.14f; break;   // yellow
        case TimelineGroup::ffn: hue = 0.03f; break;        // red-orange
        case TimelineGroup::output: hue = 0.90f; break;     // pink
    }
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(hue, 0.6f, 0.95f, r, g, b);
    return ImGui::GetColorU32(ImVec4(r, g, b, alpha));
}

ImVec4 formula_color(const PanelContext& ctx) {
    return ctx.view.settings.dark_theme ? ImVec4(0.55f, 0.8f, 1.0f, 1.0f) : ImVec4(0.05f, 0.3f, 0.65f, 1.0f);
}

const char* timeline_group_name(TimelineGroup group) {
    switch (group) {
        case TimelineGroup::embedding: return tr_noop("embedding");
        case TimelineGroup::mask: return tr_noop("mask");
        case TimelineGroup::attention: return tr_noop("attention");
        case TimelineGroup::residual: return tr_noop("residual & norm");
        case TimelineGroup::ffn: return tr_noop("feed-forward");
        case TimelineGroup::output: return tr_noop("output");
    }
    return "";
}

void draw_timeline(PanelContext& ctx, float cell_height) {
    const Stepper& stepper = ctx.stepper();
    const Session& session = ctx.session;
    const size_t n = stepper.size(), m = session.backward_steps(), total = n + m;
    const size_t cursor = session.timeline_cursor();
    if (n == 0) return;
    const std::vector<Block> blocks = blocks_of(stepper.steps());
    const size_t n_gaps = blocks.size() - 1 + (m > 0 ? 1 : 0);
    const float gap = 0.3f * ctx.em, width = ImGui::GetContentRegionAvail().x;
    const float pitch = std::min(1.2f * ctx.em, (width - gap * static_cast<float>(n_gaps)) / static_cast<float>(total));
    const float cell_w = pitch > 4.0f ? pitch - 1.0f : pitch;
    const float label_h = ImGui::GetTextLineHeight();

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##timeline", ImVec2(width, cell_height + label_h));
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float base = origin.y + cell_height + 2.0f;

    std::vector<float> xs(total);  // each cell's left edge
    float x = origin.x;
    for (const Block& b : blocks) {
        const float block_w = pitch * static_cast<float>(b.count);
        draw->AddLine(ImVec2(x, base), ImVec2(x + block_w - 1.0f, base), dim);
        draw->AddText(ImVec2(x, base), dim, block_label(ctx, b.key, block_w).c_str());
        for (size_t i = b.first; i < b.first + b.count; ++i, x += pitch) xs[i] = x;
        x += gap;
    }
    if (m > 0) {  // the backward block: "Backward", or "∂" when that does not fit
        const float block_w = pitch * static_cast<float>(m);
        const char* label = ImGui::CalcTextSize(ctx.t("Backward")).x <= block_w ? ctx.t("Backward") : "∂";
        draw->AddLine(ImVec2(x, base), ImVec2(x + block_w - 1.0f, base), dim);
        draw->AddText(ImVec2(x, base), dim, label);
        for (size_t k = 0; k < m; ++k, x += pitch) xs[n + k] = x;
    }
    const float bar = std::max(2.0f, 0.18f * cell_height);  // a backward cell is its forward step's colour, hollowed
    for (size_t i = 0; i < total; ++i) {
        const size_t forward = i < n ? i : session.backward_forward_index(i - n);
        const ImU32 color =
            timeline_group_color(timeline_group(stepper.step(forward).record.id.kind), i < cursor ? 1.0f : 0.22f);
        const ImVec2 a(xs[i], origin.y), b(xs[i] + cell_w, origin.y + cell_height);
        if (i < n) {
            draw->AddRectFilled(a, b, color);
        } else {
            draw->AddRectFilled(a, ImVec2(b.x, a.y + bar), color);
            draw->AddRectFilled(ImVec2(a.x, b.y - bar), b, color);
            if (i < cursor) draw->AddRectFilled(ImVec2(a.x, a.y + bar), ImVec2(b.x, b.y - bar), color & 0x66FFFFFF);
        }
    }
    auto outline = [&](size_t i, ImU32 color) {
        draw->AddRect(ImVec2(xs[i] - 2.0f, origin.y - 2.0f),
                      ImVec2(xs[i] + cell_w + 2.0f, origin.y + cell_height + 2.0f), color, 0.0f, 0, 2.0f);
    };
    if (cursor > 0) outline(cursor - 1, ImGui::GetColorU32(ImGuiCol_Text));
    if (const auto bad = stepper.first_non_finite_step()) {  // where NaN/∞ first appears: a red frame and a mark below
        outline(*bad, ImGui::GetColorU32(kNonFiniteColor));
        const float cx = xs[*bad] + cell_w * 0.5f, top = origin.y + cell_height + 3.0f, half = 0.35f * ctx.em;
        draw->AddTriangleFilled(ImVec2(cx, top), ImVec2(cx - half, top + 2.0f * half),
                                ImVec2(cx + half, top + 2.0f * half), ImGui::GetColorU32(kNonFiniteColor));
    }
    if (!hovered && !active) return;
    // The cell under the mouse: the last one starting at or left of it (a gap belongs to the cell before).
    const float mouse_x = ImGui::GetIO().MousePos.x;
    const size_t under = static_cast<size_t>(
        std::max<std::ptrdiff_t>(0, std::upper_bound(xs.begin(), xs.end(), mouse_x) - xs.begin() - 1));
    outline(under, dim);
    if (under < n)
        step_tooltip(ctx, under);
    else
        backward_tooltip(ctx, under - n);
    if (active && under + 1 != cursor) ctx.session.run_to(under + 1);
}

}  // namespace attnlab::gui
