// The input view: the source and target sentences as text fields and as token chips
// (token·id) that can be replaced, removed, appended or padded, plus example sentences.
// A sentence applies as it is typed; one the session refuses (too long, …) stays in the field
// with its reason until it is fixed, and Escape never takes back what was applied.
#include "panels/input_fields.h"
#include "panels/input_tokens.h"
#include "panels/tour_target.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>

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

const std::string& text_of(const Session& s, const Side& side) { return side.source ? s.src_text() : s.tgt_text(); }

const std::vector<int>& ids_of(const Session& s, const Side& side) {
    return side.source ? s.stepper().inputs().src_ids : s.stepper().inputs().tgt_ids;
}

bool set_text(Session& s, const Side& side, const std::string& text) {
    return side.source ? s.set_src_text(text) : s.set_tgt_text(text);
}

// An edit the session refused (a sentence too long, ids that do not parse, …). It is never
// applied, so the views keep what was, but it stays in its field, with the reason, until the user
// fixes it or presses Escape.
struct Draft {
    std::string text;
    std::string reason;   // one line, in the UI's language
    std::string applied;  // the field's applied text then; a change to it (an example, the tour) ends the draft
};

// The panel's drafts, one per side, in the panel caches (so a new model starts without them).
struct InputDrafts {
    std::optional<Draft> side[2];
};

std::optional<Draft>& draft_of(PanelContext& ctx, const Side& side) {
    return ctx.caches.get<InputDrafts>().side[side.source ? 0 : 1];
}

template <class... Args>
std::string format(const char* format, Args... args) {
    const int n = std::snprintf(nullptr, 0, format, args...);
    std::string out(static_cast<size_t>(std::max(n, 0)), '\0');
    std::snprintf(out.data(), out.size() + 1, format, args...);
    return out;
}

// Why a sequence of `n` tokens was refused: too long (the usual case, a paste), or the session's reason.
std::string refusal(const PanelContext& ctx, int n_tokens) {
    const int max_len = ctx.config().max_len;
    if (n_tokens > max_len)
        return format(ctx.t("Too long: %d tokens, and this model reads at most %d. Not applied; Esc goes back to "
                            "the applied text."),
                      n_tokens, max_len);
    return format(ctx.t("Not applied: %s. Esc goes back to the applied text."), ctx.session.error().c_str());
}

// Keeps `text` in its field as the side's draft; the reason shows under the field, so the
// session's copy of the error is cleared (the Output view would show it too).
void refuse(PanelContext& ctx, const Side& side, std::string text, std::string reason, std::string applied) {
    draft_of(ctx, side) = Draft{std::move(text), std::move(reason), std::move(applied)};
    ctx.session.clear_error();
}

// A text field over `applied` (what the session runs), or over the side's draft while there is
// one, framed in red. Returns the text to apply when it was edited (submitted, with
// EnterReturnsTrue). Escape leaves the field, drops a draft, and returns nothing: Dear ImGui's
// Escape puts back the text the field had when it was clicked, which for a field that applies as
// it is typed would take back a sentence the views have already run.
std::optional<std::string> draft_field(PanelContext& ctx, const Side& side, ImGuiID field, const std::string& applied,
                                       const char* hint, ImGuiInputTextFlags flags) {
    std::optional<Draft>& draft = draft_of(ctx, side);
    if (draft && draft->applied != applied) draft.reset();
    const bool escape = escape_in_field(field);
    const bool framed = draft.has_value();
    std::string text = framed ? draft->text : applied;
    if (framed) {
        ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(0.95f, 0.35f, 0.3f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.5f);
    }
    ImGui::SetNextItemWidth(-1.0f);
    const bool edited = ImGui::InputTextWithHint("##text", hint, &text, flags);
    if (framed) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor();
    }
    if (escape) {
        draft.reset();
        return std::nullopt;
    }
    return edited ? std::optional<std::string>(std::move(text)) : std::nullopt;
}

// The draft's reason, in red under its field.
void draft_reason(PanelContext& ctx, const Side& side) {
    const std::optional<Draft>& draft = draft_of(ctx, side);
    if (!draft) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", draft->reason.c_str());
    ImGui::PopStyleColor();
}

// The sentence, applied as it is typed; a refused one becomes the side's draft.
void sentence_field(PanelContext& ctx, const Side& side, ImGuiID field) {
    Session& session = ctx.session;
    const std::string applied = text_of(session, side);  // a copy: applying changes it
    if (auto text = draft_field(ctx, side, field, applied, ctx.t("Type a sentence"), 0)) {
        if (set_text(session, side, *text)) {
            draft_of(ctx, side).reset();
        } else {
            const Model& model = session.model();
            const auto tokens = side.source ? encode_source_text(model, *text) : encode_target_text(model, *text);
            refuse(ctx, side, *text, refusal(ctx, tokens ? static_cast<int>(tokens->ids.size()) : 0), applied);
        }
    }
    draft_reason(ctx, side);
}

