// Token chips ("token·id") for one input sequence, with a vocabulary picker to replace,
// remove or append a token, and a button that appends padding.
#pragma once

#include "panels/panel_context.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

struct TokenRow {
    const std::vector<int>& ids;             // (N,) the sequence as the stepper reads it
    const SequenceView& view;                // labels and <unk> marks, one per id
    const std::vector<std::string>* pieces;  // the user's words, when the ids came from the text
    const Vocab& vocab;
    std::optional<TokenSaliency> saliency = {};  // in the backward half: a bar under each chip, and its numbers
};

// Draws the chips; returns the new id list when the user edited it this frame.
std::optional<std::vector<int>> token_chips(PanelContext& ctx, const TokenRow& row);

// The height items of these sizes take when each goes on the current line if it fits in `width`, else on the next
// (as the chips and the tour card's buttons flow), with the spacing after the last line.
float flowed_height(const std::vector<ImVec2>& items, float width);

// The vocabulary picker's parts. The popup a chip opens at `at` (its "pick" popup), opaque over the card and
// views behind it; end it with ImGui::EndPopup when it returns true.
bool begin_chip_popup(ImVec2 at);
// The picker's search field, `width` wide and focused as its popup opens; empty each time the popup opens and
// kept while it stays open. True on Enter.
bool vocab_search_field(const char* hint, float width, std::string& query);
// The height of the list of `n_shown` matching tokens (rows of `row_h`), at least a row for "No match".
float vocab_list_height(size_t n_shown, float row_h, float em);

// The source's chips alone, labelled, for where the Input panel is hidden (the tour's card in
// classroom mode); edits apply as in the Input panel. Draws nothing for a model without a source.
void draw_source_token_strip(PanelContext& ctx);
// The height draw_source_token_strip takes in `width` pixels (without a refusal under it).
float source_token_strip_height(const PanelContext& ctx, float width);

}  // namespace attnlab::gui
