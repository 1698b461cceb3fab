// The input view: the source and target sentences as text fields and as token chips
// (token·id) that can be replaced, removed, appended or padded, plus example sentences.
// A sentence applies as it is typed (a long input once typing pauses); one the session refuses (too long, …)
// stays in the field with its reason until it is fixed, and Escape never takes back what was applied. Under
// them, the corrupted input activation patching compares with (panels/corrupted_input_field.h).
#include "input_drafts.h"
#include "panels/corrupted_input_field.h"
#include "panels/input_fields.h"
#include "panels/input_tokens.h"
#include "panels/tour_target.h"
#include "translation_record.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace attnlab::gui {

namespace {

// One input sequence: the encoder's source (S,) or the decoder's target (T,).
struct Side {
    bool source;
    const char* label;   // "Source", "Target" or "Prompt"
    const char* letter;  // the shape letter: S or T
};

std::vector<Side> sides_of(const ModelConfig& c) {
    switch (c.arch) {
        case Arch::encoder_decoder: return {{true, tr_noop("Source"), "S"}, {false, tr_noop("Target"), "T"}};
        case Arch::encoder_only: return {{true, tr_noop("Source"), "S"}};
        case Arch::decoder_only: return {{false, tr_noop("Prompt"), "T"}};
    }
    return {};
}

InputSide side_of(const Side& side) { return side.source ? InputSide::source : InputSide::target; }

bool set_text(Session& s, const Side& side, const std::string& text) {
    return side.source ? s.set_src_text(text) : s.set_tgt_text(text);
}

template <class... Args>
std::string format(const char* format, Args... args) {
    const int n = std::snprintf(nullptr, 0, format, args...);
    std::string out(static_cast<size_t>(std::max(n, 0)), '\0');
    std::snprintf(out.data(), out.size() + 1, format, args...);
    return out;
}

// Why an edit was refused, in one line of the UI's language.
std::string reason_text(const PanelContext& ctx, const Refusal& why) {
    switch (why.kind) {
        case Refusal::Kind::too_long:
            return format(ctx.t("Too long: %d tokens, and this model reads at most %d. Not applied; Esc goes back to "
                                "the applied text."),
                          why.n_tokens, why.max_len);
        case Refusal::Kind::not_ids: return ctx.t("token ids are integers separated by commas, e.g. 4,7,9,2");
        case Refusal::Kind::other: break;
    }
    return format(ctx.t("Not applied: %s. Esc goes back to the applied text."), why.message.c_str());
}

// The panel's drafts, in the panel caches (so a new model starts without them).
InputDrafts& drafts(PanelContext& ctx) { return ctx.caches.get<InputDrafts>(); }

// A text field over `applied` (what the session runs), or over the side's draft while there is
// one, framed in red; what it reported this frame (an edit, submitted with EnterReturnsTrue; Escape).
FieldInput draft_field(PanelContext& ctx, const Side& side, ImGuiID field, const std::string& applied, const char* hint,
                       ImGuiInputTextFlags flags) {
    const bool escape = escape_in_field(field);  // before the field: Dear ImGui's revert is this frame's edit
    std::string text = drafts(ctx).shown(side_of(side), applied);
    const bool framed = drafts(ctx).draft(side_of(side)).has_value();
    if (framed) {
        ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(0.95f, 0.35f, 0.3f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.5f);
    }
    ImGui::SetNextItemWidth(-1.0f);
    const bool edited = ImGui::InputTextWithHint("##text", hint, &text, flags);
    const bool left = ImGui::IsItemDeactivated();  // Enter, or a click elsewhere
    if (framed) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor();
    }
    return {edited ? std::optional<std::string>(std::move(text)) : std::nullopt, escape, left, ImGui::GetTime()};
}

// The draft's reason, in red under its field.
void draft_reason(PanelContext& ctx, const Side& side) {
    const std::optional<Draft>& draft = drafts(ctx).draft(side_of(side));
    if (!draft) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", reason_text(ctx, draft->why).c_str());
    ImGui::PopStyleColor();
}

// The sentence, applied as it is typed (over a long input, when typing pauses); a refused one becomes the
// side's draft.
void sentence_field(PanelContext& ctx, const Side& side, ImGuiID field) {
    const std::string applied = applied_text(ctx.session, side_of(side));  // a copy: applying changes it
    const FieldInput in = draft_field(ctx, side, field, applied, ctx.t("Type a sentence"), 0);
    drafts(ctx).sentence_frame(ctx.session, side_of(side), in);
    if (drafts(ctx).waiting(side_of(side)))
        text_disabled_wrapped(ctx.t("A long input: it runs when you pause typing, or press Enter."));
    draft_reason(ctx, side);
}

std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

// A combo of assets/examples/sentences.txt, `width` wide, read while it is open; a pick becomes the first field's
// text.
void examples_combo(PanelContext& ctx, const Side& side, ImGuiID field, float width) {
    ImGui::SetNextItemWidth(width);
    if (!ImGui::BeginCombo("##examples", ctx.t("Examples"))) return;
    const auto lines = read_lines(ctx.paths.assets + "/examples/sentences.txt");
    for (const auto& line : lines)
        if (ImGui::Selectable(line.c_str(), line == applied_text(ctx.session, side_of(side))))
            note_command(field, set_text(ctx.session, side, line), ctx.session);
    if (lines.empty()) ImGui::TextDisabled("%s", ctx.t("none yet"));
    ImGui::EndCombo();
}

