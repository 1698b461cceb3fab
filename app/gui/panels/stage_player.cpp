// "Play stages": one head's attention shown stage after stage, QKᵀ → ÷√D → masked → softmax → ×V, each held
// with its caption and formula and then morphed into the next (stage_animation.h keeps the time), so a class
// watches the numbers turn into weights. The matrix is drawn large with its tokens and numbers while it plays.
#include "panels/attention_parts.h"
#include "panels/stage_animation.h"
#include "panels/step_explanation.h"
#include "panels/token_matrix.h"

#include "score_scale_text.h"

#include "forward/mechanisms/layer_variants.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace attnlab::gui {

namespace {

struct PlayedStage {
    AttentionStage id;
    const char* name;  // for ctx.t
};

constexpr PlayedStage kPlayed[] = {
    {AttentionStage::scores, "QKᵀ"},
    {AttentionStage::scaled, "÷√D"},  // shown as the model's own scale (score_scale_text.h)
    {AttentionStage::biased, tr_noop("+ bias")},
    {AttentionStage::capped, tr_noop("soft cap")},
    {AttentionStage::masked, tr_noop("masked")},
    {AttentionStage::weights, tr_noop("softmax")},
    {AttentionStage::context, "×V"},
};

// The animation and what it plays: which head, the stages it has, and the blended values last drawn.
struct StagePlayerState {
    StageAnimation anim;
    bool active = false;
    AttentionSite site{};
    int head = 0;
    std::vector<PlayedStage> stages;  // those of kPlayed this attention has run
    std::vector<float> shown;         // (rows, cols): the values on screen
    uint64_t shown_version = 0;
    std::tuple<int, int, float, uint64_t> shown_of{-1, -1, 0.0f, 0};  // from, to, blend, and the trace's versions
};

std::string stage_name(const PanelContext& ctx, const PlayedStage& s) {
    return s.id == AttentionStage::scaled ? score_scale_text(ctx.config()).tab : ctx.t(s.name);
}

// The largest |v| of the finite values: a diverging colormap's half range.
float finite_extent(const float* v, size_t n) {
    float m = 0.0f;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(v[i])) m = std::max(m, std::abs(v[i]));
    return m > 0.0f ? m : 1.0f;
}

// The row of stage names, the one shown lit and the morph's progress as a bar under the next.
void stage_chips(const PanelContext& ctx, const StagePlayerState& p, const StageFrame& f) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 lit = IM_COL32(255, 200, 40, 255), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (size_t k = 0; k < p.stages.size(); ++k) {
        if (k > 0) {
            ImGui::SameLine();
            ImGui::TextDisabled("→");
            ImGui::SameLine();
        }
        const bool on = static_cast<int>(k) == f.nearest();
        const ImVec2 a = ImGui::GetCursorScreenPos();
        const std::string name = stage_name(ctx, p.stages[k]);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(on ? lit : dim), "%s", name.c_str());
        const ImVec2 b = ImGui::GetItemRectMax();
        if (static_cast<int>(k) == f.to && f.to != f.from)  // the morph into this stage, as a filling bar
            draw->AddRectFilled(ImVec2(a.x, b.y), ImVec2(a.x + (b.x - a.x) * f.blend, b.y + 0.15f * ctx.em), lit);
    }
}

}  // namespace

void stage_player_button(PanelContext& ctx, const AttentionSite& site, int head) {
    std::vector<PlayedStage> stages;  // the stages this attention has run so far
    for (const PlayedStage& s : kPlayed)
        if (ctx.stepper().run_facts(StepId::attention_at(site, s.id))) stages.push_back(s);
    const bool can_play = stages.size() >= 2;
    ImGui::BeginDisabled(!can_play);
    const bool clicked = ImGui::Button(ctx.t("▶ Play stages"));
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", can_play ? ctx.t("Shows this head's stages one after another, from QKᵀ to ×V, the "
                                                 "numbers turning from one into the next.")
                                         : ctx.t("Not run yet: step forward to compute it."));
    if (!clicked) return;
    StagePlayerState& p = ctx.caches.get<StagePlayerState>();
    p.stages = std::move(stages);
    p.site = site, p.head = head, p.active = true;
    p.shown_of = {-1, -1, 0.0f, 0};
    p.anim.play(static_cast<int>(p.stages.size()), ImGui::GetTime());
}

