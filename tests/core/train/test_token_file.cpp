// Tests for core/train/token_file: the token-ids format and every one of its errors, the vocabulary check, and
// text through a model's tokenizer (character, GPT-2's byte-level BPE, WordPiece) as one stream.
#include "io/file_bytes.h"
#include "text/byte_level_bpe.h"
#include "text/wordpiece.h"
#include "train/token_file.h"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/";

std::vector<int> ids_or_fail(std::string_view text) {
    Result<std::vector<int>> ids = parse_token_ids(text, "ids.txt");
    INFO(text);
    REQUIRE(ids.ok());
    return std::move(ids).value();
}

std::string ids_error(std::string_view text) {
    Result<std::vector<int>> ids = parse_token_ids(text, "ids.txt");
    INFO(text);
    REQUIRE_FALSE(ids.ok());
    return ids.error().message;
}

// A file under the temp directory, removed when this goes out of scope.
struct TempFile {
    std::string path;
    TempFile(const std::string& name, const std::string& bytes)
        : path((std::filesystem::temp_directory_path() / ("attnlab-" + std::to_string(::getpid()) + "-" + name))
                   .string()) {
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

std::string read_fixture(const std::string& name) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(kFixtures + name);
    REQUIRE(bytes.ok());
    return std::string(bytes->begin(), bytes->end());
}

// The character tokenizer over default_char_vocab(): <pad> <sos> <eos> <unk>, then ' ' … '~' (c → c − 28).
Model char_model() {
    Model m;
    m.tgt_vocab = default_char_vocab();
    m.tokenizer = TokenizerKind::character;
    return m;
}

// A model that reads text through `tokenizer` (only the parts encode_text_ids looks at).
Model subword_model(std::shared_ptr<const SubwordTokenizer> tokenizer) {
    Model m;
    m.tgt_vocab = tokenizer->vocab();
    m.subword_tokenizer = std::move(tokenizer);
    return m;
}

Model gpt2_model() {
    Result<ByteLevelBpeTokenizer> t = ByteLevelBpeTokenizer::from_files(
        {"vocab.json", read_fixture("gpt2/vocab.json")}, {"merges.txt", read_fixture("gpt2/merges.txt")});
    REQUIRE(t.ok());
    return subword_model(std::make_shared<ByteLevelBpeTokenizer>(std::move(t).value()));
}

TextIds text_ids_or_fail(std::string_view text, const Model& model) {
    Result<TextIds> ids = encode_text_ids(text, "notes.txt", model);
    REQUIRE(ids.ok());
    return std::move(ids).value();
}

}  // namespace

TEST_CASE("token ids: white space, commas and one pair of brackets separate ids", "[token_file]") {
    CHECK(ids_or_fail("1 2 3\n") == std::vector<int>{1, 2, 3});
    CHECK(ids_or_fail("[1, 2, 3]") == std::vector<int>{1, 2, 3});
    CHECK(ids_or_fail("\n  [ 7 ,8,\r\n9 ]  \n") == std::vector<int>{7, 8, 9});
    CHECK(ids_or_fail(",1,,2,\n3,") == std::vector<int>{1, 2, 3});
    CHECK(ids_or_fail("1\t2\v3\f4\r5") == std::vector<int>{1, 2, 3, 4, 5});
    CHECK(ids_or_fail("007 0 2147483647") == std::vector<int>{7, 0, 2147483647});
    CHECK(ids_or_fail("42") == std::vector<int>{42});
    CHECK(ids_or_fail("[5]") == std::vector<int>{5});
}

