// en-ko: template sentences drawn from the lexicon, with a held-out split of unseen word combinations.
//
// Held-out rule. A sentence's combinations are its (subject, verb) pair, and when it has an object
// its (verb, object) pair and (adjective, object) pair. From the seed, about 10% of all possible pairs
// of each kind are held out, except that
//   - a pair is held out only while both of its words keep at least two other partners of that kind
//     outside the held-out set, so every word still appears in training, in several combinations;
//   - (i, like), (like, apples) and (red, apples) are never held out: "i like red apples" is the
//     first example and a training sentence.
// The held-out split is 500 distinct sentences, drawn from the training distribution, that each contain
// at least one held-out pair. sample_train redraws every sentence that contains one, so training
// never sees a held-out pair together, and so never a held-out sentence.
#include "train/en_ko_task.h"

#include "train/en_ko_frame.h"
#include "train/en_ko_lexicon.h"
#include "train/task_random.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace attnlab {
namespace {

constexpr double kHeldoutPairFraction = 0.10;
constexpr int kMinPartnersLeft = 2;

enum class PairKind : uint64_t { subject_verb = 0, verb_noun = 1, adjective_noun = 2 };

uint64_t pair_key(PairKind kind, int a, int b) {
    assert(a >= 0 && b >= 0 && a < (1 << 24) && b < (1 << 24));
    return (static_cast<uint64_t>(kind) << 48) | (static_cast<uint64_t>(a) << 24) | static_cast<uint64_t>(b);
}

// How often each shape of sentence is drawn, out of the sum.
struct FormWeight {
    EnKoForm form;
    bool with_adjective;
    int weight;
};
constexpr std::array<FormWeight, 10> kFormWeights = {{
    {EnKoForm::object, false, 4},
    {EnKoForm::object, true, 6},
    {EnKoForm::object_at, false, 3},
    {EnKoForm::object_at, true, 2},
    {EnKoForm::go_to, false, 2},
    {EnKoForm::come_to, false, 1},
    {EnKoForm::go_to_with, false, 2},
    {EnKoForm::live_in, false, 1},
    {EnKoForm::work_at, false, 2},
    {EnKoForm::visit, false, 2},
}};

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& w : words) {
        if (!text.empty()) text += ' ';
        text += w;
    }
    return text;
}

// Specials, then the distinct words in byte (= code point) order.
Vocab vocab_of(std::vector<std::string> words) {
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    tokens.insert(tokens.end(), words.begin(), words.end());
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    assert(vocab.ok());
    return std::move(vocab).value();
}

Vocab english_vocab(const EnKoLexicon& lex) {
    std::vector<std::string> words = {"to", "with", "in"};
    for (const auto& s : lex.subjects) append_phrase_words(words, s.en);
    for (const auto& v : lex.verbs) {
        append_phrase_words(words, v.en);
        append_phrase_words(words, v.en_3s);
    }
    for (const auto& a : lex.adjectives) append_phrase_words(words, a.en);
    for (const auto& n : lex.nouns) append_phrase_words(words, n.en);
    for (const auto& p : lex.places) {
        append_phrase_words(words, p.en);
        append_phrase_words(words, p.at);
    }
    return vocab_of(std::move(words));
}

Vocab korean_vocab(const EnKoLexicon& lex) {
    std::vector<std::string> words = {"는", "은", "를", "을", "에", "에서", "와", "과"};
    for (const auto& s : lex.subjects) append_phrase_words(words, s.ko);
    for (const auto& v : lex.verbs) append_phrase_words(words, v.ko);
    for (const auto& a : lex.adjectives) append_phrase_words(words, a.ko);
    for (const auto& n : lex.nouns) append_phrase_words(words, n.ko);
    for (const auto& p : lex.places) append_phrase_words(words, p.ko);
    return vocab_of(std::move(words));
}

class EnKoTask final : public Task {
public:
    explicit EnKoTask(uint64_t seed)
        : lex_(make_en_ko_lexicon()), src_vocab_(english_vocab(lex_)), tgt_vocab_(korean_vocab(lex_)) {
        index_lexicon();
        std::mt19937_64 rng(seed);
        choose_heldout_pairs(rng);
        draw_heldout_sentences(rng);
    }

    const std::string& name() const override { return name_; }
    const Vocab& src_vocab() const override { return src_vocab_; }
    const Vocab& tgt_vocab() const override { return tgt_vocab_; }

    TextPair sample_train(std::mt19937_64& rng) const override {
        for (;;) {
            const EnKoFrame frame = draw_frame(rng);
            if (!has_heldout_pair(frame)) return render_en_ko(lex_, frame);
        }
    }

