// The pieces of Unicode normalization that BERT's accent stripping and lower-casing, and NFC, use:
// canonical decomposition (NFD, Hangul syllables included), canonical combining classes,
// canonical composition, and the context-free lower-case mapping. Data: the generated
// unicode_normalization_table.h (scripts/gen_unicode_normalization.py).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// Appends the full canonical decomposition of `c`, or `c` itself when it has none. A Hangul
// syllable becomes its conjoining jamo (L V or L V T), e.g. U+D55C 한 -> U+1112 U+1161 U+11AB.
void append_canonical_decomposition(char32_t c, std::u32string& out);

// Canonical_Combining_Class: 0 for starters, e.g. 230 for U+0301 COMBINING ACUTE ACCENT.
uint8_t canonical_combining_class(char32_t c);

// Canonical ordering, the last step of NFD after decomposing every code point: each run of
// non-starters (combining class > 0) is sorted by class, equal classes keeping their order.
// `code_point_of(item)` gives an item's code point, so items can carry more (e.g. a source span).
template <class Item, class CodePointOf>
void canonical_order(std::vector<Item>& items, CodePointOf code_point_of) {
    const auto combining_class_of = [&](const Item& item) { return canonical_combining_class(code_point_of(item)); };
    for (auto run = items.begin(); run != items.end();) {
        if (combining_class_of(*run) == 0) {
            ++run;
            continue;
        }
        auto run_end = std::find_if(run, items.end(), [&](const Item& item) { return combining_class_of(item) == 0; });
        std::stable_sort(run, run_end,
                         [&](const Item& a, const Item& b) { return combining_class_of(a) < combining_class_of(b); });
        run = run_end;
    }
}

// The primary composite that NFC's canonical composition makes of `first` + `second`, Hangul
// syllables included: U+0065 e + U+0301 -> U+00E9 é, U+1100 + U+1161 -> U+AC00 가, 가 + U+11A8
// -> U+AC01 각. nullopt when the two do not compose (composition exclusions never do).
std::optional<char32_t> canonical_composition(char32_t first, char32_t second);

// Unicode's full lower-case mapping of one code point, with no context: U+03A3 Σ always becomes
// σ (no final-sigma rule), U+0130 İ becomes i + U+0307. Appends 1 or 2 code points.
void append_lowercase(char32_t c, std::u32string& out);

}  // namespace attnlab
