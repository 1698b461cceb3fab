// Input drafts: what a text field shows, and what one frame's edit or Escape does to the session.
#include "input_drafts.h"

#include <charconv>

namespace attnlab::gui {

namespace {

bool set_text(Session& s, InputSide side, const std::string& text) {
    return side == InputSide::source ? s.set_src_text(text) : s.set_tgt_text(text);
}

bool set_ids(Session& s, InputSide side, std::vector<int> ids) {
    return side == InputSide::source ? s.set_src_ids(std::move(ids)) : s.set_tgt_ids(std::move(ids));
}

// Why the session refused `n_tokens` tokens: too many for the model, or the session's own reason.
Refusal refusal_of(const Session& s, int n_tokens) {
    const int max_len = s.stepper().config().max_len;
    if (n_tokens > max_len) return {Refusal::Kind::too_long, n_tokens, max_len, ""};
    return {Refusal::Kind::other, n_tokens, max_len, s.error()};
}

int token_count(const Session& s, InputSide side, const std::string& text) {
    const auto tokens =
        side == InputSide::source ? encode_source_text(s.model(), text) : encode_target_text(s.model(), text);
    return tokens ? static_cast<int>(tokens->ids.size()) : 0;
}

}  // namespace

std::string InputDrafts::shown(InputSide side, const std::string& applied) {
    std::optional<Draft>& d = drafts_[index(side)];
    if (d && d->applied != applied) d.reset();
    return d ? d->text : applied;
}

void InputDrafts::refuse(Session& session, InputSide side, const std::string& text, Refusal why,
                         const std::string& applied) {
    drafts_[index(side)] = Draft{text, std::move(why), applied};
    session.clear_error();
}

void InputDrafts::sentence_frame(Session& session, InputSide side, const FieldInput& in) {
    if (in.escape) return clear(side);
    if (!in.edited) return;
    const std::string applied = applied_text(session, side);  // a copy: applying changes it
    if (set_text(session, side, *in.edited))
        clear(side);
    else
        refuse(session, side, *in.edited, refusal_of(session, token_count(session, side, *in.edited)), applied);
}

void InputDrafts::ids_frame(Session& session, InputSide side, const FieldInput& in) {
    if (in.escape) return clear(side);
    if (!in.edited) return;
    const std::string applied = join_ids(applied_ids(session, side));
    const auto parsed = parse_ids(*in.edited);
    if (!parsed)
        refuse(session, side, *in.edited, {Refusal::Kind::not_ids, 0, 0, ""}, applied);
    else if (set_ids(session, side, *parsed))
        clear(side);
    else
        refuse(session, side, *in.edited, refusal_of(session, static_cast<int>(parsed->size())), applied);
}

const std::string& applied_text(const Session& s, InputSide side) {
    return side == InputSide::source ? s.src_text() : s.tgt_text();
}

const std::vector<int>& applied_ids(const Session& s, InputSide side) {
    return side == InputSide::source ? s.stepper().inputs().src_ids : s.stepper().inputs().tgt_ids;
}

std::string join_ids(const std::vector<int>& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
}

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

}  // namespace attnlab::gui
