// Grapheme cluster breaks from the general category, the canonical combining class and a few ranges.
#include "text/grapheme.h"

#include "text/unicode_category.h"
#include "text/unicode_normalization.h"
#include "text/utf8.h"

namespace attnlab {

namespace {

enum class Break { other, cr, lf, control, extend, zwj, spacing_mark, prepend, l, v, t, lv, lvt };

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

Break break_class(char32_t c) {
    if (c == 0x0D) return Break::cr;
    if (c == 0x0A) return Break::lf;
    if (c == 0x200D) return Break::zwj;
    if (c == 0x200C || in(c, 0x1F3FB, 0x1F3FF) || in(c, 0xE0020, 0xE007F) || in(c, 0xFF9E, 0xFF9F))
        return Break::extend;
    // Enclosing marks (Me), which the category table counts with the symbols.
    if (in(c, 0x0488, 0x0489) || c == 0x1ABE || in(c, 0x20DD, 0x20E0) || in(c, 0x20E2, 0x20E4) || in(c, 0xA670, 0xA672))
        return Break::extend;
    if (in(c, 0x0600, 0x0605) || c == 0x06DD || c == 0x070F || c == 0x08E2 || c == 0x0D4E) return Break::prepend;
    if (in(c, 0x1100, 0x115F) || in(c, 0xA960, 0xA97C)) return Break::l;
    if (in(c, 0x1160, 0x11A7) || in(c, 0xD7B0, 0xD7C6)) return Break::v;
    if (in(c, 0x11A8, 0x11FF) || in(c, 0xD7CB, 0xD7FB)) return Break::t;
    if (in(c, 0xAC00, 0xD7A3)) return (c - 0xAC00) % 28 == 0 ? Break::lv : Break::lvt;
    const CharCategory category = char_category(c);
    if (category == CharCategory::nonspacing_mark || canonical_combining_class(c) != 0) return Break::extend;
    if (c == 0x2028 || c == 0x2029) return Break::control;
    if (category == CharCategory::other && !in(c, 0xE000, 0xF8FF) && c < 0xF0000) return Break::control;
    // Spacing marks (Mc) of the Brahmic scripts; the table does not tell Mc from symbols elsewhere.
    if (category == CharCategory::symbol_or_spacing_mark &&
        (in(c, 0x0900, 0x0DFF) || in(c, 0x0F00, 0x109F) || in(c, 0x1780, 0x17FF)))
        return Break::spacing_mark;
    if (c == 0x0E33 || c == 0x0EB3) return Break::spacing_mark;
    return Break::other;
}

bool breaks_between(Break a, Break b) {
    if (a == Break::cr && b == Break::lf) return false;                                                        // GB3
    if (a == Break::cr || a == Break::lf || a == Break::control) return true;                                  // GB4
    if (b == Break::cr || b == Break::lf || b == Break::control) return true;                                  // GB5
    if (a == Break::l && (b == Break::l || b == Break::v || b == Break::lv || b == Break::lvt)) return false;  // GB6
    if ((a == Break::lv || a == Break::v) && (b == Break::v || b == Break::t)) return false;                   // GB7
    if ((a == Break::lvt || a == Break::t) && b == Break::t) return false;                                     // GB8
    if (b == Break::extend || b == Break::zwj || b == Break::spacing_mark) return false;  // GB9, GB9a
    if (a == Break::prepend) return false;                                                // GB9b
    return true;
}

}  // namespace

std::vector<TextSpan> grapheme_clusters(std::string_view text) {
    std::vector<TextSpan> out;
    Break last = Break::other;
    for (size_t i = 0; i < text.size();) {
        const size_t begin = i;
        const Break here = break_class(next_code_point(text, &i));
        if (out.empty() || breaks_between(last, here)) {
            out.push_back({begin, i});
        } else {
            out.back().end = i;
        }
        last = here;
    }
    return out;
}

}  // namespace attnlab
