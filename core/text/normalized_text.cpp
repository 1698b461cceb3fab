// The normalizers of tokenizer.json over text that keeps its sources: NFC from the decomposition,
// ordering and composition tables, prepend and replace as plain string edits.
#include "text/normalized_text.h"

#include "text/unicode_normalization.h"
#include "text/utf8.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace attnlab {

namespace {

// The smallest span holding both; an empty span holds nothing.
TextSpan span_union(TextSpan a, TextSpan b) {
    if (a.begin == a.end) return b.begin == b.end ? a : b;
    if (b.begin == b.end) return a;
    return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

struct SourcedChar {
    char32_t c;
    TextSpan source;
};

void append_char(NormalizedText& out, char32_t c, TextSpan source) {
    const size_t before = out.text.size();
    append_utf8(c, out.text);
    out.source.insert(out.source.end(), out.text.size() - before, source);
}

}  // namespace

NormalizedText NormalizedText::identity(std::string_view original, TextSpan span) {
    NormalizedText out;
    out.text = original.substr(span.begin, span.end - span.begin);
    for (size_t i = span.begin; i < span.end;) {
        const size_t begin = i;
        next_code_point(original, &i);
        out.source.insert(out.source.end(), i - begin, TextSpan{begin, i});
    }
    return out;
}

NormalizedText NormalizedText::slice(TextSpan span) const {
    return {text.substr(span.begin, span.end - span.begin),
            std::vector<TextSpan>(source.begin() + static_cast<ptrdiff_t>(span.begin),
                                  source.begin() + static_cast<ptrdiff_t>(span.end))};
}

TextSpan NormalizedText::source_of(TextSpan span) const {
    assert(span.begin < span.end && span.end <= source.size());
    TextSpan out{source[span.begin].begin, source[span.begin].begin};
    for (size_t i = span.begin; i < span.end; ++i) out = span_union(out, source[i]);
    return out;
}

NormalizedText nfc(const NormalizedText& in) {
    if (std::all_of(in.text.begin(), in.text.end(), [](char b) { return static_cast<uint8_t>(b) < 0x80; })) return in;

    std::vector<SourcedChar> chars;  // decomposed
    std::u32string parts;
    for (size_t i = 0; i < in.text.size();) {
        const TextSpan source = in.source[i];
        parts.clear();
        append_canonical_decomposition(next_code_point(in.text, &i), parts);
        for (char32_t c : parts) chars.push_back({c, source});
    }
    const auto combining_class_of = [](const SourcedChar& ch) { return canonical_combining_class(ch.c); };
    canonical_order(chars, [](const SourcedChar& ch) { return ch.c; });
    for (auto run = chars.begin(); run != chars.end();) {  // reordered runs of marks share their sources
        const auto run_end =
            std::find_if(run + 1, chars.end(), [&](const SourcedChar& ch) { return combining_class_of(ch) == 0; });
        const bool reordered = std::adjacent_find(run, run_end, [](const SourcedChar& a, const SourcedChar& b) {
                                   return b.source.begin < a.source.begin;
                               }) != run_end;
        if (reordered) {
            TextSpan all = run->source;
            for (auto it = run; it != run_end; ++it) all = span_union(all, it->source);
            for (auto it = run; it != run_end; ++it) it->source = all;
        }
        run = run_end;
    }

    // Canonical composition (the Unicode standard's D117): a character joins the last starter when nothing
    // between them blocks it (a character of class 0, or of a class >= its own).
    std::vector<SourcedChar> composed;
    size_t starter = 0;
    bool have_starter = false;
    for (const SourcedChar& ch : chars) {
        const uint8_t cls = canonical_combining_class(ch.c);
        const bool adjacent = have_starter && starter + 1 == composed.size();
        if (have_starter && (adjacent || canonical_combining_class(composed.back().c) < cls)) {
            if (const auto joined = canonical_composition(composed[starter].c, ch.c)) {
                composed[starter] = {*joined, span_union(composed[starter].source, ch.source)};
                continue;
            }
        }
        if (cls == 0) {
            starter = composed.size();
            have_starter = true;
        }
        composed.push_back(ch);
    }

    NormalizedText out;
    for (const SourcedChar& ch : composed) append_char(out, ch.c, ch.source);
    return out;
}

NormalizedText prepend(const NormalizedText& in, std::string_view prefix) {
    if (in.text.empty()) return in;
    NormalizedText out;
    out.text = std::string(prefix) + in.text;
    out.source.assign(prefix.size(), TextSpan{in.source[0].begin, in.source[0].begin});
    out.source.insert(out.source.end(), in.source.begin(), in.source.end());
    return out;
}

NormalizedText replace_all(const NormalizedText& in, std::string_view from, std::string_view to) {
    assert(!from.empty());
    NormalizedText out;
    for (size_t i = 0; i < in.text.size();) {
        if (in.text.compare(i, from.size(), from) == 0) {
            const TextSpan source = in.source_of({i, i + from.size()});
            out.text += to;
            out.source.insert(out.source.end(), to.size(), source);
            i += from.size();
        } else {
            out.text += in.text[i];
            out.source.push_back(in.source[i]);
            ++i;
        }
    }
    return out;
}

}  // namespace attnlab
