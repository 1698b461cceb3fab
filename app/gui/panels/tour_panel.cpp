#include "panels/tour_panel.h"

#include <string>

namespace attnlab::gui {

namespace {

const ImVec4 kDoneColor(0.35f, 0.85f, 0.45f, 1.0f);
const ImVec4 kTaskColor(1.0f, 0.78f, 0.16f, 1.0f);

}  // namespace

TourRequest draw_tour_panel(PanelContext& ctx, const TourRunner& tour) {
    TourRequest req;
    const TourChapter* c = tour.chapter();
    if (!c) return req;
    const Language lang = ctx.view.korean ? Language::korean : Language::english;
    const TourText& t = c->in(lang);
    const int n = static_cast<int>(tour.chapters().size());

    ImGui::TextDisabled("%s %d / %d  ·  §%s", ctx.t("Chapter"), tour.current() + 1, n, c->section.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::SetWindowFontScale(1.15f);
    ImGui::TextUnformatted(t.title.c_str());
    ImGui::SetWindowFontScale(1.0f);
    ImGui::Separator();
    ImGui::TextUnformatted(t.look.c_str());
    ImGui::Spacing();
    const bool done = tour.task_done(ctx.session, ctx.view);
    ImGui::TextColored(done ? kDoneColor : kTaskColor, "%s %s", done ? "✓" : "▶", ctx.t(done ? "Done" : "Your turn"));
    ImGui::TextUnformatted(t.task.c_str());
    if (done) ImGui::TextColored(kDoneColor, "%s", t.done.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();

    ImGui::BeginDisabled(tour.current() == 0);
    if (ImGui::Button(ctx.t("◀ Previous"))) req = {TourRequest::open, tour.current() - 1};
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(tour.current() + 1 >= n);
    if (ImGui::Button(ctx.t("Next ▶"))) req = {TourRequest::open, tour.current() + 1};
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(ctx.t("Slides"))) req.kind = TourRequest::export_slides;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Save this chapter's views as PNG slides in the working folder (E)"));
    ImGui::SameLine();
    if (ImGui::Button(ctx.t("End tour"))) req.kind = TourRequest::close;

    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "%s", ctx.t("PgUp/PgDn chapters · ←/→ steps · P predict, R reveal · F5 classroom · L language · T tour"));
    ImGui::PopTextWrapPos();
    return req;
}

}  // namespace attnlab::gui
