// Unicode's extended grapheme clusters (UAX #29), as far as the Precompiled normalizer of tokenizer.json
// needs them (text/precompiled_charsmap.h): it treats a cluster shorter than 6 bytes as one chunk, any
// other one character by character. Rules kept: CR LF, controls, Hangul syllable sequences, extending
// characters (nonspacing and other combining marks, ZWNJ, ZWJ, emoji modifiers, tags, halfwidth kana
// voicing marks), spacing marks of the Brahmic scripts, prepended concatenation marks. Left out: the
// emoji ZWJ sequences and regional-indicator pairs (GB11-13), whose clusters are 6 bytes or more, so
// cutting them changes nothing the normalizer does.
#pragma once

#include "text/text_span.h"

#include <string_view>
#include <vector>

namespace attnlab {

// The clusters of valid UTF-8 `text`, in order, covering it.
std::vector<TextSpan> grapheme_clusters(std::string_view text);

}  // namespace attnlab
