// Tests for core/train/metrics: exact match, token accuracy and corpus BLEU-4 on hand-computed cases.
#include "train/metrics.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace attnlab;

namespace {

// "a b c" -> {"a", "b", "c"}
Sentence words(const std::string& text) {
    std::istringstream in(text);
    Sentence out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::vector<Sentence> corpus(std::initializer_list<const char*> texts) {
    std::vector<Sentence> out;
    for (const char* t : texts) out.push_back(words(t));
    return out;
}

}  // namespace

TEST_CASE("metrics: exact match counts whole sentences", "[metrics]") {
    const auto refs = corpus({"a b c", "d e", "f", "g h"});
    CHECK(exact_match(refs, refs) == 1.0);
    // second differs in one token, fourth is a prefix (shorter): 2 of 4 equal.
    CHECK(exact_match(corpus({"a b c", "d x", "f", "g"}), refs) == Approx(0.5));
    CHECK(exact_match(corpus({"x", "y", "z", "w"}), refs) == 0.0);
}

TEST_CASE("metrics: token accuracy by position over the longer length", "[metrics]") {
    // hyp "a b c" vs ref "a x c": 2 of 3.  hyp "d e f" vs ref "d e": 2 of max(3, 2) = 3.
    // hyp "g" vs ref "g h i": 1 of 3.  Total 5 / 9.
    CHECK(token_accuracy(corpus({"a b c", "d e f", "g"}), corpus({"a x c", "d e", "g h i"})) == Approx(5.0 / 9.0));
    // Positions, not sets: a shifted sentence scores 0.
    CHECK(token_accuracy(corpus({"b c d"}), corpus({"a b c"})) == 0.0);
    CHECK(token_accuracy(corpus({"a b"}), corpus({"a b"})) == 1.0);
    CHECK(token_accuracy({Sentence{}}, {Sentence{}}) == 1.0);  // both empty
    CHECK(token_accuracy({Sentence{}}, corpus({"a b"})) == 0.0);
}

TEST_CASE("metrics: BLEU of an identical corpus is 100", "[metrics]") {
    const auto refs = corpus({"나 는 빨간 사과 를 좋아해", "the cat sat on the mat", "a b c d"});
    CHECK(corpus_bleu(refs, refs) == Approx(100.0));
}

TEST_CASE("metrics: BLEU precisions computed by hand", "[metrics]") {
    // hyp "a b c d e f", ref "a b c d x f":
    //   p1 = 5/6 (e unmatched), p2 = 3/5 (ab bc cd), p3 = 2/4 (abc bcd), p4 = 1/3 (abcd); c = r = 6, BP = 1.
    //   BLEU = 100 · (5/6 · 3/5 · 2/4 · 1/3)^(1/4) = 100 · (1/12)^(1/4) = 53.7285
    CHECK(corpus_bleu(corpus({"a b c d e f"}), corpus({"a b c d x f"})) == Approx(53.7285).margin(1e-3));

    // Clipping: hyp "a a b c d", ref "a b c d e": the second "a" matches nothing, as "a" occurs once in the ref.
    //   p1 = 4/5, p2 = 3/4 (ab bc cd; not aa), p3 = 2/3 (abc bcd), p4 = 1/2 (abcd); c = r = 5.
    //   BLEU = 100 · (4/5 · 3/4 · 2/3 · 1/2)^(1/4) = 100 · 0.2^(1/4) = 66.8740
    CHECK(corpus_bleu(corpus({"a a b c d"}), corpus({"a b c d e"})) == Approx(66.8740).margin(1e-3));

    // Longer than the reference: no brevity penalty. hyp "a b c d e", ref "a b c d": p = 4/5, 3/4, 2/3, 1/2.
    CHECK(corpus_bleu(corpus({"a b c d e"}), corpus({"a b c d"})) == Approx(66.8740).margin(1e-3));
}

TEST_CASE("metrics: BLEU brevity penalty", "[metrics]") {
    // hyp "a b c d", ref "a b c d e f": every precision is 1, c = 4 < r = 6,
    //   BP = exp(1 - 6/4) = exp(-0.5) = 0.606531  ->  BLEU 60.6531
    CHECK(corpus_bleu(corpus({"a b c d"}), corpus({"a b c d e f"})) == Approx(60.6531).margin(1e-3));
}

TEST_CASE("metrics: BLEU sums n-gram counts over the corpus", "[metrics]") {
    // ("a b c d" | "a b c d") and ("x y" | "x z"): the second alone has no bigram match (BLEU 0), but
    // corpus-level counts give p1 = (4+1)/(4+2) = 5/6, p2 = (3+0)/(3+1) = 3/4, p3 = 2/2, p4 = 1/1; c = r = 6.
    //   BLEU = 100 · (5/6 · 3/4)^(1/4) = 100 · 0.625^(1/4) = 88.9140
    CHECK(corpus_bleu(corpus({"a b c d", "x y"}), corpus({"a b c d", "x z"})) == Approx(88.9140).margin(1e-3));
    CHECK(corpus_bleu(corpus({"x y"}), corpus({"x z"})) == 0.0);
}

TEST_CASE("metrics: BLEU is 0 without smoothing when an order has no match", "[metrics]") {
    // Unigrams and bigrams match, but no 4-gram does (the hypothesis has only three words).
    CHECK(corpus_bleu(corpus({"a b c"}), corpus({"a b c"})) == 0.0);
    CHECK(corpus_bleu(corpus({"the cat sat on the mat"}), corpus({"the cat is on the mat"})) == 0.0);
    CHECK(corpus_bleu({Sentence{}}, corpus({"a b c d"})) == 0.0);
}
