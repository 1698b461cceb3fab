// Where a letter typed after a token goes: the typed pieces are found in the text in order.
#include "bench_edit.h"

namespace attnlab::gui {

bool bench_edit_types_target(const Session& session) { return session.stepper().config().arch == Arch::decoder_only; }

std::optional<std::string> text_with_letter_after_token(const Session& session, size_t pos, char letter) {
    const bool target = bench_edit_types_target(session);
    const SequenceView typed = target ? session.target() : session.source();
    const std::string& text = target ? session.tgt_text() : session.src_text();
    if (pos >= typed.pieces.size()) return std::nullopt;
    // The end of each piece in the text; a piece the text does not hold next (<sos>, <eos>) ends nowhere.
    size_t at = 0;
    std::optional<size_t> end;
    for (size_t i = 0; i <= pos; ++i) {
        const std::string& piece = typed.pieces[i];
        const size_t found = piece.empty() ? std::string::npos : text.find(piece, at);
        end.reset();
        // The next piece, after nothing but the spaces a word tokenizer drops; else not this text's.
        if (found == std::string::npos || text.find_first_not_of(" \t\n", at) < found) continue;
        at = found + piece.size();
        end = at;
    }
    if (!end) return std::nullopt;
    std::string edited = text;
    edited.insert(*end, 1, letter);
    return edited;
}

}  // namespace attnlab::gui