    const std::vector<TextPair>& heldout() const override { return heldout_; }

    // "i like red apples" (a training sentence), then the first five held-out ones.
    std::vector<TextPair> examples() const override {
        EnKoFrame first;
        first.form = EnKoForm::object;
        first.subject = find_subject(lex_, "i");
        first.verb = find_verb(lex_, "like");
        first.adjective = find_adjective(lex_, "red");
        first.noun = find_noun(lex_, "apples");
        std::vector<TextPair> out = {render_en_ko(lex_, first)};
        out.insert(out.end(), heldout_.begin(), heldout_.begin() + 5);
        return out;
    }

private:
    void index_lexicon() {
        adjective_nouns_.resize(lex_.adjectives.size());
        for (size_t n = 0; n < lex_.nouns.size(); ++n) {
            for (const int a : lex_.nouns[n].adjectives)
                adjective_nouns_[static_cast<size_t>(a)].push_back(static_cast<int>(n));
        }
        for (size_t s = 0; s < lex_.scenes.size(); ++s) {
            if (!noun(lex_.scenes[s].noun).adjectives.empty()) scenes_with_adjectives_.push_back(static_cast<int>(s));
        }
        for (size_t p = 0; p < lex_.places.size(); ++p) {
            const EnKoPlace& place = lex_.places[p];
            if (place.is_city) cities_.push_back(static_cast<int>(p));
            if (place.can_work) work_places_.push_back(static_cast<int>(p));
            if (place.can_visit) visit_places_.push_back(static_cast<int>(p));
        }
        for (size_t s = 0; s < lex_.subjects.size(); ++s) {
            if (lex_.subjects[s].can_accompany) companions_.push_back(static_cast<int>(s));
        }
    }

    const EnKoNoun& noun(int n) const { return lex_.nouns[static_cast<size_t>(n)]; }

    static int pick(const std::vector<int>& items, std::mt19937_64& rng) {
        return items[draw_index(rng, items.size())];
    }

    // A sentence the lexicon allows: the subject must take the verb drawn for the rest of it.
    EnKoFrame draw_frame(std::mt19937_64& rng) const {
        for (;;) {
            const EnKoFrame f = draw_unchecked_frame(rng);
            const std::vector<int>& verbs = lex_.subjects[static_cast<size_t>(f.subject)].verbs;
            if (std::find(verbs.begin(), verbs.end(), f.verb) != verbs.end()) return f;
        }
    }

    EnKoFrame draw_unchecked_frame(std::mt19937_64& rng) const {
        int total = 0;
        for (const FormWeight& fw : kFormWeights) total += fw.weight;
        int r = static_cast<int>(draw_index(rng, static_cast<size_t>(total)));
        size_t k = 0;
        while (r >= kFormWeights[k].weight) r -= kFormWeights[k++].weight;
        const FormWeight& choice = kFormWeights[k];

        EnKoFrame f;
        f.form = choice.form;
        f.subject = static_cast<int>(draw_index(rng, lex_.subjects.size()));
        const auto n_places = lex_.places.size();
        switch (choice.form) {
            case EnKoForm::object:
                if (choice.with_adjective) {
                    // Adjective first, so rare adjectives ("fast") are as common as the others.
                    f.adjective = static_cast<int>(draw_index(rng, lex_.adjectives.size()));
                    f.noun = pick(adjective_nouns_[static_cast<size_t>(f.adjective)], rng);
                } else {
                    f.noun = static_cast<int>(draw_index(rng, lex_.nouns.size()));
                }
                f.verb = pick(noun(f.noun).verbs, rng);
                break;
            case EnKoForm::object_at: {
                const EnKoScene& scene = choice.with_adjective
                                             ? lex_.scenes[static_cast<size_t>(pick(scenes_with_adjectives_, rng))]
                                             : lex_.scenes[draw_index(rng, lex_.scenes.size())];
                f.verb = scene.verb;
                f.noun = scene.noun;
                f.place = pick(scene.places, rng);
                if (choice.with_adjective) f.adjective = pick(noun(f.noun).adjectives, rng);
                break;
            }
            case EnKoForm::go_to:
            case EnKoForm::come_to:
                f.verb = choice.form == EnKoForm::go_to ? lex_.go : lex_.come;
                f.place = static_cast<int>(draw_index(rng, n_places));
                break;
            case EnKoForm::go_to_with:
                f.verb = lex_.go;
                f.place = static_cast<int>(draw_index(rng, n_places));
                do {
                    f.companion = pick(companions_, rng);
                } while (f.companion == f.subject);
                break;
            case EnKoForm::live_in:
                f.verb = lex_.live;
                f.place = pick(cities_, rng);
                break;
            case EnKoForm::work_at:
                f.verb = lex_.work;
                f.place = pick(work_places_, rng);
                break;
            case EnKoForm::visit:
                f.verb = lex_.visit;
                f.place = pick(visit_places_, rng);
                break;
        }
        return f;
    }

