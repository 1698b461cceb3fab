// A memo of BPE results per word, safe to share between threads and between copies of a
// tokenizer. Like Hugging Face's cache it keeps words of at most 256 bytes and stops growing at
// 10,000 of them; text is mostly common words, so that covers most of it.
#pragma once

#include "text/bpe_merge.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnlab {

class BpeWordCache {
public:
    static constexpr size_t kMaxWordBytes = 256;
    static constexpr size_t kMaxWords = 10000;

    std::optional<std::vector<BpeSymbol>> find(std::string_view word) const;
    void insert(std::string_view word, const std::vector<BpeSymbol>& symbols);  // ignored past the limits

private:
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::vector<BpeSymbol>, StringHash, std::equal_to<>> words_;
};

}  // namespace attnlab
