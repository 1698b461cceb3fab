// libFuzzer target: a Hugging Face tokenizer.json read (text/tokenizer_json.h) and then used.
// Input: the file, then optionally a NUL byte and a text to encode (JSON text holds no raw NUL):
//   [tokenizer.json]\0[text]
// Properties: a file that is refused gets one line of UTF-8 naming it; a file that is read has each id of
// its record inside its vocabulary (the bytes' first tokens, the added tokens, the template's tokens), and
// encodes the text, a fixed sample and a piece of the file itself as every subword tokenizer must
// (fuzz_subword_checks.h); encode errors only on invalid UTF-8.
#include "fuzz_common.h"
#include "fuzz_subword_checks.h"
#include "text/json_bpe.h"
#include "text/tokenizer_json.h"
#include "text/utf8.h"

#include <cstdint>
#include <string>
#include <string_view>

using namespace attnlab;

namespace {

constexpr std::string_view kFile = "tokenizer.json";

void check_record(const TokenizerJson& record) {
    const int v = record.vocab.size();
    for (int id : record.byte_ids) FUZZ_CHECK(id >= 0 && id < v, "a byte's token is outside the vocabulary");
    for (const JsonAddedToken& a : record.added_tokens) {
        FUZZ_CHECK(a.id >= 0 && a.id < v, "added token " + a.content + " is outside the vocabulary");
        FUZZ_CHECK(record.vocab.token(a.id) == a.content, "added token " + a.content + " is another id's token");
    }
    for (const auto* side : {&record.before_text, &record.after_text})
        for (const TemplateToken& t : *side)
            FUZZ_CHECK(t.id >= 0 && t.id < v, "template token " + t.token + " is outside the vocabulary");
}

void encode_and_decode(const JsonBpeTokenizer& t, std::string_view text) {
    const auto e = encode_checked(t, text, "tokenizer.json");
    if (!e) return;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t nul = input.find('\0');
    const std::string_view file = input.substr(0, nul);
    const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);

    auto record = read_tokenizer_json({kFile, file});
    auto tokenizer = JsonBpeTokenizer::from_json({kFile, file});
    FUZZ_CHECK(record.ok() == tokenizer.ok(), "the record and the tokenizer disagree on whether the file reads");
    if (!tokenizer) {
        check_error(tokenizer.error(), std::string(kFile) + ": ");
        return 0;
    }
    check_record(*record);
    FUZZ_CHECK(tokenizer->vocab().size() == record->vocab.size(), "the tokenizer's vocabulary is not the record's");
    encode_and_decode(*tokenizer, text);
    encode_and_decode(*tokenizer, kFuzzSampleText);
    encode_and_decode(*tokenizer, file.substr(0, 256));
    return 0;
}
