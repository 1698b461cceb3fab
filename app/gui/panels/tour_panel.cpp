// The tour's card, laid out so that the task never scrolls away: the chapter line and title at the
// top, what to look at in a box that scrolls when the card is short, and the task (with its done
// note, the token chips it needs in classroom mode, and the buttons) right under it, its height
// measured the frame before. In classroom mode the card is as wide as it must be for none of it to scroll.
#include "panels/tour_panel.h"

#include "output_prediction.h"
#include "panels/input_tokens.h"
#include "panels/tour_chapter_line.h"
#include "panels/tour_target.h"
#include "panels/word_wrap.h"
#include "slide_export.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

const ImVec4 kDoneColor(0.35f, 0.85f, 0.45f, 1.0f);
const ImVec4 kTaskColor(1.0f, 0.78f, 0.16f, 1.0f);
const ImVec4 kNoteColor(0.55f, 0.78f, 1.0f, 1.0f);  // which model the chapter runs on
constexpr float kTitleScale = 1.15f;                // the chapter's title, a little larger than the text

// The height of the card's pinned bottom part as last drawn (its chips and done note come and go).
struct TourCardLayout {
    float bottom_h = 0.0f;
};

// A button on this line if it fits, else on the next: the card's buttons never run off its edge.
bool flow_button(const char* label, bool first) {
    const float w = ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (!first && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    return ImGui::Button(label);
}

// The card's buttons, in the order draw_task draws them: previous and next chapter, slides, end of the tour.
std::array<const char*, 4> card_buttons(const PanelContext& ctx) {
    return {ctx.t("◀ Previous"), ctx.t("Next ▶"), ctx.t("Slides"), ctx.t("End tour")};
}

// The card's texts break at spaces only, as text_wrapped_at_spaces draws them: ImGui's own wrapping also breaks
// after '.' and ',' ("Su et al." / ", 2021)", "91." / "6%"), and across a no-break space.
std::string card_lines(const std::string& text, float width) {
    return wrap_at_spaces(text, width,
                          [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; });
}

// The height of `text` wrapped at `width` pixels at `scale` times the font size, and the spacing after it.
float wrapped_height(const std::string& text, float width, float scale = 1.0f) {
    return scale * ImGui::CalcTextSize(card_lines(text, width / scale).c_str()).y + ImGui::GetStyle().ItemSpacing.y;
}

// text_wrapped_at_spaces in `color`.
void colored_text_at_spaces(const ImVec4& color, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    text_wrapped_at_spaces(text.c_str());
    ImGui::PopStyleColor();
}

const TourText& chapter_text(const PanelContext& ctx, const TourChapter& c) {
    return c.in(ctx.view.settings.korean ? Language::korean : Language::english);
}

// The line over the title: the chapter's number, its part and place in it (if any), and the paper's section.
std::string chapter_line(const PanelContext& ctx, const TourRunner& tour, const TourChapter& c) {
    ChapterPlace place;
    place.chapter_word = ctx.t("Chapter");
    place.chapter = tour.current() + 1, place.n_chapters = static_cast<int>(tour.chapters().size());
    if (!c.part.empty()) {
        place.part_title = c.part_title_in(ctx.view.settings.korean ? Language::korean : Language::english);
        place.part_index = c.part_index + 1, place.part_size = c.part_size;
    }
    place.section = c.section;
    return tour_chapter_line(place);
}

// The chapter line wrapped at `width`, as the card draws it.
std::string chapter_line_lines(const PanelContext& ctx, const TourRunner& tour, const TourChapter& c, float width) {
    return card_lines(chapter_line(ctx, tour, c), width);
}

// What the model lacks, as the note names it.
const char* need_label(const PanelContext& ctx, TourNeed need) {
    switch (need) {
        case TourNeed::decoder_only: return ctx.t("a decoder-only stack");
        case TourNeed::pre_norm: return ctx.t("pre-norm sublayers");
        case TourNeed::rms_norm: return ctx.t("RMSNorm");
        case TourNeed::rotary: return ctx.t("rotary positions (RoPE)");
        case TourNeed::gated_ffn: return ctx.t("a gated FFN (SwiGLU)");
        case TourNeed::grouped_query: return ctx.t("grouped-query attention");
        case TourNeed::translator: return ctx.t("an encoder and a decoder");
    }
    return "";
}

// For a chapter that needs a kind of model: which model it runs on, and how to run it on a trained one (in full
// on the part's first chapter and when the learner's model lacked a need; else one line, the rest in `how`).
// Empty for the other chapters.
std::string model_note(const PanelContext& ctx, const TourRunner& tour, const TourChapter& c,
                       std::string* how = nullptr) {
    if (c.needs.empty()) return "";
    const TourModelChoice& choice = tour.model_choice();
    if (choice.kept) {
        std::string note =
            std::string(ctx.t("On the model you opened:")) + " " + model_display_name(ctx.session.model_name()) + ".";
        if (choice.input == TourModelChoice::Input::typed_ids) {
            char line[256];
            std::snprintf(line, sizeof line,
                          ctx.t("It has no tokenizer, so the tour typed %d token ids as its input; type your own in "
                                "the Input view."),
                          choice.n_typed_ids);
            note += std::string(" ") + line;
        } else if (choice.input == TourModelChoice::Input::translated) {
            note += " ";
            note += ctx.t(
                "Its target was only the start token, so the tour translated the source: the cross-attention has a "
                "row for each target token.");
        }
        return note;
    }
    if (c.model != kLlamaTinyModel)  // a paper chapter that a trained translator the learner opens would run on
        return ctx.t(
            "On the bundled English → Korean model. To see a real translation's alignment, open a Marian folder "
            "(Helsinki-NLP's opus-mt: drop it on the window), then this chapter again.");
    const std::string full = ctx.t(
        "This runs on a small random Llama-template model, untrained: look at its shapes and steps, "
        "not its predictions. For a trained one, open a Llama, Mistral or Qwen folder (drop it on the "
        "window, or Open in the Model view), then this chapter again.");
    if (choice.missing) {
        char line[256];
        std::snprintf(line, sizeof line, ctx.t("The model you had open has no %s."), need_label(ctx, *choice.missing));
        return std::string(line) + " " + full;
    }
    if (c.part_index == 0) return full;
    if (how) *how = full;
    return ctx.t("On the tour's random Llama-template model, untrained (hover: how to use a trained one).");
}

// What switching a head off did to the Output view's first prediction, against the chapter's setup:
// "The prediction after "를": 원해 91.6% → 23.3%", and the token that leads now when another does.
std::string head_off_text(const PanelContext& ctx, const PredictionChange& change) {
    const std::optional<Vocab>& vocab = output_vocab(ctx);
    const SequenceView seq = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    const std::string last = seq.labels.empty() ? "" : seq.labels.back();
    char line[512];
    std::snprintf(line, sizeof line, ctx.t("The prediction after \"%s\": %s %s → %s"), last.c_str(),
                  token_or_id(vocab, change.token).c_str(), percent_text(change.before).c_str(),
                  percent_text(change.after).c_str());
    std::string text = line;
    if (change.leader != change.token) {
        std::snprintf(line, sizeof line, ctx.t("; now %s leads with %s"), token_or_id(vocab, change.leader).c_str(),
                      percent_text(change.leader_p).c_str());
        text += line;
    }
    return text;
}

// The height draw_task takes in classroom mode at `width`, its done note counted whether done yet or not (so the
// card keeps its size when the task is done).
float classroom_task_height(const PanelContext& ctx, const TourChapter& c, const TourText& t, float width) {
    float h = ImGui::GetTextLineHeightWithSpacing() + wrapped_height(t.task, width) + wrapped_height(t.done, width);
    if (c.task == TourTaskKind::edit_source) h += source_token_strip_height(ctx, width);
    if (c.task == TourTaskKind::ablate_head || c.task == TourTaskKind::ablate_strongest_head) h += 2.0f * ImGui::GetTextLineHeightWithSpacing();  // head_off_text
    h += ImGui::GetStyle().ItemSpacing.y;                                                        // Spacing()
    std::vector<ImVec2> buttons;
    for (const char* label : card_buttons(ctx)) buttons.emplace_back(button_width_for(label), ImGui::GetFrameHeight());
    return h + flowed_height(buttons, width);
}

// The height the card's content takes in classroom mode at `width`, every part whole: the chapter line, the
// title, the separator, what to look at (in its box) and the task.
float classroom_card_height(const PanelContext& ctx, const TourRunner& tour, const TourChapter& c, const TourText& t,
                            float width) {
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const std::string note = model_note(ctx, tour, c);
    return wrapped_height(chapter_line_lines(ctx, tour, c, width), width) +
           wrapped_height(t.title, width, kTitleScale) + (note.empty() ? 0.0f : wrapped_height(note, width)) + spacing +
           wrapped_height(t.look, width) + spacing + classroom_task_height(ctx, c, t, width);
}

// The task, whether it is done, what it needs (the source chips when the Input panel is hidden), the buttons.
TourRequest draw_task(PanelContext& ctx, const TourRunner& tour, const TourChapter& c, const TourText& t) {
    TourRequest req;
    const int n = static_cast<int>(tour.chapters().size());
    const bool done = tour.task_done(ctx.session, ctx.view);
    ImGui::TextColored(done ? kDoneColor : kTaskColor, "%s %s", done ? "✓" : "▶", ctx.t(done ? "Done" : "Your turn"));
    ImGui::PushTextWrapPos(0.0f);
    text_wrapped_at_spaces(t.task.c_str());
    {
        const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin(),
                     clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
        ctx.caches.get<TourTargetProbe>().task_shown =
            ImGui::GetItemRectMin().y >= clip_min.y - 1.0f && ImGui::GetItemRectMax().y <= clip_max.y + 1.0f;
    }
    if (done) colored_text_at_spaces(kDoneColor, t.done);
    if (const auto change = tour.head_off_change(ctx.session))
        colored_text_at_spaces(kDoneColor, head_off_text(ctx, *change));
    ImGui::PopTextWrapPos();
    if (ctx.view.settings.classroom && c.task == TourTaskKind::edit_source) draw_source_token_strip(ctx);
    ImGui::Spacing();

    const auto [previous, next, slides, end] = card_buttons(ctx);
    ImGui::BeginDisabled(tour.current() == 0);
    if (flow_button(previous, true)) req = {TourRequest::open, tour.current() - 1};
    ImGui::EndDisabled();
    ImGui::BeginDisabled(tour.current() + 1 >= n);
    if (flow_button(next, false)) req = {TourRequest::open, tour.current() + 1};
    ImGui::EndDisabled();
    if (flow_button(slides, false)) req.kind = TourRequest::export_slides;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s %s (E)", ctx.t("Save this chapter's views as 1920×1080 slides (PNG) in"),
                          default_slides_dir().c_str());
    if (flow_button(end, false)) req.kind = TourRequest::close;
    const char* keys =
        ctx.t("PgUp/PgDn chapters · ←/→ steps · P predict, R reveal · F5 classroom · L language · T tour");
    // The class needs the task, not the keys: in classroom mode or on a short card they are one hover away.
    if (ctx.view.settings.classroom || ImGui::GetWindowHeight() < 22.0f * ImGui::GetTextLineHeightWithSpacing()) {
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", keys);
    } else {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", keys);
        ImGui::PopTextWrapPos();
    }
    return req;
}

}  // namespace

