// Tests for core/train/tasks: the letter tasks (copy, reverse, sort) and the toy en-ko translation
// task — seeded held-out splits that training never samples, vocabularies, and the Korean grammar.
#include "text/utf8.h"
#include "train/en_ko_frame.h"
#include "train/en_ko_lexicon.h"
#include "train/korean_particles.h"
#include "train/sequence_tasks.h"
#include "train/tasks.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

using namespace attnlab;

namespace {

using Words = std::vector<std::string>;

std::unique_ptr<Task> task_or_fail(const std::string& name, uint64_t seed) {
    Result<std::unique_ptr<Task>> task = make_task(name, seed);
    REQUIRE(task.ok());
    return std::move(task).value();
}

std::string joined(const Words& words) {
    std::string text;
    for (const std::string& w : words) {
        if (!text.empty()) text += ' ';
        text += w;
    }
    return text;
}

std::vector<std::string> heldout_sources(const Task& task) {
    std::vector<std::string> sources;
    for (const TextPair& p : task.heldout()) sources.push_back(joined(p.src));
    return sources;
}

// The code point of a one-code-point string such as "a" or "사".
char32_t only_code_point(const std::string& s) {
    const Result<std::vector<std::string>> cps = split_code_points(s);
    REQUIRE(cps.ok());
    REQUIRE(cps->size() == 1);
    const auto* b = reinterpret_cast<const unsigned char*>(s.data());
    if (s.size() == 1) return b[0];
    if (s.size() == 3) return ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu);
    FAIL("expected ASCII or a three-byte code point: " << s);
    return 0;
}

bool ends_in_hangul_syllable(const std::string& word) {
    const Result<std::vector<std::string>> cps = split_code_points(word);
    if (!cps.ok() || cps->empty() || cps->back().size() != 3) return false;
    const char32_t cp = only_code_point(cps->back());
    return cp >= 0xAC00 && cp <= 0xD7A3;
}

const std::vector<std::string> kLetterTasks = {"copy", "reverse", "sort"};

}  // namespace

TEST_CASE("tasks: names, and the error for an unknown one", "[tasks]") {
    CHECK(task_names() == std::vector<std::string>{"copy", "reverse", "sort", "en-ko"});
    for (const std::string& name : task_names()) CHECK(task_or_fail(name, 1)->name() == name);
    const Result<std::unique_ptr<Task>> bad = make_task("x", 1);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "unknown task 'x' (expected copy, reverse, sort or en-ko)");
}

TEST_CASE("tasks: vocabularies start with <pad> <sos> <eos> <unk>", "[tasks]") {
    for (const std::string& name : task_names()) {
        const auto task = task_or_fail(name, 1);
        for (const Vocab* vocab : {&task->src_vocab(), &task->tgt_vocab()}) {
            REQUIRE(vocab->size() > 4);
            CHECK(vocab->token(0) == "<pad>");
            CHECK(vocab->token(1) == "<sos>");
            CHECK(vocab->token(2) == "<eos>");
            CHECK(vocab->token(3) == "<unk>");
            // The rest in byte order, so the table does not depend on how it was gathered.
            CHECK(std::is_sorted(vocab->tokens().begin() + 4, vocab->tokens().end()));
        }
    }
}