bool draw_stage_player(PanelContext& ctx, const AttentionSite& site, int head) {
    StagePlayerState& p = ctx.caches.get<StagePlayerState>();
    if (!p.active) return false;
    const double now = ImGui::GetTime();
    if (p.site != site || p.head != head) p.anim.stop(now);  // the user chose another head: stop there
    const StageFrame f = p.anim.frame(now);
    const PlayedStage& from = p.stages[f.from];
    const PlayedStage& to = p.stages[f.to];
    ctx.view.attention.stage =
        p.stages[f.nearest()].id;  // the stage buttons follow; a stop leaves the view on this stage
    const TraceEntry* a = ctx.stepper().entry(StepId::attention_at(p.site, from.id));
    const TraceEntry* b = ctx.stepper().entry(StepId::attention_at(p.site, to.id));
    if (!f.playing || !a || !b) {
        p.active = false;
        return false;
    }
    glfwPostEmptyEvent();  // the window loop waits for input when idle: wake it for the next frame of the animation

    // The values on screen: the two stages blended where their shapes agree (×V's (T, D) has its own shape).
    const bool same_shape = a->value.dim(1) == b->value.dim(1) && a->value.dim(2) == b->value.dim(2);
    const TraceEntry* shown = same_shape || f.blend < 0.5f ? a : b;
    const int rows = static_cast<int>(shown->value.dim(1)), cols = static_cast<int>(shown->value.dim(2));
    const size_t n = static_cast<size_t>(rows) * cols;
    const auto state = std::make_tuple(f.from, f.to, f.blend, a->version * 1000003 + b->version);
    if (state != p.shown_of) {
        p.shown.resize(n);
        if (same_shape)
            blend_stage_values(a->value.slice(p.head).data(), b->value.slice(p.head).data(), n, f.blend,
                               p.shown.data());
        else
            std::copy_n(shown->value.slice(p.head).data(), n, p.shown.begin());
        p.shown_of = state;
        ++p.shown_version;
    }
    const PlayedStage& look = p.stages[f.nearest()];
    const bool weights = look.id == AttentionStage::weights;
    const bool keyed = (shown == a ? from : to).id != AttentionStage::context;  // its columns are keys, not D

    // Stop and the stages with the one shown lit, then its title and formula.
    if (ImGui::Button(ctx.t("■ Stop"))) p.anim.stop(now);
    ImGui::SameLine(0.0f, 1.5f * ctx.em);
    stage_chips(ctx, p, f);
    const std::optional<size_t> index = ctx.stepper().find(StepId::attention_at(p.site, look.id));
    if (index) {
        const StepHeading heading = step_heading(ctx, *index);
        ImGui::Text("%s", heading.title.c_str());
        ImGui::SameLine();
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.8f, 1.0f, 1.0f));
        ImGui::TextUnformatted(heading.formula.c_str());
        ImGui::PopStyleColor();
    }

    // The matrix as large as the space allows, with its tokens and (where they fit) its numbers.
    const AttentionTokens tokens = attention_tokens(ctx, p.site);
    const TraceEntry* mask = ctx.stepper().entry(mask_of_site(ctx.config(), p.site));  // a local layer's own
    HeatmapSource src{"stage-player", p.shown.data(), rows, cols, p.shown_version};
    if (keyed && mask) src.mask = mask->value.data.data(), src.mask_version = mask->version;
    src.colormap = weights ? Colormap::sequential : Colormap::diverging;
    if (weights) {
        src.lo = 0.0f, src.hi = 1.0f;
    } else {  // the half range moves with the values, from one stage's to the next's
        const float ea =
            finite_extent(a->value.slice(p.head).data(), static_cast<size_t>(a->value.dim(1)) * a->value.dim(2));
        const float eb =
            finite_extent(b->value.slice(p.head).data(), static_cast<size_t>(b->value.dim(1)) * b->value.dim(2));
        src.hi = same_shape ? ea + (eb - ea) * f.blend : finite_extent(p.shown.data(), n);
        src.lo = -src.hi;
    }
    TokenMatrix m;
    m.texture = ctx.heatmaps.texture(src);
    m.rows = rows, m.cols = cols;
    m.row_labels = &tokens.queries;
    m.col_labels = keyed ? &tokens.keys : nullptr;
    m.values = p.shown.data();
    m.label_max = 4.5f * ctx.em;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float bar_w = 8.0f * ctx.em, bar_room = bar_w + 2.0f * ctx.em;  // the colour bar, right of the matrix
    const auto fit = [&](float depth) {  // the largest cell that fits the width and the height left
        const float w = (avail.x - ImGui::CalcTextSize("M").x - m.label_max - bar_room) / static_cast<float>(cols);
        const float h = (avail.y - depth) / static_cast<float>(rows);
        return std::floor(std::clamp(std::min(w, h), 0.5f * ctx.em, 4.5f * ctx.em));
    };
    m.cell = fit(1.3f * ImGui::GetTextLineHeight());  // upright key labels, if the cells are wide enough for them
    if (keyed) m.cell = fit(token_matrix_size(m).y - rows * m.cell);  // the key labels there: turned are deeper
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    const ImVec2 size = token_matrix_size(m);
    draw_token_matrix(m);
    ImGui::SetCursorScreenPos(ImVec2(corner.x + size.x + 1.5f * ctx.em, corner.y + size.y - m.rows * m.cell));
    ImGui::BeginGroup();
    colorbar_widget(ctx.heatmaps.colorbar(src.colormap), weights ? 0.0f : src.lo, src.hi, bar_w,
                    weights ? ctx.t("attention weight") : nullptr);
    ImGui::EndGroup();
    ImGui::SetCursorScreenPos(ImVec2(corner.x, corner.y + size.y));
    return true;
}

}  // namespace attnlab::gui
