// libFuzzer target: parse_token_ids (a file of token ids) on arbitrary bytes, the windows cut from what reads,
// and encode_text_ids through the character tokenizer.
// Properties: errors are one line; ids that read are 0 … INT_MAX and read back the same when written out with
// spaces or as a JSON array; every batch row is a window of the stream, its targets its inputs moved by one.
#include "fuzz_common.h"
#include "train/token_file.h"
#include "train/token_windows.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace attnlab;

namespace {

void check_reads_back(const std::vector<int>& ids) {
    std::string spaced, json = "[";
    for (size_t i = 0; i < ids.size(); ++i) {
        FUZZ_CHECK(ids[i] >= 0 && ids[i] <= INT_MAX, "id out of range");
        spaced += std::to_string(ids[i]) + (i + 1 < ids.size() ? " " : "\n");
        json += std::to_string(ids[i]) + (i + 1 < ids.size() ? ", " : "]");
    }
    for (const std::string& text : {spaced, json}) {
        Result<std::vector<int>> again = parse_token_ids(text, "again");
        FUZZ_CHECK(again.ok() && *again == ids, "ids written out do not read back: " + text.substr(0, 80));
    }
}

// Windows of T = 1 … 8 ids, B = 1 … 4 rows, shuffled or not, from the input's first bytes.
void check_windows(const std::vector<int>& ids, const uint8_t* data, size_t size) {
    const int T = 1 + (size > 0 ? data[0] % 8 : 0), B = 1 + (size > 1 ? data[1] % 4 : 0);
    const std::optional<uint64_t> seed = size > 2 && data[2] % 2 ? std::optional<uint64_t>(data[2]) : std::nullopt;
    Result<TokenWindows> made = TokenWindows::make(ids, T, B, seed);
    const int64_t n = static_cast<int64_t>(ids.size());
    if (!made) {
        FUZZ_CHECK(n < T + 1 && is_one_line(made.error().message), "windows refused: " + made.error().message);
        return;
    }
    TokenWindows& w = *made;
    FUZZ_CHECK(w.n_windows() == (n - 1) / T, "n_windows is not floor((n - 1) / T)");
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{1000003}}) {
        const WindowBatch batch = w.batch(k);
        FUZZ_CHECK(batch.B == B && batch.T == T, "batch shape");
        for (int b = 0; b < B; ++b) {
            const int64_t v = batch.windows[static_cast<size_t>(b)];
            FUZZ_CHECK(v >= 0 && v < w.n_windows(), "window index out of range");
            for (int t = 0; t < T; ++t) {
                const size_t at = static_cast<size_t>(b) * T + t;
                FUZZ_CHECK(batch.inputs[at] == ids[static_cast<size_t>(v * T + t)], "input is not the window's id");
                FUZZ_CHECK(batch.targets[at] == ids[static_cast<size_t>(v * T + t + 1)], "target is not the next id");
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    Result<std::vector<int>> ids = parse_token_ids(text, "fuzz.txt");
    if (ids) {
        FUZZ_CHECK(!ids->empty(), "no ids accepted");
        check_reads_back(*ids);
        check_windows(*ids, data, size);
        FUZZ_CHECK(check_ids_in_vocab(*ids, INT_MAX).ok() == (*std::max_element(ids->begin(), ids->end()) < INT_MAX),
                   "check_ids_in_vocab disagrees with the largest id");
    } else {
        FUZZ_CHECK(is_one_line(ids.error().message), "bad error message: " + ids.error().message);
    }

    Model model;
    model.tgt_vocab = default_char_vocab();
    model.tokenizer = TokenizerKind::character;
    Result<TextIds> text_ids = encode_text_ids(text, "fuzz.txt", model);
    if (text_ids) {
        for (int id : text_ids->ids) FUZZ_CHECK(id >= 0 && id < model.tgt_vocab->size(), "text id outside the vocab");
    } else {
        FUZZ_CHECK(is_one_line(text_ids.error().message), "bad error message: " + text_ids.error().message);
    }
    return 0;
}