TEST_CASE("tasks: letter targets are the source (3..8 distinct letters) copied, reversed or sorted", "[tasks]") {
    for (const std::string& name : kLetterTasks) {
        INFO(name);
        const auto task = task_or_fail(name, 11);
        CHECK(task->src_vocab().size() == 4 + kSequenceAlphabetSize);
        CHECK(task->tgt_vocab().tokens() == task->src_vocab().tokens());

        std::vector<TextPair> pairs = task->heldout();
        std::mt19937_64 rng(3);
        for (int i = 0; i < 3000; ++i) pairs.push_back(task->sample_train(rng));
        std::set<size_t> lengths;
        std::set<std::string> letters;
        int changed = 0;
        for (const TextPair& p : pairs) {
            REQUIRE(p.src.size() >= static_cast<size_t>(kSequenceMinLength));
            REQUIRE(p.src.size() <= static_cast<size_t>(kSequenceMaxLength));
            lengths.insert(p.src.size());
            REQUIRE(std::set<std::string>(p.src.begin(), p.src.end()).size() == p.src.size());  // distinct letters
            for (const std::string& t : p.src) {
                REQUIRE(t.size() == 1);
                REQUIRE(t[0] >= 'a');
                REQUIRE(t[0] < 'a' + kSequenceAlphabetSize);
                letters.insert(t);
            }
            Words expected = p.src;
            if (name == "reverse") std::reverse(expected.begin(), expected.end());
            if (name == "sort") std::sort(expected.begin(), expected.end());
            REQUIRE(p.tgt == expected);
            changed += p.tgt != p.src ? 1 : 0;
        }
        CHECK(lengths.size() == static_cast<size_t>(kSequenceMaxLength - kSequenceMinLength + 1));
        CHECK(letters.size() == static_cast<size_t>(kSequenceAlphabetSize));
        if (name == "copy")
            CHECK(changed == 0);
        else
            CHECK(changed > static_cast<int>(pairs.size()) * 9 / 10);  // almost every source changes
    }
}

TEST_CASE("tasks: the held-out split is fixed by the seed", "[tasks]") {
    for (const std::string& name : task_names()) {
        INFO(name);
        const auto a = task_or_fail(name, 5), b = task_or_fail(name, 5), c = task_or_fail(name, 6);
        const std::vector<std::string> sa = heldout_sources(*a), sb = heldout_sources(*b), sc = heldout_sources(*c);
        CHECK(sa.size() == 500);
        CHECK(std::set<std::string>(sa.begin(), sa.end()).size() == sa.size());  // distinct
        CHECK(sa == sb);
        CHECK(sa != sc);
        for (size_t i = 0; i < a->heldout().size(); ++i) REQUIRE(a->heldout()[i].tgt == b->heldout()[i].tgt);

        // Training draws depend only on the generator passed in.
        std::mt19937_64 r1(9), r2(9);
        for (int i = 0; i < 50; ++i) REQUIRE(a->sample_train(r1).src == b->sample_train(r2).src);
    }
}

TEST_CASE("tasks: sample_train never returns a held-out example", "[tasks]") {
    for (const std::string& name : task_names()) {
        INFO(name);
        const auto task = task_or_fail(name, 2);
        const std::vector<std::string> sources = heldout_sources(*task);
        const std::unordered_set<std::string> heldout(sources.begin(), sources.end());
        std::mt19937_64 rng(17);
        for (int i = 0; i < 20000; ++i) {
            const TextPair p = task->sample_train(rng);
            REQUIRE_FALSE(heldout.contains(joined(p.src)));
        }
    }
}

TEST_CASE("tasks: every word is in its vocabulary", "[tasks]") {
    for (const std::string& name : task_names()) {
        INFO(name);
        const auto task = task_or_fail(name, 4);
        std::vector<TextPair> pairs = task->heldout();
        const std::vector<TextPair> examples = task->examples();
        CHECK(examples.size() == 6);
        pairs.insert(pairs.end(), examples.begin(), examples.end());
        std::mt19937_64 rng(1);
        for (int i = 0; i < 2000; ++i) pairs.push_back(task->sample_train(rng));
        for (const TextPair& p : pairs) {
            for (const std::string& w : p.src) REQUIRE(task->src_vocab().find(w).has_value());
            for (const std::string& w : p.tgt) REQUIRE(task->tgt_vocab().find(w).has_value());
            const TokenPair ids = to_token_pair(*task, p);
            REQUIRE(ids.src.size() == p.src.size());
            REQUIRE(ids.tgt.size() == p.tgt.size());
            for (size_t j = 0; j < ids.src.size(); ++j) REQUIRE(task->src_vocab().token(ids.src[j]) == p.src[j]);
            for (size_t j = 0; j < ids.tgt.size(); ++j) REQUIRE(task->tgt_vocab().token(ids.tgt[j]) == p.tgt[j]);
            for (const int id : ids.src) REQUIRE(id >= 4);  // no specials inside a sentence
            for (const int id : ids.tgt) REQUIRE(id >= 4);
        }
    }
}

