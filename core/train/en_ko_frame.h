// One en-ko sentence as indices into the lexicon (which template, which words), and its rendering:
// English keeps SVO order with third-person -s; Korean puts the verb last (SOV) with particles:
//   S V [ADJ] O            ->  S 는/은 [ADJ] O 를/을 V
//   S V [ADJ] O at PLACE   ->  S 는/은 PLACE 에서 [ADJ] O 를/을 V
//   S go(es) to PLACE      ->  S 는/은 PLACE 에 가        (come(s) to -> 와)
//   S go(es) to PLACE with C -> S 는/은 C 와/과 PLACE 에 가
//   S live(s) in CITY      ->  S 는/은 CITY 에 살아
//   S work(s) at PLACE     ->  S 는/은 PLACE 에서 일해
//   S visit(s) PLACE       ->  S 는/은 PLACE 를/을 방문해
#pragma once

#include "train/en_ko_lexicon.h"
#include "train/tasks.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class EnKoForm { object, object_at, go_to, come_to, go_to_with, live_in, work_at, visit };

struct EnKoFrame {
    EnKoForm form = EnKoForm::object;
    int subject = 0;
    int verb = 0;
    int adjective = -1;  // object forms only; -1 for none
    int noun = -1;       // object forms only
    int place = -1;      // every form but object
    int companion = -1;  // go_to_with only: an index into subjects
};

// Appends the space-separated words of `phrase` ("my friend" -> "my", "friend").
void append_phrase_words(std::vector<std::string>& out, std::string_view phrase);

TextPair render_en_ko(const EnKoLexicon& lexicon, const EnKoFrame& frame);

}  // namespace attnlab
