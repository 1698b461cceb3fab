// libFuzzer target: a SentencePiece model file (tokenizer.model, Marian's source.spm) read by Debian's
// libsentencepiece through text/sentencepiece_model.h and used as Llama 2's tokenizer.model
// (text/sentencepiece_tokenizer.h).
// Input: one byte of options (bit 0: add_bos, bit 1: add_eos), the model's bytes, then optionally the text
// to encode after the 8 bytes "\0\0TEXT\0\0" (a serialized model may hold any byte):
//   [options][tokenizer.model]["\0\0TEXT\0\0"][text]
// Properties: a model that is refused gets one line of UTF-8 naming the file; a model that is read encodes
// the text, a fixed sample and a piece of the model's bytes as every subword tokenizer must
// (fuzz_subword_checks.h), with <s> first and </s> last when asked; encode errors only on invalid UTF-8.
#include "fuzz_common.h"
#include "fuzz_subword_checks.h"
#include "text/sentencepiece_tokenizer.h"
#include "text/utf8.h"

#include <cstdint>
#include <string>
#include <string_view>

using namespace attnlab;

namespace {

constexpr std::string_view kFile = "tokenizer.model";
constexpr std::string_view kTextMark("\0\0TEXT\0\0", 8);

void encode_and_decode(const SentencePieceTokenizer& t, SentencePieceOptions options, std::string_view text) {
    const auto e = encode_checked(t, text, "SentencePiece");
    if (!e) return;
    const std::vector<int>& ids = e->tokens.ids;
    if (options.add_bos) FUZZ_CHECK(!ids.empty() && ids.front() == *t.bos_id(), "<s> is not first");
    if (options.add_eos) FUZZ_CHECK(!ids.empty() && e->spans.back().begin == text.size(), "</s> is not last");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const SentencePieceOptions options{.add_bos = (data[0] & 1) != 0, .add_eos = (data[0] & 2) != 0};
    const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
    const size_t mark = input.find(kTextMark);
    const std::string_view model = input.substr(0, mark);
    const std::string_view text =
        mark == std::string_view::npos ? std::string_view() : input.substr(mark + kTextMark.size());

    auto t = SentencePieceTokenizer::from_model({kFile, model}, options);
    if (!t) {
        check_error(t.error(), std::string(kFile) + ": ");
        return 0;
    }
    FUZZ_CHECK(t->vocab().size() >= 1, "a model without pieces was read");
    encode_and_decode(*t, options, text);
    encode_and_decode(*t, options, kFuzzSampleText);
    encode_and_decode(*t, options, model.substr(0, 256));
    return 0;
}