TEST_CASE("tasks: letter-task examples are held-out pairs", "[tasks]") {
    for (const std::string& name : kLetterTasks) {
        const auto task = task_or_fail(name, 8);
        const std::vector<TextPair> examples = task->examples();
        REQUIRE(examples.size() == 6);
        for (size_t i = 0; i < examples.size(); ++i) CHECK(examples[i].src == task->heldout()[i].src);
    }
}

TEST_CASE("tasks: en-ko translates 'i like red apples' exactly", "[tasks]") {
    const auto task = task_or_fail("en-ko", 1);
    const std::vector<TextPair> examples = task->examples();
    REQUIRE(examples.size() == 6);
    CHECK(examples[0].src == Words{"i", "like", "red", "apples"});
    CHECK(examples[0].tgt == Words{"나", "는", "빨간", "사과", "를", "좋아해"});
    // It is a training-side sentence; the other five examples are held out.
    const std::vector<std::string> sources = heldout_sources(*task);
    CHECK(std::find(sources.begin(), sources.end(), "i like red apples") == sources.end());
    for (size_t i = 1; i < examples.size(); ++i) CHECK(examples[i].src == task->heldout()[i - 1].src);
}

TEST_CASE("tasks: Korean particles follow the final consonant (받침)", "[tasks]") {
    // (cp - 0xAC00) % 28: 사 (0xC0AC) -> 0, 과 (0xACFC) -> 0; 빵 (0xBE75) -> 21 (ㅇ); 책 (0xCC45) -> 1 (ㄱ).
    CHECK_FALSE(has_final_consonant("사과"));
    CHECK(has_final_consonant("빵"));
    CHECK(has_final_consonant("책"));
    CHECK(has_final_consonant("물"));
    CHECK_FALSE(has_final_consonant("나"));
    CHECK_FALSE(has_final_consonant("친구"));
    CHECK(has_final_consonant("공원"));
    CHECK_FALSE(has_final_consonant("가"));  // first syllable, no final
    CHECK(has_final_consonant("힣"));        // last syllable, final ㅎ
    CHECK(topic_particle("나") == "는");
    CHECK(topic_particle("학생들") == "은");
    CHECK(object_particle("사과") == "를");
    CHECK(object_particle("빵") == "을");
    CHECK(object_particle("책") == "을");
    CHECK(with_particle("민수") == "와");
    CHECK(with_particle("지민") == "과");
}

