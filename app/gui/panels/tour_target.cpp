#include "panels/tour_target.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

void mark_tour_target(PanelContext& ctx, TourTaskKind kind, ImVec2 min, ImVec2 max) {
    TourTargetProbe& p = ctx.caches.get<TourTargetProbe>();
    if (p.wanted != kind) return;
    // The window's visible part: its clip rectangle, already cut by every parent window.
    const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin(),
                 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    constexpr float kSlack = 1.0f;  // a border pixel on the clip edge still shows the widget
    const bool inside = min.x >= clip_min.x - kSlack && min.y >= clip_min.y - kSlack && max.x <= clip_max.x + kSlack &&
                        max.y <= clip_max.y + kSlack;
    if (!p.seen) {
        p.min = min;
        p.max = max;
        p.visible = inside;
    } else {
        p.min = ImVec2(std::min(p.min.x, min.x), std::min(p.min.y, min.y));
        p.max = ImVec2(std::max(p.max.x, max.x), std::max(p.max.y, max.y));
        p.visible = p.visible && inside;
    }
    p.seen = true;
}

void mark_tour_target(PanelContext& ctx, TourTaskKind kind) {
    mark_tour_target(ctx, kind, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void mark_tour_section(PanelContext& ctx, TourTaskKind kind) {
    TourTargetProbe& p = ctx.caches.get<TourTargetProbe>();
    if (p.wanted == kind && !p.section_top) p.section_top = ImGui::GetCursorScreenPos().y;
}

float scroll_y_to_section(const TourTargetProbe& p, float scroll_y, float visible_top, float visible_bottom,
                          float gap) {
    const bool section_fits = p.section_top && p.max.y - *p.section_top + gap <= visible_bottom - visible_top;
    const float top = section_fits ? *p.section_top : p.min.y;
    return scroll_y + top - gap - visible_top;
}

std::string tour_target_problem(const TourTargetProbe& p, ImVec2 screen, TourTaskKind kind) {
    if (!p.task_shown) return "the card's task is cut off";
    const std::string what = tour_target_name(kind);
    if (!p.seen) return "not drawn: " + what;
    char rect[96];
    std::snprintf(rect, sizeof rect, "(%.0f,%.0f)-(%.0f,%.0f)", p.min.x, p.min.y, p.max.x, p.max.y);
    const bool on_screen = p.min.x >= 0.0f && p.min.y >= 0.0f && p.max.x <= screen.x && p.max.y <= screen.y;
    if (!p.visible || !on_screen) return "not fully on screen: " + what + " at " + rect;
    return "";
}

const char* tour_target_name(TourTaskKind kind) {
    switch (kind) {
        case TourTaskKind::step_past: return "the step-forward button";
        case TourTaskKind::edit_source: return "the source token chips";
        case TourTaskKind::toggle_mask_cell: return "the mask to click";
        case TourTaskKind::ablate_head: return "the grid of heads";
        case TourTaskKind::change_temperature: return "the temperature slider";
        case TourTaskKind::change_pe_dims: return "the dimension sliders";
        case TourTaskKind::change_experiment_keys: return "the slider of n";
        case TourTaskKind::change_rope_rows: return "the query and key sliders";
        case TourTaskKind::switch_norm_placement: return "the norm placement switch";
    }
    return "";
}

}  // namespace attnlab::gui