// The side's token chips; an edit applies at once. The source's chips are the tour's target when
// a chapter asks to change a source word.
void side_chips(PanelContext& ctx, const Side& side, ImGuiID field) {
    Session& session = ctx.session;
    const auto& vocab = side.source ? session.model().src_vocab : session.model().tgt_vocab;
    if (!vocab) return;
    // Read now: the text field may have changed the ids this frame.
    const SequenceView now = side.source ? session.source() : session.target();
    const TokenRow row{applied_ids(session, side_of(side)), now, now.pieces.empty() ? nullptr : &now.pieces, *vocab,
                       input_saliency(ctx, side.source ? Stack::encoder : Stack::decoder)};
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    const auto edited = token_chips(ctx, row);
    if (side.source) mark_tour_target(ctx, TourTaskKind::edit_source, top_left, ImGui::GetItemRectMax());
    if (!edited) return;
    const bool ok = side.source ? session.set_src_ids(*edited) : session.set_tgt_ids(*edited);
    if (ok) drafts(ctx).clear(side_of(side));  // the chips now say what runs
    note_command(field, ok, session);
}

// The first side's label line ends in the examples where they fit (else they take a line of their own), and the
// hint on the chips follows it: at the top, so a short panel never cuts it (it scrolls what is below).
void examples_and_hint(PanelContext& ctx, const Side& side, ImGuiID field) {
    const float width = 9.0f * ctx.em;
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x;
    if (room < width)
        ImGui::NewLine();
    else
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - width);
    examples_combo(ctx, side, field, width);
    text_disabled_wrapped(ctx.t("Click a token to change it; orange marks an unknown word."));
}

// Label line (for the first side with a vocabulary, the examples and the hint too), text field (applied as it is
// edited), its error, and the token chips.
void draw_side(PanelContext& ctx, const Side& side, bool first) {
    Session& session = ctx.session;
    ImGui::PushID(side.label);
    const ImGuiID field = ImGui::GetID("##text");
    const std::vector<int>& ids = applied_ids(session, side_of(side));
    const SequenceView view = side.source ? session.source() : session.target();
    const auto& vocab = side.source ? session.model().src_vocab : session.model().tgt_vocab;
    const bool from_text = !vocab || !view.pieces.empty();

    const bool examples = first && vocab;
    if (examples) ImGui::AlignTextToFramePadding();  // level with the examples' combo
    ImGui::TextUnformatted(ctx.t(side.label));
    ImGui::SameLine();
    ImGui::TextDisabled("%s = %d", side.letter, static_cast<int>(ids.size()));
    if (!from_text) {  // beside the count where it fits, else under it
        const bool translated =  // Translate made the target (and it is unchanged since): not by hand
            !side.source && target_origin(session, ctx.caches.get<TranslationRecord>()) == TargetOrigin::translated;
        const std::string note = std::string("· ") + ctx.t(translated ? "translated" : "tokens edited by hand");
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(note.c_str()).x) ImGui::NewLine();
        ImGui::TextDisabled("%s", note.c_str());
    }
    if (examples) examples_and_hint(ctx, side, field);
    if (!vocab) {  // a model without a vocabulary reads token ids, applied on Enter
        const FieldInput in = draft_field(ctx, side, field, join_ids(ids), ctx.t("Token ids, e.g. 4,7,9,2"),
                                          ImGuiInputTextFlags_EnterReturnsTrue);
        drafts(ctx).ids_frame(session, side_of(side), in);
        draft_reason(ctx, side);
        field_error(session, field);
        ImGui::TextDisabled("%s", ctx.t("This model has no vocabulary: type token ids."));
        ImGui::PopID();
        return;
    }
    sentence_field(ctx, side, field);
    field_error(session, field);  // an example's or a chip's refusal

    side_chips(ctx, side, field);
    ImGui::PopID();
}

}  // namespace

void draw_source_token_strip(PanelContext& ctx) {
    const auto sides = sides_of(ctx.config());
    if (sides.empty() || !sides.front().source) return;
    const Side& side = sides.front();
    ImGui::PushID(side.label);
    const ImGuiID field = ImGui::GetID("##text");
    ImGui::TextDisabled("%s  S = %d", ctx.t(side.label),
                        static_cast<int>(applied_ids(ctx.session, side_of(side)).size()));
    side_chips(ctx, side, field);
    field_error(ctx.session, field);
    ImGui::PopID();
}

void draw_input_panel(PanelContext& ctx) {
    const auto sides = sides_of(ctx.config());
    for (size_t i = 0; i < sides.size(); ++i) {
        draw_side(ctx, sides[i], i == 0);
        ImGui::Spacing();
    }
    ImGui::Separator();
    draw_corrupted_input(ctx);
}

}  // namespace attnlab::gui
