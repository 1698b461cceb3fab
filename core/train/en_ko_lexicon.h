// The word lists of the toy English -> Korean task: subjects, verbs, adjectives, object nouns
// (each with the verbs and adjectives that make sense with it), places, and which places fit
// which (verb, object) pairs. Every English entry has exactly one Korean rendering.
#pragma once

#include <string>
#include <vector>

namespace attnlab {

struct EnKoSubject {
    std::string en, ko;      // "my friend", "내 친구" (several words are several tokens)
    bool third_person;       // "he likes" rather than "i like"
    bool can_accompany;      // may follow "with" (people and names, not pronouns)
    std::vector<int> verbs;  // indices into EnKoLexicon::verbs this subject takes
};

struct EnKoVerb {
    std::string en, en_3s, ko;  // "like", "likes", "좋아해" (informal present, 반말)
};

struct EnKoAdjective {
    std::string en, ko;  // "red", "빨간"
};

struct EnKoNoun {
    std::string en, ko;           // "apples", "사과": bare plural or mass noun, no article
    std::vector<int> verbs;       // indices into EnKoLexicon::verbs that take it as object
    std::vector<int> adjectives;  // indices into EnKoLexicon::adjectives that fit it (may be empty)
};

struct EnKoPlace {
    std::string en, ko;  // "the park", "공원"; a city has no article ("seoul", "서울")
    std::string at;      // the English preposition of location: "at", "in" or "on"
    bool is_city = false, can_visit = false, can_work = false;
};

// "S V O at PLACE": an object verb with one object and the places where that makes sense.
struct EnKoScene {
    int verb = 0, noun = 0;
    std::vector<int> places;  // indices into EnKoLexicon::places
};

struct EnKoLexicon {
    std::vector<EnKoSubject> subjects;
    std::vector<EnKoVerb> verbs;  // object verbs first, then the five below
    std::vector<EnKoAdjective> adjectives;
    std::vector<EnKoNoun> nouns;
    std::vector<EnKoPlace> places;
    std::vector<EnKoScene> scenes;
    int go = 0, come = 0, live = 0, work = 0, visit = 0;  // indices into verbs
};

// Builds the lexicon from its tables (asserts they are consistent). Deterministic.
EnKoLexicon make_en_ko_lexicon();

// Lookups by English text; -1 when absent.
int find_subject(const EnKoLexicon& lexicon, const std::string& en);
int find_verb(const EnKoLexicon& lexicon, const std::string& en);
int find_adjective(const EnKoLexicon& lexicon, const std::string& en);
int find_noun(const EnKoLexicon& lexicon, const std::string& en);
int find_place(const EnKoLexicon& lexicon, const std::string& en);

}  // namespace attnlab
