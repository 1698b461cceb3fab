// What the app-model tests share: a vocabulary from a few words, and the tiny English → Korean
// session they start from.
#pragma once

#include "session.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace attnlab::gui::test {

// The four special tokens, then `extra`.
inline Vocab words(std::vector<std::string> extra) {
    std::vector<std::string> t = {"<pad>", "<sos>", "<eos>", "<unk>"};
    t.insert(t.end(), extra.begin(), extra.end());
    return *Vocab::from_tokens(t);
}

// A seeded random tiny model over i like red apples → 나 는 사과 를, on "i like red apples".
inline Session english_korean() {
    auto s = Session::from_preset("tiny", 5, words({"i", "like", "red", "apples"}), words({"나", "는", "사과", "를"}),
                                  "i like red apples");
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

}  // namespace attnlab::gui::test
