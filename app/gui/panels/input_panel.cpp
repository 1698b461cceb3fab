// The input view: the source and target sentences as text fields and as token chips
// (token·id) that can be replaced, removed, appended or padded, plus example sentences.
#include "panels/input_fields.h"
#include "panels/input_tokens.h"

#include <imgui_stdlib.h>

#include <charconv>
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
    if (!from_text) {
        ImGui::SameLine();
        ImGui::TextDisabled("· %s", ctx.t("tokens edited by hand"));
    }
    if (!vocab) {  // a model without a vocabulary reads token ids, applied on Enter
        std::string ids_text = join_ids(ids);
        ImGui::SetNextItemWidth(-1.0f);
        if (ImGui::InputTextWithHint("##text", ctx.t("Token ids, e.g. 4,7,9,2"), &ids_text,
                                     ImGuiInputTextFlags_EnterReturnsTrue)) {
            const auto parsed = parse_ids(ids_text);
            const bool ok = !parsed ? session.reject(ctx.t("token ids are integers separated by commas, e.g. 4,7,9,2"))
                            : side.source ? session.set_src_ids(*parsed)
                                          : session.set_tgt_ids(*parsed);
            note_command(field, ok, session);
        }
        field_error(session, field);
        ImGui::TextDisabled("%s", ctx.t("This model has no vocabulary: type token ids."));
        ImGui::PopID();
        return;
    }
    std::string text = text_of(session, side);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::InputTextWithHint("##text", ctx.t("Type a sentence"), &text))
        note_command(field, set_text(session, side, text), session);
    field_error(session, field);

    {
        // Read again: the text field above may have changed the ids this frame.
        const SequenceView now = side.source ? session.source() : session.target();
        const TokenRow row{ids, now, now.pieces.empty() ? nullptr : &now.pieces, *vocab};
        if (auto edited = token_chips(ctx, row))
            note_command(field, side.source ? session.set_src_ids(*edited) : session.set_tgt_ids(*edited), session);
    }
    ImGui::PopID();
}

}  // namespace

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
    ImGui::TextDisabled("%s", ctx.t("Click a token to change it; orange marks an unknown word."));
}

}  // namespace attnlab::gui
