// Input drafts: what a text field shows, and what one frame's edit or Escape does to the session.
#include "input_drafts.h"

#include "weights.h"

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

bool edit_waits_for_pause(const EditPacing& pacing, const ModelConfig& config, int n_tokens) {
    return static_cast<double>(parameter_count(config)) * n_tokens >= pacing.long_work;
}

std::string InputDrafts::shown(InputSide side, const std::string& applied) {
    std::optional<Waiting>& w = waiting_[index(side)];
    if (w && w->applied != applied) w.reset();
    std::optional<Draft>& d = drafts_[index(side)];
    if (d && d->applied != applied) d.reset();
    return w ? w->text : d ? d->text : applied;
}

void InputDrafts::refuse(Session& session, InputSide side, const std::string& text, Refusal why,
                         const std::string& applied) {
    drafts_[index(side)] = Draft{text, std::move(why), applied};
    session.clear_error();
}

void InputDrafts::sentence_frame(Session& session, InputSide side, const FieldInput& in) {
    if (in.escape) return clear(side);
    std::optional<Waiting>& waiting = waiting_[index(side)];
    if (in.edited) {
        const Stepper& stepper = session.stepper();
        const int n_tokens = static_cast<int>(stepper.inputs().src_ids.size() + stepper.inputs().tgt_ids.size());
        if (!edit_waits_for_pause(pacing_, stepper.config(), n_tokens)) return apply_sentence(session, side, *in.edited);
        waiting = Waiting{*in.edited, in.now_seconds, applied_text(session, side)};
    }
    if (waiting && (in.left || in.now_seconds - waiting->typed_at >= pacing_.pause_seconds)) {
        const std::string text = std::move(waiting->text);
        waiting.reset();
        apply_sentence(session, side, text);
    }
}

void InputDrafts::apply_sentence(Session& session, InputSide side, const std::string& text) {
    const std::string applied = applied_text(session, side);  // a copy: applying changes it
    if (set_text(session, side, text))
        clear(side);
    else
        refuse(session, side, text, refusal_of(session, token_count(session, side, text)), applied);
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
