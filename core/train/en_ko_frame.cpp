// Renders an EnKoFrame as English and Korean word lists (particles are words of their own).
#include "train/en_ko_frame.h"

#include "train/korean_particles.h"

#include <cassert>
#include <string_view>

namespace attnlab {

void append_phrase_words(std::vector<std::string>& out, std::string_view phrase) {
    while (!phrase.empty()) {
        const size_t end = phrase.find(' ');
        out.emplace_back(phrase.substr(0, end));
        phrase.remove_prefix(end == std::string_view::npos ? phrase.size() : end + 1);
    }
}

TextPair render_en_ko(const EnKoLexicon& lexicon, const EnKoFrame& frame) {
    const EnKoSubject& subject = lexicon.subjects.at(static_cast<size_t>(frame.subject));
    const EnKoVerb& verb = lexicon.verbs.at(static_cast<size_t>(frame.verb));
    const bool has_object = frame.form == EnKoForm::object || frame.form == EnKoForm::object_at;
    assert(has_object == (frame.noun >= 0));
    assert((frame.form == EnKoForm::object) == (frame.place < 0));
    assert((frame.form == EnKoForm::go_to_with) == (frame.companion >= 0));

    TextPair pair;
    std::vector<std::string>& en = pair.src;
    std::vector<std::string>& ko = pair.tgt;
    append_phrase_words(en, subject.en);
    append_phrase_words(en, subject.third_person ? verb.en_3s : verb.en);
    append_phrase_words(ko, subject.ko);
    ko.push_back(topic_particle(subject.ko));

    const EnKoPlace* place = frame.place >= 0 ? &lexicon.places.at(static_cast<size_t>(frame.place)) : nullptr;
    if (has_object) {
        const EnKoNoun& noun = lexicon.nouns.at(static_cast<size_t>(frame.noun));
        const EnKoAdjective* adjective =
            frame.adjective >= 0 ? &lexicon.adjectives.at(static_cast<size_t>(frame.adjective)) : nullptr;
        // English: S V [ADJ] O [at PLACE]
        if (adjective) append_phrase_words(en, adjective->en);
        append_phrase_words(en, noun.en);
        if (place) {
            append_phrase_words(en, place->at);
            append_phrase_words(en, place->en);
        }
        // Korean: S 는 [PLACE 에서] [ADJ] O 를 V
        if (place) {
            append_phrase_words(ko, place->ko);
            ko.emplace_back("에서");
        }
        if (adjective) append_phrase_words(ko, adjective->ko);
        append_phrase_words(ko, noun.ko);
        ko.push_back(object_particle(noun.ko));
        append_phrase_words(ko, verb.ko);
        return pair;
    }

    assert(place != nullptr);
    switch (frame.form) {
        case EnKoForm::go_to:
        case EnKoForm::come_to:
            en.emplace_back("to");
            append_phrase_words(en, place->en);
            append_phrase_words(ko, place->ko);
            ko.emplace_back("에");
            break;
        case EnKoForm::go_to_with: {
            const EnKoSubject& companion = lexicon.subjects.at(static_cast<size_t>(frame.companion));
            en.emplace_back("to");
            append_phrase_words(en, place->en);
            en.emplace_back("with");
            append_phrase_words(en, companion.en);
            append_phrase_words(ko, companion.ko);
            ko.push_back(with_particle(companion.ko));
            append_phrase_words(ko, place->ko);
            ko.emplace_back("에");
            break;
        }
        case EnKoForm::live_in:
            en.emplace_back("in");
            append_phrase_words(en, place->en);
            append_phrase_words(ko, place->ko);
            ko.emplace_back("에");
            break;
        case EnKoForm::work_at:
            append_phrase_words(en, place->at);
            append_phrase_words(en, place->en);
            append_phrase_words(ko, place->ko);
            ko.emplace_back("에서");
            break;
        case EnKoForm::visit:
            append_phrase_words(en, place->en);
            append_phrase_words(ko, place->ko);
            ko.push_back(object_particle(place->ko));
            break;
        case EnKoForm::object:
        case EnKoForm::object_at: assert(false && "handled above"); break;
    }
    append_phrase_words(ko, verb.ko);
    return pair;
}

}  // namespace attnlab
