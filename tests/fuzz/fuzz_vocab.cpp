// libFuzzer target: Vocab::from_json and Vocab::from_lines on arbitrary text.
// Properties: errors are one line; a vocab that reads has unique, non-empty, valid UTF-8
// tokens that find() maps back to their ids; to_json -> from_json gives the same tokens.
#include "fuzz_common.h"
#include "text/utf8.h"
#include "text/vocab.h"

#include <cstdint>
#include <string>
#include <string_view>

using namespace attnlab;

namespace {

void check_vocab(const Vocab& v, const char* how) {
    FUZZ_CHECK(v.size() > 0, std::string(how) + ": empty vocab accepted");
    for (int id = 0; id < v.size(); ++id) {
        const std::string& t = v.token(id);
        FUZZ_CHECK(!t.empty() && is_valid_utf8(t), std::string(how) + ": bad token at id " + std::to_string(id));
        auto found = v.find(t);
        FUZZ_CHECK(found && *found == id,
                   std::string(how) + ": find() does not map token back to id " + std::to_string(id));
    }
    const std::string json = v.to_json();
    auto again = Vocab::from_json(json);
    FUZZ_CHECK(again.ok(),
               std::string(how) + ": to_json -> from_json failed: " + (again.ok() ? "" : again.error().message));
    FUZZ_CHECK(again->tokens() == v.tokens(), std::string(how) + ": tokens changed in to_json -> from_json");
    FUZZ_CHECK(again->to_json() == json, std::string(how) + ": to_json is not stable");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    auto from_json = Vocab::from_json(text);
    if (from_json)
        check_vocab(*from_json, "from_json");
    else
        FUZZ_CHECK(is_one_line(from_json.error().message), "bad error message: " + from_json.error().message);

    auto from_lines = Vocab::from_lines(text);
    if (from_lines)
        check_vocab(*from_lines, "from_lines");
    else
        FUZZ_CHECK(is_one_line(from_lines.error().message), "bad error message: " + from_lines.error().message);
    return 0;
}
