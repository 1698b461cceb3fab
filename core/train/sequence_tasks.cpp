// copy / reverse / sort: uniform length in [3, 8], then that many distinct letters from a..t in random
// order. Distinct letters make every target letter come from exactly one source position, so the
// cross-attention a learner looks at has one right answer (and sort needs no counting of repeats).
// The held-out split is 500 distinct sources drawn once from the seed; training redraws any
// source found in it (a hash set of the letters), so it never sees one.
#include "train/sequence_tasks.h"

#include "train/task_random.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <unordered_set>
#include <utility>

namespace attnlab {
namespace {

const char* kind_name(SequenceKind kind) {
    switch (kind) {
        case SequenceKind::copy: return "copy";
        case SequenceKind::reverse: return "reverse";
        case SequenceKind::sort: return "sort";
    }
    assert(false && "unknown SequenceKind");
    return "";
}

Vocab letter_vocab() {
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    for (int i = 0; i < kSequenceAlphabetSize; ++i) tokens.emplace_back(1, static_cast<char>('a' + i));
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    assert(vocab.ok());
    return std::move(vocab).value();
}

// The letters of a source as one string ("cab"): the held-out set's key.
std::string letters_key(const std::vector<std::string>& tokens) {
    std::string key;
    for (const std::string& t : tokens) key += t;
    return key;
}

class SequenceTask final : public Task {
public:
    SequenceTask(SequenceKind kind, uint64_t seed) : kind_(kind), name_(kind_name(kind)), vocab_(letter_vocab()) {
        std::mt19937_64 rng(seed);
        while (heldout_.size() < static_cast<size_t>(kSequenceHeldoutSize)) {
            std::vector<std::string> src = draw_source(rng);
            if (heldout_keys_.insert(letters_key(src)).second) heldout_.push_back(make_pair(std::move(src)));
        }
    }

    const std::string& name() const override { return name_; }
    const Vocab& src_vocab() const override { return vocab_; }
    const Vocab& tgt_vocab() const override { return vocab_; }

    TextPair sample_train(std::mt19937_64& rng) const override {
        for (;;) {
            std::vector<std::string> src = draw_source(rng);
            if (!heldout_keys_.contains(letters_key(src))) return make_pair(std::move(src));
        }
    }

    const std::vector<TextPair>& heldout() const override { return heldout_; }

    std::vector<TextPair> examples() const override { return {heldout_.begin(), heldout_.begin() + 6}; }

private:
    // Distinct letters: a partial Fisher-Yates shuffle of the alphabet.
    static std::vector<std::string> draw_source(std::mt19937_64& rng) {
        const size_t span = static_cast<size_t>(kSequenceMaxLength - kSequenceMinLength + 1);
        const size_t length = static_cast<size_t>(kSequenceMinLength) + draw_index(rng, span);
        std::vector<std::string> alphabet(static_cast<size_t>(kSequenceAlphabetSize));
        for (size_t i = 0; i < alphabet.size(); ++i) alphabet[i].assign(1, static_cast<char>('a' + i));
        for (size_t i = 0; i < length; ++i) std::swap(alphabet[i], alphabet[i + draw_index(rng, alphabet.size() - i)]);
        alphabet.resize(length);
        return alphabet;
    }

    TextPair make_pair(std::vector<std::string> src) const {
        std::vector<std::string> tgt = src;
        if (kind_ == SequenceKind::reverse) std::reverse(tgt.begin(), tgt.end());
        if (kind_ == SequenceKind::sort) std::sort(tgt.begin(), tgt.end());
        return {std::move(src), std::move(tgt)};
    }

    SequenceKind kind_;
    std::string name_;
    Vocab vocab_;
    std::vector<TextPair> heldout_;
    std::unordered_set<std::string> heldout_keys_;
};

}  // namespace

std::unique_ptr<Task> make_sequence_task(SequenceKind kind, uint64_t seed) {
    return std::make_unique<SequenceTask>(kind, seed);
}

}  // namespace attnlab
