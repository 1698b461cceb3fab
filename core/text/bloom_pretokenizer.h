// BLOOM's pre-tokenizer: tokenizer.json's Split of
//    ?[^(\s|[.,!?…。，、।۔،])]+      (Isolated, not inverted)
// In Oniguruma the inner [.,!?…。，、।۔،] is a class nested in the outer one, so a word is an optional space
// U+0020 and then a run of code points that are neither white space (\s, as GPT-2's pattern means it) nor one of
// ( | ) . , ! ? … 。 ， 、 । ۔ ،. Isolated keeps both the matches and each stretch of text between two of them
// (white space, those marks) as pieces.
#pragma once

#include "text/text_span.h"

#include <string_view>
#include <vector>

namespace attnlab {

// `text` must be valid UTF-8 (asserted). The spans cover the text in order, none empty.
std::vector<TextSpan> bloom_pretokenize(std::string_view text);

}  // namespace attnlab
