// `attnlab --bench-edit POS`: the edit it times is one letter typed right after the prompt's token POS, as a
// user types one in the middle of a long prompt; the re-run it starts is what attnlab-cli bench --edits times.
#pragma once

#include "session.h"

#include <optional>
#include <string>

namespace attnlab::gui {

// The side the letter is typed into: a decoder-only model's prompt (its target), else the source sentence.
bool bench_edit_types_target(const Session& session);
// That side's text with `letter` typed right after token `pos`'s typed piece; nullopt when pos is past the
// tokens or its token has no typed piece in the text (a special token, ids typed by hand).
std::optional<std::string> text_with_letter_after_token(const Session& session, size_t pos, char letter);

}  // namespace attnlab::gui
