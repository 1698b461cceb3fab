// The en-ko word tables and their assembly into an EnKoLexicon.
// Nouns belong to a category that gives their default verbs and adjectives; a noun's own
// "+word"/"-word" changes add or remove some, so every pair the task can make reads naturally
// ("sweet strawberries", not "sweet lemons"; "write letters", not "write comics").
#include "train/en_ko_lexicon.h"

#include <algorithm>
#include <cassert>
#include <string_view>

namespace attnlab {
namespace {

struct SubjectRow {
    const char* en;
    const char* ko;
    bool third_person;
    bool can_accompany;
    const char* verb_changes;
};
struct VerbRow {
    const char* en;
    const char* en_3s;
    const char* ko;
};
struct AdjectiveRow {
    const char* en;
    const char* ko;
};
struct CategoryRow {
    const char* name;
    const char* verbs;
    const char* adjectives;
};
struct NounRow {
    const char* en;
    const char* ko;
    const char* category;
    const char* adjective_changes;
    const char* verb_changes;
};
struct PlaceRow {
    const char* en;
    const char* ko;
    const char* at;
    bool is_city, can_visit, can_work;
};
struct SceneRow {
    const char* verbs;
    const char* categories;
    const char* places;
};  // places: ','-separated

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    while (!text.empty()) {
        const size_t end = text.find(separator);
        const std::string_view part = text.substr(0, end);
        if (!part.empty()) parts.emplace_back(part);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return parts;
}

template <class Entry>
int index_by_en(const std::vector<Entry>& entries, std::string_view en) {
    for (size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].en == en) return static_cast<int>(i);
    }
    return -1;
}

template <class Entry>
int require_en(const std::vector<Entry>& entries, std::string_view en) {
    const int i = index_by_en(entries, en);
    assert(i >= 0 && "en-ko lexicon table names an unknown word");
    return i;
}

template <class Entry>
std::vector<int> indices_of(const std::vector<Entry>& entries, std::string_view names) {
    std::vector<int> ids;
    for (const std::string& name : split(names, ' ')) ids.push_back(require_en(entries, name));
    return ids;
}

// "+sweet -big": appends or removes entries (by English text) in `ids`.
template <class Entry>
void apply_changes(std::vector<int>& ids, const std::vector<Entry>& entries, std::string_view changes) {
    for (const std::string& change : split(changes, ' ')) {
        assert(change.size() > 1 && (change[0] == '+' || change[0] == '-'));
        const int id = require_en(entries, std::string_view(change).substr(1));
        const auto it = std::find(ids.begin(), ids.end(), id);
        if (change[0] == '+') {
            assert(it == ids.end() && "adds a word the category already has");
            ids.push_back(id);
        } else {
            assert(it != ids.end() && "removes a word the category does not have");
            ids.erase(it);
        }
    }
}

}  // namespace