TEST_CASE("token ids: every error is one line naming the place and the text", "[token_file]") {
    CHECK(ids_error("") == "ids.txt holds no token ids");
    CHECK(ids_error(" ,\n, ") == "ids.txt holds no token ids");
    CHECK(ids_error("[ ]") == "ids.txt holds no token ids");
    CHECK(ids_error("1 2\n3 1.5 4") ==
          "ids.txt line 2, column 3: \"1.5\" is not a token id (ids are digits 0-9, at most 2147483647)");
    CHECK(ids_error("-3") ==
          "ids.txt line 1, column 1: \"-3\" is not a token id (ids are digits 0-9, at most 2147483647)");
    CHECK(ids_error("1 +2") ==
          "ids.txt line 1, column 3: \"+2\" is not a token id (ids are digits 0-9, at most 2147483647)");
    CHECK(ids_error("[1, 2x]") ==
          "ids.txt line 1, column 5: \"2x\" is not a token id (ids are digits 0-9, at most 2147483647)");
    CHECK(ids_error("1 사과") ==
          "ids.txt line 1, column 3: \"사과\" is not a token id (ids are digits 0-9, at most 2147483647)");
    // Control characters and bytes that are not UTF-8 are escaped, so the message stays one line.
    CHECK(ids_error("1 a\rb") ==
          "ids.txt line 1, column 3: \"a\" is not a token id (ids are digits 0-9, at most 2147483647)");
    CHECK(ids_error("1 a\x01\xFF") ==
          "ids.txt line 1, column 3: \"a\\x01\\xFF\" is not a token id (ids are digits 0-9, at most 2147483647)");
    // A long run is cut after 24 bytes.
    CHECK(ids_error("1 abcdefghijklmnopqrstuvwxyz") ==
          "ids.txt line 1, column 3: \"abcdefghijklmnopqrstuvwx…\" is not a token id (ids are digits 0-9, at most "
          "2147483647)");
    CHECK(ids_error("2147483648") == "ids.txt line 1, column 1: \"2147483648\" is above the largest id, 2147483647");
    CHECK(ids_error("1\n 99999999999999999999999999999") ==
          "ids.txt line 2, column 2: \"999999999999999999999999…\" is above the largest id, 2147483647");
    CHECK(ids_error("  [1, 2") == "ids.txt line 1, column 3: '[' has no ']' at the end of the file to close it");
    CHECK(ids_error("[1, 2] 3") == "ids.txt line 1, column 1: '[' has no ']' at the end of the file to close it");
    CHECK(ids_error("[") == "ids.txt line 1, column 1: '[' has no ']' at the end of the file to close it");
    CHECK(ids_error("1, 2]") ==
          "ids.txt line 1, column 5: ']' may only open the file and close it, around all the ids");
    CHECK(ids_error("[[1]]") ==
          "ids.txt line 1, column 2: '[' may only open the file and close it, around all the ids");
    CHECK(ids_error("[1], [2]") ==
          "ids.txt line 1, column 3: ']' may only open the file and close it, around all the ids");
}

TEST_CASE("token ids: read from a file, whose errors name it", "[token_file]") {
    const TempFile good("good-ids.txt", "[3, 1,\n4]\n");
    Result<std::vector<int>> ids = read_token_ids(good.path);
    REQUIRE(ids.ok());
    CHECK(*ids == std::vector<int>{3, 1, 4});

    const TempFile bad("bad-ids.txt", "3 1\n4 x\n");
    Result<std::vector<int>> error = read_token_ids(bad.path);
    REQUIRE_FALSE(error.ok());
    const std::string expected =
        bad.path + " line 2, column 3: \"x\" is not a token id (ids are digits 0-9, at most 2147483647)";
    CHECK(error.error().message == expected);

    const TempFile empty("empty-ids.txt", "");
    Result<std::vector<int>> none = read_token_ids(empty.path);
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message == empty.path + " holds no token ids");

    Result<std::vector<int>> missing = read_token_ids(good.path + "-missing");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == good.path + "-missing: no such file");
}

TEST_CASE("token ids: an id outside the vocabulary is named with its position", "[token_file]") {
    CHECK(check_ids_in_vocab({0, 4, 2}, 5).ok());
    const Status st = check_ids_in_vocab({1, 3, 5, 9}, 5);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message == "token id 5 at position 2 is outside the model's vocabulary of 5 ids (0 … 4)");
}

