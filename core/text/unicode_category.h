// Which class of the Unicode general category a code point is in, and the character classes
// built on it that the tokenizers use (\p{L}, \p{N}, \s, punctuation). Data: the generated
// unicode_category_table.h (scripts/gen_unicode_categories.py).
#pragma once

#include <cstdint>

namespace attnlab {

enum class CharCategory : uint8_t {
    letter,                  // L*: Lu Ll Lt Lm Lo
    number,                  // N*: Nd Nl No
    nonspacing_mark,         // Mn
    punctuation,             // P*: Pc Pd Ps Pe Pi Pf Po
    separator,               // Z*: Zs Zl Zp
    other,                   // C*: Cc Cf Cs Co Cn (unassigned)
    symbol_or_spacing_mark,  // everything else: S* Mc Me
};

CharCategory char_category(char32_t c);  // code points above U+10FFFF count as other

// Unicode's White_Space property: U+0009..U+000D, U+0085 and the separators (Z*). This is what
// \s means in GPT-2's pattern (the `regex` module and Oniguruma agree on it).
bool is_white_space(char32_t c);

}  // namespace attnlab
