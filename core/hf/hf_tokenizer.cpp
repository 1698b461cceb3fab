// The tokenizer seam: today it only finds the folder's tokenizer files (see hf_tokenizer.h).
#include "hf/hf_tokenizer.h"

#include "io/file_bytes.h"

namespace attnlab {

Result<std::vector<std::string>> attach_tokenizer(const std::string& dir, Model& /*model: gets the tokenizer*/) {
    std::vector<std::string> found;
    for (const char* name : {"vocab.json", "merges.txt", "vocab.txt", "tokenizer.json", "tokenizer_config.json"})
        if (io::is_regular_file(dir + "/" + name)) found.push_back(name);
    return found;
}

}  // namespace attnlab
