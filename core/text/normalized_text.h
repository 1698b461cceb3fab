// Text after a tokenizer.json normalizer that still knows where it came from: each byte carries the
// bytes of the original text it stands for, so a token of the normalized text maps back to the
// characters the user typed. The normalizers: NFC, prepending a string, replacing a string.
#pragma once

#include "text/text_span.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct NormalizedText {
    std::string text;              // valid UTF-8
    std::vector<TextSpan> source;  // one per byte of `text`: the whole code points of the original it
                                   // came from; empty for what a normalizer inserted (a prepended "▁")

    // original[span] unchanged: each byte's source is its code point. `original` must be valid UTF-8.
    static NormalizedText identity(std::string_view original, TextSpan span);

    NormalizedText slice(TextSpan span) const;
    // The original bytes behind text[span]: the union of their non-empty sources, or, when all are
    // empty, the empty span where the first one stands.
    TextSpan source_of(TextSpan span) const;
};

// Unicode NFC: canonical decomposition, canonical order, canonical composition. A composite's source
// covers both of its parts; the marks of a run that canonical order reorders all take the run's source,
// so sources never go backwards.
NormalizedText nfc(const NormalizedText& in);

// `prefix` + the text, the prefix's bytes standing for nothing; an empty text stays empty.
NormalizedText prepend(const NormalizedText& in, std::string_view prefix);

// Every `from` (not empty) replaced by `to`, which stands for what it replaced.
NormalizedText replace_all(const NormalizedText& in, std::string_view from, std::string_view to);

}  // namespace attnlab
