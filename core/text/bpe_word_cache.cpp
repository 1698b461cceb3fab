// The BPE word cache behind a mutex.
#include "text/bpe_word_cache.h"

namespace attnlab {

std::optional<std::vector<BpeSymbol>> BpeWordCache::find(std::string_view word) const {
    const std::lock_guard lock(mutex_);
    const auto it = words_.find(word);
    if (it == words_.end()) return std::nullopt;
    return it->second;
}

void BpeWordCache::insert(std::string_view word, const std::vector<BpeSymbol>& symbols) {
    if (word.size() > kMaxWordBytes) return;
    const std::lock_guard lock(mutex_);
    if (words_.size() < kMaxWords) words_.emplace(word, symbols);
}

}  // namespace attnlab
