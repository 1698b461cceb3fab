// libFuzzer target: tokenize / detokenize with a small fixed vocabulary.
// Input: first byte picks the tokenizer (even: word, odd: char) and skip_special; the rest
// is the text. Properties: errors only on invalid UTF-8, and then as one line; ids,
// pieces and unknown agree in size and range; every id is < V; detokenize returns.
#include "fuzz_common.h"
#include "text/tokenizer.h"
#include "text/utf8.h"
#include "text/vocab.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace attnlab;

namespace {

// <pad> <sos> <eos> <unk>, some English and Hangul words and syllables, printable ASCII.
Vocab make_vocab() {
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken,
                                       "the", "cat", "sat", "on", "mat", "i", "like", "apples",
                                       "나는", "사과를", "좋아한다", "고양이", "사", "과", "나", "는", "　"};
    for (char c = 32; c < 127; ++c) {
        std::string s(1, c);
        bool seen = false;
        for (const auto& t : tokens) seen = seen || t == s;
        if (!seen) tokens.push_back(s);
    }
    auto v = Vocab::from_tokens(std::move(tokens));
    if (!v) {
        std::fprintf(stderr, "fuzz_tokenizers: fixed vocab rejected: %s\n", v.error().message.c_str());
        std::abort();
    }
    return std::move(*v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const Vocab vocab = make_vocab();  // harness only; core keeps no statics
    constexpr int unk_id = 3;
    const TokenizerKind kind = (data[0] & 1) ? TokenizerKind::character : TokenizerKind::word;
    const bool skip_special = (data[0] & 2) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    auto t = tokenize(vocab, kind, text, unk_id);
    if (!t) {
        FUZZ_CHECK(!is_valid_utf8(text), "tokenize failed on valid UTF-8: " + t.error().message);
        FUZZ_CHECK(is_one_line(t.error().message), "bad error message: " + t.error().message);
        return 0;
    }
    FUZZ_CHECK(is_valid_utf8(text), "tokenize accepted invalid UTF-8");
    FUZZ_CHECK(t->ids.size() == t->pieces.size(), "ids and pieces differ in size");
    for (size_t i = 0; i < t->ids.size(); ++i) {
        FUZZ_CHECK(t->ids[i] >= 0 && t->ids[i] < vocab.size(), "id out of range at " + std::to_string(i));
        FUZZ_CHECK(!t->pieces[i].empty(), "empty piece at " + std::to_string(i));
    }
    for (int u : t->unknown) {
        FUZZ_CHECK(u >= 0 && static_cast<size_t>(u) < t->ids.size(), "unknown index out of range");
        FUZZ_CHECK(t->ids[static_cast<size_t>(u)] == unk_id, "unknown index does not hold unk_id");
    }
    if (kind == TokenizerKind::character)
        FUZZ_CHECK(t->ids.size() == count_code_points(text), "char tokenizer: one token per code point");

    const std::string back = detokenize(vocab, kind, t->ids, skip_special);
    FUZZ_CHECK(is_valid_utf8(back), "detokenize produced invalid UTF-8");
    // Ids the vocabulary does not hold render as "<?id>", never crash.
    std::vector<int> odd = t->ids;
    odd.push_back(-1);
    odd.push_back(vocab.size());
    (void)detokenize(vocab, kind, odd, skip_special);
    return 0;
}