TourRequest draw_tour_panel(PanelContext& ctx, const TourRunner& tour) {
    const TourChapter* c = tour.chapter();
    if (!c) return {};
    const TourText& t = chapter_text(ctx, *c);

    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", chapter_line_lines(ctx, tour, *c, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::SetWindowFontScale(kTitleScale);
    text_wrapped_at_spaces(t.title.c_str());
    ImGui::SetWindowFontScale(1.0f);
    std::string how;
    if (const std::string note = model_note(ctx, tour, *c, &how); !note.empty()) {
        colored_text_at_spaces(kNoteColor, note);
        if (!how.empty() && ImGui::IsItemHovered()) {  // wrapped: one line of it would be wider than the window
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(24.0f * ctx.em);
            ImGui::TextUnformatted(how.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    ImGui::PopTextWrapPos();
    ImGui::Separator();

    // What to look at: as tall as its text, at most what the pinned task leaves (then it scrolls),
    // and at least two lines; the task follows it.
    TourCardLayout& layout = ctx.caches.get<TourCardLayout>();
    if (layout.bottom_h <= 0.0f)  // not drawn yet (a new chapter, a new model): the task's text and three lines more
        layout.bottom_h = ImGui::CalcTextSize(t.task.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y +
                          3.0f * ImGui::GetFrameHeightWithSpacing();
    const float text_h = wrapped_height(t.look, ImGui::GetContentRegionAvail().x);
    const float space = ImGui::GetContentRegionAvail().y - layout.bottom_h;
    const float room = text_h <= space ? text_h  // all of it; else whole lines: no half line cut at the box's edge
                                       : std::floor(space / ImGui::GetFontSize()) * ImGui::GetFontSize();
    const float look_h = std::max(2.0f * ImGui::GetFontSize(), room);
    ImGui::BeginChild("look", ImVec2(0, look_h), false);
    text_wrapped_at_spaces(t.look.c_str());
    ImGui::EndChild();

    const float top = ImGui::GetCursorPosY();
    const TourRequest req = draw_task(ctx, tour, *c, t);
    layout.bottom_h = ImGui::GetCursorPosY() - top;
    return req;
}

float classroom_tour_card_width(const PanelContext& ctx, const TourRunner& tour, float window_w, float card_h) {
    const float em = ctx.em;
    const float narrowest = std::min({30.0f * em, std::max(window_w * 0.32f, 16.0f * em), window_w * 0.45f});
    const TourChapter* c = tour.chapter();
    if (!c) return narrowest;
    const TourText& t = chapter_text(ctx, *c);
    const ImVec2 padding = ImGui::GetStyle().WindowPadding;
    const float room = card_h - ImGui::GetFrameHeight() - 2.0f * padding.y;  // under the card's title bar
    const float widest = std::max(narrowest, 0.5f * window_w);
    float w = narrowest;
    while (w < widest && classroom_card_height(ctx, tour, *c, t, w - 2.0f * padding.x) > room)
        w = std::min(widest, w + 0.5f * em);
    return std::floor(w);
}

}  // namespace attnlab::gui