EnKoLexicon make_en_ko_lexicon() {
    // Third person singular subjects take "likes"; pronouns cannot follow "with" (no "with i").
    // Third person singular subjects take "likes"; pronouns cannot follow "with" (no "with i").
    // Every subject takes every verb unless its row removes some ("the children" do not teach).
    const SubjectRow subjects[] = {
        {"i", "나", false, false, ""},
        {"you", "너", false, false, ""},
        {"he", "그", true, false, ""},
        {"she", "그녀", true, false, ""},
        {"we", "우리", false, false, ""},
        {"they", "그들", false, false, ""},
        {"my friend", "내 친구", true, true, ""},
        {"mom", "엄마", true, true, ""},
        {"dad", "아빠", true, true, ""},
        {"the children", "아이들", false, true, "-teach -sell -work"},
        {"the students", "학생들", false, true, "-teach"},
        {"minsu", "민수", true, true, ""},
        {"jimin", "지민", true, true, ""},
        {"seoyeon", "서연", true, true, ""},
        {"junho", "준호", true, true, ""},
        {"yuna", "유나", true, true, ""},
        {"hyunwoo", "현우", true, true, ""},
    };
    const VerbRow verbs[] = {
        {"like", "likes", "좋아해"},
        {"hate", "hates", "싫어해"},
        {"want", "wants", "원해"},
        {"eat", "eats", "먹어"},
        {"drink", "drinks", "마셔"},
        {"buy", "buys", "사"},
        {"sell", "sells", "팔아"},
        {"make", "makes", "만들어"},
        {"wash", "washes", "씻어"},
        {"draw", "draws", "그려"},
        {"find", "finds", "찾아"},
        {"see", "sees", "봐"},
        {"watch", "watches", "봐"},
        {"read", "reads", "읽어"},
        {"write", "writes", "써"},
        {"study", "studies", "공부해"},
        {"learn", "learns", "배워"},
        {"teach", "teaches", "가르쳐"},
        // The verbs of the place templates (no object noun):
        {"go", "goes", "가"},
        {"come", "comes", "와"},
        {"live", "lives", "살아"},
        {"work", "works", "일해"},
        {"visit", "visits", "방문해"},
    };
    const AdjectiveRow adjectives[] = {
        {"red", "빨간"},     {"blue", "파란"},    {"yellow", "노란"},      {"green", "초록색"},
        {"white", "하얀"},   {"black", "검은"},   {"brown", "갈색"},       {"pink", "분홍색"},
        {"big", "큰"},       {"small", "작은"},   {"new", "새"},           {"old", "오래된"},
        {"pretty", "예쁜"},  {"cute", "귀여운"},  {"cheap", "싼"},         {"expensive", "비싼"},
        {"sweet", "달콤한"}, {"fresh", "신선한"}, {"delicious", "맛있는"}, {"hot", "뜨거운"},
        {"cold", "차가운"},  {"warm", "따뜻한"},  {"spicy", "매운"},       {"interesting", "재미있는"},
        {"funny", "웃긴"},   {"sad", "슬픈"},     {"scary", "무서운"},     {"long", "긴"},
        {"short", "짧은"},   {"heavy", "무거운"}, {"fast", "빠른"},
    };
    const CategoryRow categories[] = {
        {"produce", "like hate want eat buy sell wash", "big small fresh delicious cheap expensive"},
        {"food", "like hate want eat buy sell make", "big small delicious cheap expensive"},
        {"baked", "like hate want eat buy sell make", "big small delicious cheap expensive"},
        {"drinks", "like hate want drink buy sell", "cheap expensive"},
        {"things", "like want buy sell draw find",
         "red blue yellow green white black big small new old pretty cheap expensive"},
        {"flowers", "like want buy sell draw see", "red yellow white pink big small pretty cheap expensive"},
        {"pets", "like hate want see draw", "big small white black brown cute"},
        {"wild", "like see draw", "big small cute"},
        {"readables", "like want read buy find", "new old interesting long short"},
        {"shows", "like hate watch", "new old interesting funny sad scary long short"},
        {"lessons", "like hate study learn teach", ""},
    };
    const NounRow nouns[] = {
        {"apples", "사과", "produce", "+red +green +sweet", ""},
        {"bananas", "바나나", "produce", "+yellow +sweet", ""},
        {"oranges", "오렌지", "produce", "+sweet", ""},
        {"grapes", "포도", "produce", "+green +sweet", ""},
        {"strawberries", "딸기", "produce", "+red +sweet", ""},
        {"peaches", "복숭아", "produce", "+sweet", ""},
        {"watermelons", "수박", "produce", "+sweet", ""},
        {"lemons", "레몬", "produce", "+yellow", ""},
        {"cherries", "체리", "produce", "+red +sweet", ""},
        {"pears", "배", "produce", "+sweet", ""},
        {"mangoes", "망고", "produce", "+yellow +sweet", ""},
        {"tomatoes", "토마토", "produce", "+red +green", ""},
        {"carrots", "당근", "produce", "", ""},
        {"potatoes", "감자", "produce", "", ""},
        {"cucumbers", "오이", "produce", "", ""},
        {"eggs", "달걀", "produce", "", ""},
        {"sandwiches", "샌드위치", "food", "", ""},
        {"pizza", "피자", "food", "+hot", ""},
        {"hamburgers", "햄버거", "food", "", ""},
        {"dumplings", "만두", "food", "+hot", ""},
        {"noodles", "국수", "food", "+hot +cold +spicy -big -small", ""},
        {"salad", "샐러드", "food", "+fresh", ""},
        {"soup", "수프", "food", "+hot +spicy -big -small", ""},
        {"kimchi", "김치", "food", "+spicy -big -small", ""},
        {"bread", "빵", "baked", "+warm", ""},
        {"cake", "케이크", "baked", "+sweet", ""},
        {"cookies", "쿠키", "baked", "+sweet +warm", ""},
        {"rice cakes", "떡", "baked", "+sweet", ""},
        {"milk", "우유", "drinks", "+cold +warm +fresh", ""},
        {"water", "물", "drinks", "+cold +hot", ""},
        {"juice", "주스", "drinks", "+cold +sweet", ""},
        {"tea", "차", "drinks", "+hot +cold +warm", ""},
        {"coffee", "커피", "drinks", "+hot +cold", ""},
        {"cola", "콜라", "drinks", "+cold", ""},
        {"bags", "가방", "things", "+heavy", ""},
        {"shoes", "신발", "things", "", ""},
        {"hats", "모자", "things", "", ""},
        {"cups", "컵", "things", "", ""},
        {"pens", "펜", "things", "", ""},
        {"pencils", "연필", "things", "", ""},
        {"shirts", "셔츠", "things", "", ""},
        {"umbrellas", "우산", "things", "", ""},
        {"balls", "공", "things", "", ""},
        {"chairs", "의자", "things", "+heavy", "+make"},
        {"boxes", "상자", "things", "+heavy", "+make"},
        {"cars", "자동차", "things", "+fast", ""},
        {"bikes", "자전거", "things", "+fast", ""},
        {"clocks", "시계", "things", "", ""},
        {"toys", "장난감", "things", "", "+make"},
        {"phones", "휴대폰", "things", "", ""},
        {"socks", "양말", "things", "", ""},
        {"gloves", "장갑", "things", "", ""},
        {"desks", "책상", "things", "+heavy", "+make"},
        {"flowers", "꽃", "flowers", "", ""},
        {"roses", "장미", "flowers", "", ""},
        {"tulips", "튤립", "flowers", "", ""},
        {"sunflowers", "해바라기", "flowers", "-red -white -pink", ""},
        {"dogs", "개", "pets", "", ""},
        {"cats", "고양이", "pets", "", ""},
        {"puppies", "강아지", "pets", "", ""},
        {"rabbits", "토끼", "pets", "", ""},
        {"hamsters", "햄스터", "pets", "", ""},
        {"lions", "사자", "wild", "", ""},
        {"tigers", "호랑이", "wild", "", ""},
        {"elephants", "코끼리", "wild", "", ""},
        {"bears", "곰", "wild", "+white +brown +black", ""},
        {"monkeys", "원숭이", "wild", "", ""},
        {"giraffes", "기린", "wild", "", ""},
        {"penguins", "펭귄", "wild", "", ""},
        {"books", "책", "readables", "+big +small +heavy", "+sell"},
        {"letters", "편지", "readables", "", "-buy +write"},
        {"novels", "소설", "readables", "+sad +scary", "+write +sell"},
        {"poems", "시", "readables", "+sad", "+write -find"},
        {"comics", "만화책", "readables", "+funny", "+sell"},
        {"stories", "이야기", "readables", "+funny +sad +scary", "+write -buy -find"},
        {"movies", "영화", "shows", "", "+make"},
        {"dramas", "드라마", "shows", "", ""},
        {"cartoons", "만화", "shows", "", ""},
        {"videos", "영상", "shows", "", "+make"},
        {"math", "수학", "lessons", "", ""},
        {"science", "과학", "lessons", "", ""},
        {"english", "영어", "lessons", "", ""},
        {"korean", "한국어", "lessons", "", ""},
        {"music", "음악", "lessons", "", ""},
        {"history", "역사", "lessons", "", ""},
        {"art", "미술", "lessons", "", ""},
    };
    // "at the park" -> 공원 에서; "go to the park" -> 공원 에; "visit the park" -> 공원 을.
    const PlaceRow places[] = {
        {"school", "학교", "at", false, false, true},
        {"the park", "공원", "at", false, true, false},
        {"the library", "도서관", "at", false, true, true},
        {"the market", "시장", "at", false, true, true},
        {"the store", "가게", "at", false, false, true},
        {"the supermarket", "마트", "at", false, false, true},
        {"the bakery", "빵집", "at", false, false, true},
        {"the bookstore", "서점", "at", false, false, true},
        {"the restaurant", "식당", "at", false, false, true},
        {"the cafe", "카페", "at", false, false, true},
        {"the kitchen", "부엌", "in", false, false, true},
        {"the classroom", "교실", "in", false, false, false},
        {"the garden", "정원", "in", false, true, true},
        {"the zoo", "동물원", "at", false, true, true},
        {"the hospital", "병원", "at", false, true, true},
        {"the office", "사무실", "at", false, false, true},
        {"the station", "역", "at", false, false, true},
        {"the museum", "박물관", "at", false, true, true},
        {"the theater", "극장", "at", false, false, true},
        {"the playground", "놀이터", "at", false, false, false},
        {"the farm", "농장", "on", false, true, true},
        {"the beach", "해변", "at", false, true, false},
        {"seoul", "서울", "in", true, true, true},
        {"busan", "부산", "in", true, true, true},
        {"tokyo", "도쿄", "in", true, true, true},
        {"london", "런던", "in", true, true, true},
        {"paris", "파리", "in", true, true, true},
        {"beijing", "베이징", "in", true, true, true},
        {"sydney", "시드니", "in", true, true, true},
    };
    const SceneRow scenes[] = {
        {"eat", "produce food baked", "the park,school,the restaurant,the cafe,the kitchen,the beach"},
        {"drink", "drinks", "the park,school,the cafe,the restaurant,the kitchen,the office,the beach"},
        {"buy sell", "produce food drinks", "the market,the store,the supermarket"},
        {"buy sell", "baked", "the bakery,the market,the supermarket"},
        {"buy sell", "things", "the market,the store"},
        {"buy sell", "flowers", "the market"},
        {"buy sell", "readables", "the bookstore"},
        {"read", "readables", "the library,school,the park,the cafe,the classroom"},
        {"write", "readables", "the library,school,the cafe,the classroom"},
        {"see", "pets", "the park,the farm"},
        {"see", "wild", "the zoo"},
        {"see", "flowers", "the park,the garden"},
        {"draw", "things pets wild flowers", "the park,school,the classroom"},
        {"study learn", "lessons", "the library,school,the classroom"},
        {"teach", "lessons", "school,the classroom"},
        {"make", "food baked", "the kitchen"},
        {"wash", "produce", "the kitchen"},
        {"find", "things", "the park,school,the classroom"},
        {"find", "readables", "the library"},
    };

    EnKoLexicon lex;
    for (const VerbRow& r : verbs) lex.verbs.push_back({r.en, r.en_3s, r.ko});
    for (const SubjectRow& r : subjects) {
        EnKoSubject subject{r.en, r.ko, r.third_person, r.can_accompany, {}};
        for (size_t v = 0; v < lex.verbs.size(); ++v) subject.verbs.push_back(static_cast<int>(v));
        apply_changes(subject.verbs, lex.verbs, r.verb_changes);
        lex.subjects.push_back(std::move(subject));
    }
    for (const AdjectiveRow& r : adjectives) lex.adjectives.push_back({r.en, r.ko});
    for (const PlaceRow& r : places) lex.places.push_back({r.en, r.ko, r.at, r.is_city, r.can_visit, r.can_work});
    lex.go = require_en(lex.verbs, "go");
    lex.come = require_en(lex.verbs, "come");
    lex.live = require_en(lex.verbs, "live");
    lex.work = require_en(lex.verbs, "work");
    lex.visit = require_en(lex.verbs, "visit");

    std::vector<std::string> noun_category;  // noun index -> category name
    for (const NounRow& r : nouns) {
        const CategoryRow* category = nullptr;
        for (const CategoryRow& c : categories) {
            if (std::string_view(c.name) == r.category) category = &c;
        }
        assert(category != nullptr && "noun names an unknown category");
        EnKoNoun noun{r.en, r.ko, indices_of(lex.verbs, category->verbs),
                      indices_of(lex.adjectives, category->adjectives)};
        apply_changes(noun.adjectives, lex.adjectives, r.adjective_changes);
        apply_changes(noun.verbs, lex.verbs, r.verb_changes);
        assert(!noun.verbs.empty());
        lex.nouns.push_back(std::move(noun));
        noun_category.emplace_back(r.category);
    }

    // One scene per (verb, noun) the rows allow, in row order; a noun only gets the verbs it takes.
    for (const SceneRow& r : scenes) {
        std::vector<int> scene_places;
        for (const std::string& place : split(r.places, ',')) scene_places.push_back(require_en(lex.places, place));
        const std::vector<std::string> scene_categories = split(r.categories, ' ');
        for (const int verb : indices_of(lex.verbs, r.verbs)) {
            for (size_t n = 0; n < lex.nouns.size(); ++n) {
                const std::vector<int>& noun_verbs = lex.nouns[n].verbs;
                const bool fits = std::find(scene_categories.begin(), scene_categories.end(), noun_category[n]) !=
                                      scene_categories.end() &&
                                  std::find(noun_verbs.begin(), noun_verbs.end(), verb) != noun_verbs.end();
                if (fits) lex.scenes.push_back({verb, static_cast<int>(n), scene_places});
            }
        }
    }
    return lex;
}

int find_subject(const EnKoLexicon& lexicon, const std::string& en) { return index_by_en(lexicon.subjects, en); }
int find_verb(const EnKoLexicon& lexicon, const std::string& en) { return index_by_en(lexicon.verbs, en); }
int find_adjective(const EnKoLexicon& lexicon, const std::string& en) { return index_by_en(lexicon.adjectives, en); }
int find_noun(const EnKoLexicon& lexicon, const std::string& en) { return index_by_en(lexicon.nouns, en); }
int find_place(const EnKoLexicon& lexicon, const std::string& en) { return index_by_en(lexicon.places, en); }

}  // namespace attnlab