TEST_CASE("tasks: en-ko templates render SOV Korean with the right particles", "[tasks]") {
    const EnKoLexicon lex = make_en_ko_lexicon();
    auto object = [&](const char* s, const char* v, const char* adj, const char* n, const char* place) {
        EnKoFrame f;
        f.form = place ? EnKoForm::object_at : EnKoForm::object;
        f.subject = find_subject(lex, s);
        f.verb = find_verb(lex, v);
        f.adjective = adj ? find_adjective(lex, adj) : -1;
        f.noun = find_noun(lex, n);
        f.place = place ? find_place(lex, place) : -1;
        REQUIRE(f.subject >= 0);
        REQUIRE(f.verb >= 0);
        REQUIRE(f.noun >= 0);
        REQUIRE((adj == nullptr || f.adjective >= 0));
        REQUIRE((place == nullptr || f.place >= 0));
        return render_en_ko(lex, f);
    };
    auto motion = [&](EnKoForm form, const char* s, const char* v, const char* place, const char* with) {
        EnKoFrame f;
        f.form = form;
        f.subject = find_subject(lex, s);
        f.verb = find_verb(lex, v);
        f.place = find_place(lex, place);
        f.companion = with ? find_subject(lex, with) : -1;
        REQUIRE(f.subject >= 0);
        REQUIRE(f.verb >= 0);
        REQUIRE(f.place >= 0);
        return render_en_ko(lex, f);
    };
    auto check = [](const TextPair& p, const std::string& en, const std::string& ko) {
        CHECK(joined(p.src) == en);
        CHECK(joined(p.tgt) == ko);
    };
    check(object("i", "like", "red", "apples", nullptr), "i like red apples", "나 는 빨간 사과 를 좋아해");
    check(object("he", "eat", nullptr, "bread", nullptr), "he eats bread", "그 는 빵 을 먹어");
    check(object("the students", "read", "old", "books", "the library"), "the students read old books at the library",
          "학생들 은 도서관 에서 오래된 책 을 읽어");
    check(object("dad", "drink", "hot", "coffee", "the kitchen"), "dad drinks hot coffee in the kitchen",
          "아빠 는 부엌 에서 뜨거운 커피 를 마셔");
    check(object("my friend", "study", nullptr, "math", nullptr), "my friend studies math",
          "내 친구 는 수학 을 공부해");
    check(object("jimin", "watch", "scary", "movies", nullptr), "jimin watches scary movies",
          "지민 은 무서운 영화 를 봐");
    check(motion(EnKoForm::go_to, "she", "go", "school", nullptr), "she goes to school", "그녀 는 학교 에 가");
    check(motion(EnKoForm::come_to, "we", "come", "the park", nullptr), "we come to the park", "우리 는 공원 에 와");
    check(motion(EnKoForm::go_to_with, "jimin", "go", "school", "minsu"), "jimin goes to school with minsu",
          "지민 은 민수 와 학교 에 가");
    check(motion(EnKoForm::go_to_with, "i", "go", "the zoo", "seoyeon"), "i go to the zoo with seoyeon",
          "나 는 서연 과 동물원 에 가");
    check(motion(EnKoForm::live_in, "they", "live", "seoul", nullptr), "they live in seoul", "그들 은 서울 에 살아");
    check(motion(EnKoForm::work_at, "mom", "work", "the bakery", nullptr), "mom works at the bakery",
          "엄마 는 빵집 에서 일해");
    check(motion(EnKoForm::visit, "yuna", "visit", "the museum", nullptr), "yuna visits the museum",
          "유나 는 박물관 을 방문해");
    check(motion(EnKoForm::visit, "you", "visit", "paris", nullptr), "you visit paris", "너 는 파리 를 방문해");
}

TEST_CASE("tasks: en-ko lexicon is consistent", "[tasks]") {
    const EnKoLexicon lex = make_en_ko_lexicon();
    std::vector<std::string> korean_words;
    for (const auto& s : lex.subjects) {
        CHECK_FALSE(s.verbs.empty());
        append_phrase_words(korean_words, s.ko);
    }
    for (const auto& v : lex.verbs) {
        CHECK(v.en_3s != v.en);
        append_phrase_words(korean_words, v.ko);
    }
    for (const auto& a : lex.adjectives) append_phrase_words(korean_words, a.ko);
    for (const auto& p : lex.places) append_phrase_words(korean_words, p.ko);
    for (const auto& n : lex.nouns) {
        INFO(n.en);
        CHECK(n.verbs.size() >= 2);
        append_phrase_words(korean_words, n.ko);
    }
    for (const std::string& w : korean_words) {
        INFO(w);
        CHECK(ends_in_hangul_syllable(w));
    }
    std::set<std::pair<int, int>> scene_pairs;
    for (const EnKoScene& s : lex.scenes) {
        const std::vector<int>& verbs = lex.nouns[static_cast<size_t>(s.noun)].verbs;
        CHECK(std::find(verbs.begin(), verbs.end(), s.verb) != verbs.end());
        CHECK_FALSE(s.places.empty());
        CHECK(scene_pairs.insert({s.verb, s.noun}).second);  // one scene per (verb, object)
    }
    CHECK(lex.scenes.size() > 100);
}

TEST_CASE("tasks: en-ko vocabularies hold a few hundred words, all of them used", "[tasks]") {
    const auto task = task_or_fail("en-ko", 1);
    CHECK(task->src_vocab().size() >= 150);
    CHECK(task->src_vocab().size() <= 400);
    CHECK(task->tgt_vocab().size() >= 150);
    CHECK(task->tgt_vocab().size() <= 400);

    std::set<std::string> en_used, ko_used;
    auto use = [&](const TextPair& p) {
        en_used.insert(p.src.begin(), p.src.end());
        ko_used.insert(p.tgt.begin(), p.tgt.end());
    };
    for (const TextPair& p : task->heldout()) use(p);
    std::mt19937_64 rng(5);
    for (int i = 0; i < 20000; ++i) use(task->sample_train(rng));
    CHECK(en_used.size() == static_cast<size_t>(task->src_vocab().size() - 4));
    CHECK(ko_used.size() == static_cast<size_t>(task->tgt_vocab().size() - 4));
}

