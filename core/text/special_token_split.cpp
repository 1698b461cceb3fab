// Leftmost-longest matching of a few special tokens: each token's next occurrence is searched
// for again only once the cut has passed it, so the text is scanned about once per token.
#include "text/special_token_split.h"

namespace attnlab {

std::vector<TextSegment> split_special_tokens(std::string_view text, const std::vector<SpecialToken>& specials) {
    std::vector<size_t> next_at;  // where each special token next occurs, or npos
    for (const SpecialToken& s : specials)
        next_at.push_back(s.text.empty() ? std::string_view::npos : text.find(s.text));
    std::vector<TextSegment> segments;
    size_t done = 0;  // bytes already in segments
    while (done < text.size()) {
        size_t best_at = std::string_view::npos;
        const SpecialToken* best = nullptr;
        for (size_t k = 0; k < specials.size(); ++k) {
            const SpecialToken& s = specials[k];
            if (next_at[k] != std::string_view::npos && next_at[k] < done) next_at[k] = text.find(s.text, done);
            const size_t at = next_at[k];
            if (at == std::string_view::npos) continue;
            if (best == nullptr || at < best_at || (at == best_at && s.text.size() > best->text.size())) {
                best_at = at;
                best = &s;
            }
        }
        const size_t plain_end = best == nullptr ? text.size() : best_at;
        if (plain_end > done) segments.push_back({{done, plain_end}, std::nullopt});
        if (best == nullptr) break;
        segments.push_back({{best_at, best_at + best->text.size()}, best->id});
        done = best_at + best->text.size();
    }
    return segments;
}

}  // namespace attnlab