TEST_CASE("text ids: the character tokenizer, a newline included", "[token_file]") {
    // 'a' = 97 − 28 = 69, ' ' = 4; "\n" is not in default_char_vocab, so it is <unk> (3).
    const TextIds t = text_ids_or_fail("ab c\nd", char_model());
    CHECK(t.ids == std::vector<int>{69, 70, 4, 71, 3, 72});
    CHECK(t.n_unknown == 1);
}

TEST_CASE("text ids: GPT-2's byte-level BPE, long text in pieces that give the tokens of the whole", "[token_file]") {
    const Model m = gpt2_model();
    const TextIds short_text = text_ids_or_fail("the cat", m);
    CHECK(short_text.ids == m.subword_tokenizer->encode("the cat")->tokens.ids);
    CHECK(short_text.n_unknown == 0);

    // The place to cut is searched from byte kTextPieceBytes − 1, here the first "\n" of a run that GPT-2 reads
    // as "\n\n\n\n " (merged: ĊĊ ĊĊ Ġ) before " the". Cut after that "\n", the tokens would be Ċ | ĊĊ Ċ Ġ; the
    // piece ends after "cat\n" instead, the first "\n" before a byte that is not white space.
    const std::string text =
        std::string(static_cast<size_t>(kTextPieceBytes) - 1, 'x') + "\n\n\n\n  the cat\nsat\n\n  on the mat\n";
    const TextIds whole = text_ids_or_fail(text, m);
    CHECK(whole.ids == m.subword_tokenizer->encode(text)->tokens.ids);

    // One long line has no place to cut: one piece.
    const std::string line(static_cast<size_t>(kTextPieceBytes) + 100, 'a');
    CHECK(text_ids_or_fail(line, m).ids == m.subword_tokenizer->encode(line)->tokens.ids);
}

TEST_CASE("text ids: the tokens a tokenizer adds to each text are left out", "[token_file]") {
    // BERT's WordPiece puts [CLS] (2) before every text and [SEP] (3) after it; vocab.txt: the = 5, cat = 6, sat = 7.
    Result<WordPieceTokenizer> wp = WordPieceTokenizer::from_file({"vocab.txt", read_fixture("bert/vocab.txt")}, {});
    REQUIRE(wp.ok());
    const Model m = subword_model(std::make_shared<WordPieceTokenizer>(std::move(wp).value()));
    REQUIRE(m.subword_tokenizer->encode("the cat sat")->tokens.ids == std::vector<int>{2, 5, 6, 7, 3});
    CHECK(text_ids_or_fail("the cat sat", m).ids == std::vector<int>{5, 6, 7});
    // Spelled in the text, a special token stays; a word the vocabulary lacks is [UNK] (1) and counted.
    const TextIds t = text_ids_or_fail("[SEP] the dog", m);
    CHECK(t.ids == std::vector<int>{3, 5, 1});
    CHECK(t.n_unknown == 1);
}

TEST_CASE("text ids: errors", "[token_file]") {
    const Model m = char_model();
    const std::string not_utf8 = std::string("ok\nab") + '\xFF' + "c\n";
    Result<TextIds> bad = encode_text_ids(not_utf8, "notes.txt", m);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message ==
          "notes.txt line 2: invalid UTF-8 at byte offset 2: byte 0xF5..0xFF never occurs in UTF-8");

    Result<TextIds> empty = encode_text_ids("", "notes.txt", m);
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message == "notes.txt gives no tokens");

    Result<TextIds> no_vocab = encode_text_ids("abc", "notes.txt", Model{});
    REQUIRE_FALSE(no_vocab.ok());
    CHECK(no_vocab.error().message == "this model has no vocabulary to read notes.txt; give token ids");

    const TempFile file("text.txt", "hi\n");
    Result<TextIds> read = read_text_ids(file.path, m);
    REQUIRE(read.ok());
    CHECK(read->ids == std::vector<int>{'h' - 28, 'i' - 28, 3});
    Result<TextIds> missing = read_text_ids(file.path + "-missing", m);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == file.path + "-missing: no such file");
}
