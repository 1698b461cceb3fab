// The Input view's text fields, which apply as they are typed, without ImGui: an edit the session
// refuses (a paste too long for max_len, ids that do not parse) stays in its field as a draft, with
// the reason, until it is fixed, while the views keep what last ran; and Escape never takes back
// what was applied. (Dear ImGui's Escape hands the field's text from when it was clicked back as an
// edit: that is ignored, and Escape only drops a draft.)
#pragma once

#include "session.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

enum class InputSide { source, target };

// Why an edit was not applied.
struct Refusal {
    enum class Kind { too_long, not_ids, other };
    Kind kind = Kind::other;
    int n_tokens = 0, max_len = 0;  // too_long: the edit's tokens and the model's limit
    std::string message;            // other: the session's one line
};

// A refused edit, kept in its field.
struct Draft {
    std::string text;  // what the user typed or pasted
    Refusal why;
    std::string applied;  // the field's applied text then; a change to it (an example, the tour) ends the draft
};

// One frame of a field: the text it reported as edited, if any, and whether Escape was pressed in it.
struct FieldInput {
    std::optional<std::string> edited;
    bool escape = false;
};

class InputDrafts {
public:
    // The text the field over `applied` shows: the side's draft while there is one, else `applied`.
    // A draft ends when `applied` has changed since it was made.
    std::string shown(InputSide side, const std::string& applied);
    const std::optional<Draft>& draft(InputSide side) const { return drafts_[index(side)]; }

    // A sentence field's frame: Escape drops the draft and applies nothing; an edit is applied as the
    // side's text, or becomes the side's draft with the session's reason (the session's error is then
    // cleared: the field says it).
    void sentence_frame(Session& session, InputSide side, const FieldInput& in);
    // The same for a model without a vocabulary, whose field holds token ids ("4,7,9,2").
    void ids_frame(Session& session, InputSide side, const FieldInput& in);
    // Drops the side's draft: another control (the token chips) applied an edit, and the field shows it.
    void clear(InputSide side) { drafts_[index(side)].reset(); }

private:
    static size_t index(InputSide side) { return side == InputSide::source ? 0 : 1; }
    void refuse(Session& session, InputSide side, const std::string& text, Refusal why, const std::string& applied);
    std::optional<Draft> drafts_[2];
};

// The applied text of a side, and its token ids as the ids field writes them ("4,7,9,2").
const std::string& applied_text(const Session& session, InputSide side);
const std::vector<int>& applied_ids(const Session& session, InputSide side);
std::string join_ids(const std::vector<int>& ids);
// "4, 7 9,2" -> {4, 7, 9, 2}; nullopt if anything else is in it.
std::optional<std::vector<int>> parse_ids(const std::string& text);

}  // namespace attnlab::gui