    bool has_heldout_pair(const EnKoFrame& f) const {
        if (heldout_pairs_.contains(pair_key(PairKind::subject_verb, f.subject, f.verb))) return true;
        if (f.noun >= 0 && heldout_pairs_.contains(pair_key(PairKind::verb_noun, f.verb, f.noun))) return true;
        return f.adjective >= 0 && heldout_pairs_.contains(pair_key(PairKind::adjective_noun, f.adjective, f.noun));
    }

    // Holds out about kHeldoutPairFraction of `candidates` (a, b) in seeded random order, keeping
    // at least kMinPartnersLeft other partners for every a and every b, and never a protected pair.
    void hold_out(PairKind kind, std::vector<std::pair<int, int>> candidates,
                  const std::vector<std::pair<int, int>>& protected_pairs, std::mt19937_64& rng) {
        std::unordered_map<int, int> left_a, left_b;  // partners not held out
        for (const auto& [a, b] : candidates) {
            ++left_a[a];
            ++left_b[b];
        }
        const auto target =
            static_cast<size_t>(std::lround(kHeldoutPairFraction * static_cast<double>(candidates.size())));
        shuffle_seeded(candidates, rng);
        size_t taken = 0;
        for (const auto& [a, b] : candidates) {
            if (taken == target) break;
            const bool is_protected = std::find(protected_pairs.begin(), protected_pairs.end(), std::make_pair(a, b)) !=
                                      protected_pairs.end();
            if (is_protected || left_a[a] <= kMinPartnersLeft || left_b[b] <= kMinPartnersLeft) continue;
            heldout_pairs_.insert(pair_key(kind, a, b));
            --left_a[a];
            --left_b[b];
            ++taken;
        }
    }

    void choose_heldout_pairs(std::mt19937_64& rng) {
        const int i = find_subject(lex_, "i"), like = find_verb(lex_, "like");
        const int red = find_adjective(lex_, "red"), apples = find_noun(lex_, "apples");
        assert(i >= 0 && like >= 0 && red >= 0 && apples >= 0);

        std::vector<std::pair<int, int>> subject_verb, verb_noun, adjective_noun;
        for (size_t s = 0; s < lex_.subjects.size(); ++s) {
            for (const int v : lex_.subjects[s].verbs) subject_verb.emplace_back(static_cast<int>(s), v);
        }
        for (size_t n = 0; n < lex_.nouns.size(); ++n) {
            for (const int v : lex_.nouns[n].verbs) verb_noun.emplace_back(v, static_cast<int>(n));
            for (const int a : lex_.nouns[n].adjectives) adjective_noun.emplace_back(a, static_cast<int>(n));
        }
        hold_out(PairKind::subject_verb, std::move(subject_verb), {{i, like}}, rng);
        hold_out(PairKind::verb_noun, std::move(verb_noun), {{like, apples}}, rng);
        hold_out(PairKind::adjective_noun, std::move(adjective_noun), {{red, apples}}, rng);
    }

    void draw_heldout_sentences(std::mt19937_64& rng) {
        std::unordered_set<std::string> seen;
        while (heldout_.size() < static_cast<size_t>(kEnKoHeldoutSize)) {
            const EnKoFrame frame = draw_frame(rng);
            if (!has_heldout_pair(frame)) continue;
            TextPair pair = render_en_ko(lex_, frame);
            if (seen.insert(joined(pair.src)).second) heldout_.push_back(std::move(pair));
        }
    }

    std::string name_ = "en-ko";
    EnKoLexicon lex_;
    Vocab src_vocab_, tgt_vocab_;
    std::vector<std::vector<int>> adjective_nouns_;  // adjective -> nouns it fits
    std::vector<int> scenes_with_adjectives_, cities_, work_places_, visit_places_, companions_;
    std::unordered_set<uint64_t> heldout_pairs_;
    std::vector<TextPair> heldout_;
};

}  // namespace

std::unique_ptr<Task> make_en_ko_task(uint64_t seed) { return std::make_unique<EnKoTask>(seed); }

}  // namespace attnlab
