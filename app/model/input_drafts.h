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

// One frame of a field: the text it reported as edited, if any, whether Escape was pressed in it, whether
// it was left (Enter, or a click elsewhere), and the app's clock then.
struct FieldInput {
    std::optional<std::string> edited;
    bool escape = false;
    bool left = false;
    double now_seconds = 0.0;
};

// When a sentence field applies what is typed. A re-run whose work (the model's parameters times the tokens
// it reads) is under `long_work` applies with each letter; a longer one (GPT-2 small over a long prompt
// re-runs for seconds) waits until typing pauses for `pause_seconds`, Enter, or the field is left, so a
// word typed costs one re-run, not one per letter.
struct EditPacing {
    double long_work = 1e10;  // GPT-2 small (124M parameters) from about 80 tokens
    double pause_seconds = 0.6;
};

// Whether an edit of a model with `config` over `n_tokens` tokens (both sides) waits for a pause in typing.
bool edit_waits_for_pause(const EditPacing& pacing, const ModelConfig& config, int n_tokens);

class InputDrafts {
public:
    explicit InputDrafts(EditPacing pacing = {}) : pacing_(pacing) {}

    // The text the field over `applied` shows: the side's draft while there is one, else `applied`.
    // A draft ends when `applied` has changed since it was made.
    std::string shown(InputSide side, const std::string& applied);
    const std::optional<Draft>& draft(InputSide side) const { return drafts_[index(side)]; }
    // Whether the side's field holds typing that has not been applied yet (it waits for a pause).
    bool waiting(InputSide side) const { return waiting_[index(side)].has_value(); }

    // A sentence field's frame: Escape drops the draft and the waiting typing and applies nothing; an edit is
    // applied as the side's text (when the pacing lets it, else once typing pauses or the field is left), or
    // becomes the side's draft with the session's reason (the session's error is then cleared: the field says it).
    void sentence_frame(Session& session, InputSide side, const FieldInput& in);
    // The same for a model without a vocabulary, whose field holds token ids ("4,7,9,2").
    void ids_frame(Session& session, InputSide side, const FieldInput& in);
    // Drops the side's draft and waiting typing: another control (the token chips) applied an edit, and the
    // field shows it.
    void clear(InputSide side) {
        drafts_[index(side)].reset();
        waiting_[index(side)].reset();
    }

private:
    static size_t index(InputSide side) { return side == InputSide::source ? 0 : 1; }
    // Typing not applied yet: its text, when its last letter came, and the applied text then (a change to it
    // from elsewhere ends the wait, as it ends a draft).
    struct Waiting {
        std::string text;
        double typed_at = 0.0;
        std::string applied;
    };
    void apply_sentence(Session& session, InputSide side, const std::string& text);
    void refuse(Session& session, InputSide side, const std::string& text, Refusal why, const std::string& applied);
    EditPacing pacing_;
    std::optional<Draft> drafts_[2];
    std::optional<Waiting> waiting_[2];
};

// The applied text of a side, and its token ids as the ids field writes them ("4,7,9,2").
const std::string& applied_text(const Session& session, InputSide side);
const std::vector<int>& applied_ids(const Session& session, InputSide side);
std::string join_ids(const std::vector<int>& ids);
// "4, 7 9,2" -> {4, 7, 9, 2}; nullopt if anything else is in it.
std::optional<std::vector<int>> parse_ids(const std::string& text);

}  // namespace attnlab::gui