std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

std::string join_ids(const std::vector<int>& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
}

// "4, 7 9,2" -> {4, 7, 9, 2}; nullopt if anything else is in it.
std::optional<std::vector<int>> parse_ids(const std::string& text) {
    std::vector<int> ids;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        if (*p == ',' || *p == ' ') {
            ++p;
            continue;
        }
        int v = 0;
        auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc()) return std::nullopt;
        ids.push_back(v);
        p = next;
    }
    return ids;
}

// A combo of assets/examples/sentences.txt, read while it is open; a pick becomes the first field's text.
void examples_combo(PanelContext& ctx, const Side& side, ImGuiID field) {
    ImGui::SetNextItemWidth(-1.0f);
    if (!ImGui::BeginCombo("##examples", ctx.t("Examples"))) return;
    const auto lines = read_lines(ctx.paths.assets + "/examples/sentences.txt");
    for (const auto& line : lines)
        if (ImGui::Selectable(line.c_str(), line == text_of(ctx.session, side)))
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
    const TokenRow row{ids_of(session, side), now, now.pieces.empty() ? nullptr : &now.pieces, *vocab};
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    const auto edited = token_chips(ctx, row);
    if (side.source) mark_tour_target(ctx, TourTaskKind::edit_source, top_left, ImGui::GetItemRectMax());
    if (!edited) return;
    const bool ok = side.source ? session.set_src_ids(*edited) : session.set_tgt_ids(*edited);
    if (ok) draft_of(ctx, side).reset();  // the chips now say what runs
    note_command(field, ok, session);
}

// Label line, text field (applied as it is edited), its error, and the token chips.
void draw_side(PanelContext& ctx, const Side& side) {
    Session& session = ctx.session;
    ImGui::PushID(side.label);
    const ImGuiID field = ImGui::GetID("##text");
    const std::vector<int>& ids = ids_of(session, side);
    const SequenceView view = side.source ? session.source() : session.target();
    const auto& vocab = side.source ? session.model().src_vocab : session.model().tgt_vocab;
    const bool from_text = !vocab || !view.pieces.empty();

    ImGui::TextUnformatted(ctx.t(side.label));
    ImGui::SameLine();
    ImGui::TextDisabled("%s = %d", side.letter, static_cast<int>(ids.size()));
    if (!from_text) {  // beside the count where it fits, else under it
        const std::string note = std::string("· ") + ctx.t("tokens edited by hand");
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(note.c_str()).x) ImGui::NewLine();
        ImGui::TextDisabled("%s", note.c_str());
    }
    if (!vocab) {  // a model without a vocabulary reads token ids, applied on Enter
        const std::string applied = join_ids(ids);
        if (auto typed = draft_field(ctx, side, field, applied, ctx.t("Token ids, e.g. 4,7,9,2"),
                                     ImGuiInputTextFlags_EnterReturnsTrue)) {
            const auto parsed = parse_ids(*typed);
            if (parsed && (side.source ? session.set_src_ids(*parsed) : session.set_tgt_ids(*parsed)))
                draft_of(ctx, side).reset();
            else if (!parsed)
                refuse(ctx, side, *typed, ctx.t("token ids are integers separated by commas, e.g. 4,7,9,2"), applied);
            else
                refuse(ctx, side, *typed, refusal(ctx, static_cast<int>(parsed->size())), applied);
        }
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
    ImGui::TextDisabled("%s  S = %d", ctx.t(side.label), static_cast<int>(ids_of(ctx.session, side).size()));
    side_chips(ctx, side, field);
    field_error(ctx.session, field);
    ImGui::PopID();
}

void draw_input_panel(PanelContext& ctx) {
    const auto sides = sides_of(ctx.config());
    for (const Side& side : sides) {
        draw_side(ctx, side);
        ImGui::Spacing();
    }
    if (sides.empty()) return;
    ImGui::PushID(sides.front().label);
    const ImGuiID first_field = ImGui::GetID("##text");
    ImGui::PopID();
    const Session& session = ctx.session;
    if (!(sides.front().source ? session.model().src_vocab : session.model().tgt_vocab)) return;  // ids only
    examples_combo(ctx, sides.front(), first_field);
    text_disabled_wrapped(ctx.t("Click a token to change it; orange marks an unknown word."));
}

}  // namespace attnlab::gui