TEST_CASE("tasks: en-ko particles agree with the word before them in every sentence", "[tasks]") {
    const auto task = task_or_fail("en-ko", 3);
    std::vector<TextPair> pairs = task->heldout();
    std::mt19937_64 rng(2);
    for (int i = 0; i < 5000; ++i) pairs.push_back(task->sample_train(rng));
    int checked = 0;
    for (const TextPair& p : pairs) {
        INFO(joined(p.tgt));
        REQUIRE(p.tgt.size() >= 3);
        // Exactly one topic particle, right after the subject (one word, or "내 친구").
        const auto topic =
            std::find_if(p.tgt.begin(), p.tgt.end(), [](const std::string& w) { return w == "는" || w == "은"; });
        REQUIRE(topic != p.tgt.end());
        CHECK(topic - p.tgt.begin() <= 2);
        CHECK(std::count(p.tgt.begin(), p.tgt.end(), "는") + std::count(p.tgt.begin(), p.tgt.end(), "은") == 1);
        for (size_t j = 1; j + 1 < p.tgt.size(); ++j) {  // the last word is the verb (와 "come" included)
            const std::string& w = p.tgt[j];
            const bool after_final = has_final_consonant(p.tgt[j - 1]);
            if (w == "는" || w == "은") REQUIRE(w == (after_final ? "은" : "는"));
            if (w == "를" || w == "을") REQUIRE(w == (after_final ? "을" : "를"));
            if (w == "와" || w == "과") REQUIRE(w == (after_final ? "과" : "와"));
            checked += (w == "는" || w == "은" || w == "를" || w == "을" || w == "와" || w == "과") ? 1 : 0;
        }
    }
    CHECK(checked > 5000);
}

TEST_CASE("tasks: en-ko held-out sentences pair seen words in unseen ways", "[tasks]") {
    // A held-out sentence holds a held-out (subject, verb), (verb, object) or (adjective, object)
    // pair. Each word of such a pair comes before the other only when the two play those roles, so the
    // ordered English word pair (earlier, later) never occurs in training, while every word does.
    const auto task = task_or_fail("en-ko", 7);
    std::unordered_set<std::string> en_seen, ko_seen, ordered_seen;
    auto ordered_pairs = [](const Words& w) {
        std::vector<std::string> out;
        for (size_t i = 0; i < w.size(); ++i) {
            for (size_t j = i + 1; j < w.size(); ++j) out.push_back(w[i] + "|" + w[j]);
        }
        return out;
    };
    std::mt19937_64 rng(23);
    for (int i = 0; i < 20000; ++i) {
        const TextPair p = task->sample_train(rng);
        en_seen.insert(p.src.begin(), p.src.end());
        ko_seen.insert(p.tgt.begin(), p.tgt.end());
        for (const std::string& op : ordered_pairs(p.src)) ordered_seen.insert(op);
    }
    for (const TextPair& p : task->heldout()) {
        INFO(joined(p.src));
        for (const std::string& w : p.src) REQUIRE(en_seen.contains(w));
        for (const std::string& w : p.tgt) REQUIRE(ko_seen.contains(w));
        const std::vector<std::string> pairs = ordered_pairs(p.src);
        const bool has_unseen_pair =
            std::any_of(pairs.begin(), pairs.end(), [&](const std::string& op) { return !ordered_seen.contains(op); });
        REQUIRE(has_unseen_pair);
    }
    // And the check can fail: a fresh training sentence's ordered pairs were (almost always) seen.
    std::mt19937_64 other(99);
    int all_seen = 0;
    for (int i = 0; i < 500; ++i) {
        const std::vector<std::string> pairs = ordered_pairs(task->sample_train(other).src);
        all_seen +=
            std::all_of(pairs.begin(), pairs.end(), [&](const std::string& op) { return ordered_seen.contains(op); });
    }
    CHECK(all_seen > 400);
}
