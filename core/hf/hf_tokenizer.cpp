// Reading a Hugging Face folder's tokenizer files and putting the tokenizer on its model.
#include "hf/hf_tokenizer.h"

#include "io/file_bytes.h"
#include "text/byte_level_bpe.h"
#include "text/json_bpe.h"
#include "text/marian_tokenizer.h"
#include "text/sentencepiece_tokenizer.h"
#include "text/wordpiece.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>

namespace attnlab {

namespace {

struct FileText {
    std::string name;  // as errors show it
    std::string text;

    TokenizerFile view() const { return {name, text}; }
};

// What a folder's tokenizer files make: one tokenizer for its text, or Marian's two.
struct FolderTokenizers {
    std::shared_ptr<const SubwordTokenizer> text;    // null: no tokenizer files
    std::shared_ptr<const SubwordTokenizer> target;  // set when the target side has its own (Marian)
};

Result<std::optional<FileText>> read_if_present(const std::string& dir, const char* file_name) {
    const std::string path = dir + "/" + file_name;
    if (!io::is_regular_file(path)) return std::optional<FileText>();
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    return std::optional<FileText>(FileText{io::display_path(path), std::string(bytes->begin(), bytes->end())});
}

// tokenizer_config.json as a JSON object, or an error naming it.
Result<nlohmann::json> config_object(const FileText& file) {
    auto json = nlohmann::json::parse(file.text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object()) return Error{file.name + ": not a JSON object"};
    return json;
}

// tokenizer_config.json's lower-casing settings; absent fields keep BERT's defaults.
Result<WordPieceOptions> read_wordpiece_options(const std::optional<FileText>& file) {
    WordPieceOptions options;
    if (!file) return options;
    const auto parsed = config_object(*file);
    if (!parsed) return parsed.error();
    const nlohmann::json& json = *parsed;
    if (auto it = json.find("do_lower_case"); it != json.end()) {
        if (!it->is_boolean()) return Error{file->name + ": \"do_lower_case\" is not true or false"};
        options.lower_case = it->get<bool>();
    }
    if (auto it = json.find("strip_accents"); it != json.end() && !it->is_null()) {
        if (!it->is_boolean()) return Error{file->name + ": \"strip_accents\" is not true, false or null"};
        options.strip_accents = it->get<bool>();
    }
    return options;
}

// tokenizer_config.json's add_bos_token and add_eos_token; absent or null fields keep the family's defaults
// (LlamaTokenizer's unless given).
Result<SentencePieceOptions> read_sentencepiece_options(const std::optional<FileText>& file,
                                                        SentencePieceOptions options = {}) {
    if (!file) return options;
    const auto json = config_object(*file);
    if (!json) return json.error();
    for (auto [key, flag] : {std::pair{"add_bos_token", &options.add_bos}, {"add_eos_token", &options.add_eos}}) {
        const auto it = json->find(key);
        if (it == json->end() || it->is_null()) continue;
        if (!it->is_boolean()) return Error{file->name + ": \"" + key + "\" is not true or false"};
        *flag = it->get<bool>();
    }
    return options;
}

Result<std::shared_ptr<const SubwordTokenizer>> read_gpt2_tokenizer(const std::string& dir, AttachedTokenizer& seen) {
    auto vocab = read_if_present(dir, "vocab.json");
    if (!vocab) return vocab.error();
    auto merges = read_if_present(dir, "merges.txt");
    if (!merges) return merges.error();
    if (!*vocab && !*merges) return std::shared_ptr<const SubwordTokenizer>();
    if (!*vocab || !*merges)
        return Error{io::display_path(dir) + ": has " + (*vocab ? "vocab.json" : "merges.txt") + " but not " +
                     (*vocab ? "merges.txt" : "vocab.json") + "; GPT-2's tokenizer needs both"};
    auto tokenizer = ByteLevelBpeTokenizer::from_files((*vocab)->view(), (*merges)->view());
    if (!tokenizer) return tokenizer.error();
    seen.files_read = {"vocab.json", "merges.txt"};
    return std::shared_ptr<const SubwordTokenizer>(std::make_shared<ByteLevelBpeTokenizer>(std::move(*tokenizer)));
}

Result<std::shared_ptr<const SubwordTokenizer>> read_bert_tokenizer(const std::string& dir, AttachedTokenizer& seen) {
    auto vocab = read_if_present(dir, "vocab.txt");
    if (!vocab) return vocab.error();
    if (!*vocab) return std::shared_ptr<const SubwordTokenizer>();
    auto config = read_if_present(dir, "tokenizer_config.json");
    if (!config) return config.error();
    auto options = read_wordpiece_options(*config);
    if (!options) return options.error();
    auto tokenizer = WordPieceTokenizer::from_file((*vocab)->view(), *options);
    if (!tokenizer) return tokenizer.error();
    seen.files_read = {"vocab.txt"};
    if (*config) seen.files_read.push_back("tokenizer_config.json");
    return std::shared_ptr<const SubwordTokenizer>(std::make_shared<WordPieceTokenizer>(std::move(*tokenizer)));
}

// A folder's tokenizer.json (byte-level BPE, BPE with byte fallback, or Unigram), with the tokens its template
// adds; null when the folder has none.
Result<std::shared_ptr<const SubwordTokenizer>> read_json_tokenizer(const std::string& dir, AttachedTokenizer& seen) {
    auto file = read_if_present(dir, "tokenizer.json");
    if (!file) return file.error();
    if (!*file) return std::shared_ptr<const SubwordTokenizer>();
    auto tokenizer = JsonBpeTokenizer::from_json((*file)->view());
    if (!tokenizer) return tokenizer.error();
    seen.files_read = {"tokenizer.json"};
    return std::shared_ptr<const SubwordTokenizer>(std::make_shared<JsonBpeTokenizer>(std::move(*tokenizer)));
}

// The Llama template's tokenizer.json: byte-level BPE or BPE with byte fallback, with the BOS its template adds.
// Without one, its tokenizer.model (SentencePiece), with tokenizer_config.json's add_bos_token and add_eos_token.
Result<std::shared_ptr<const SubwordTokenizer>> read_llama_tokenizer(const std::string& dir, AttachedTokenizer& seen) {
    auto json_tokenizer = read_json_tokenizer(dir, seen);
    if (!json_tokenizer || *json_tokenizer) return json_tokenizer;
    auto model = read_if_present(dir, "tokenizer.model");
    if (!model) return model.error();
    if (!*model) return std::shared_ptr<const SubwordTokenizer>();
    auto config = read_if_present(dir, "tokenizer_config.json");
    if (!config) return config.error();
    auto options = read_sentencepiece_options(*config);
    if (!options) return options.error();
    auto tokenizer = SentencePieceTokenizer::from_model((*model)->view(), *options);
    if (!tokenizer) return tokenizer.error();
    seen.files_read = {"tokenizer.model"};
    if (*config) seen.files_read.push_back("tokenizer_config.json");
    return std::shared_ptr<const SubwordTokenizer>(std::make_shared<SentencePieceTokenizer>(std::move(*tokenizer)));
}

// Marian's source.spm (source text), target.spm (target text) and vocab.json (the ids of both).
Result<FolderTokenizers> read_marian_tokenizers(const std::string& dir, AttachedTokenizer& seen) {
    const char* names[3] = {"source.spm", "target.spm", "vocab.json"};
    std::optional<FileText> files[3];
    for (int k = 0; k < 3; ++k) {
        auto file = read_if_present(dir, names[k]);
        if (!file) return file.error();
        files[k] = std::move(*file);
    }
    if (!files[0] && !files[1] && !files[2]) return FolderTokenizers{};
    for (int k = 0; k < 3; ++k)
        if (!files[k])
            return Error{io::display_path(dir) + ": has no " + names[k] +
                         "; Marian's tokenizer needs source.spm, target.spm and vocab.json"};
    auto source = MarianTokenizer::from_files(files[0]->view(), files[1]->view(), files[2]->view());
    if (!source) return source.error();
    seen.files_read = {"vocab.json", "source.spm", "target.spm"};
    auto target = std::make_shared<MarianTokenizer>(source->target_side());
    return FolderTokenizers{std::make_shared<MarianTokenizer>(std::move(*source)), std::move(target)};
}

// T5's spiece.model (SentencePiece unigram) as T5Tokenizer runs it: the pieces' own ids, no <s>, </s> after the
// text; tokenizer_config.json's add_bos_token and add_eos_token when it has them.
Result<std::shared_ptr<const SubwordTokenizer>> read_t5_tokenizer(const std::string& dir, AttachedTokenizer& seen) {
    auto model = read_if_present(dir, "spiece.model");
    if (!model) return model.error();
    if (!*model) return std::shared_ptr<const SubwordTokenizer>();
    auto config = read_if_present(dir, "tokenizer_config.json");
    if (!config) return config.error();
    auto options = read_sentencepiece_options(*config, SentencePieceOptions{false, true});
    if (!options) return options.error();
    auto tokenizer = SentencePieceTokenizer::from_model((*model)->view(), *options);
    if (!tokenizer) return tokenizer.error();
    seen.files_read = {"spiece.model"};
    if (*config) seen.files_read.push_back("tokenizer_config.json");
    return std::shared_ptr<const SubwordTokenizer>(std::make_shared<SentencePieceTokenizer>(std::move(*tokenizer)));
}

// The tokenizers of the model's family, from the files the hub's folders of that family have.
Result<FolderTokenizers> read_family_tokenizers(const std::string& dir, Family family, AttachedTokenizer& seen) {
    if (family == Family::t5) {  // tokenizer.json (Unigram, "$A </s>") first, as transformers' T5TokenizerFast
        auto json_tokenizer = read_json_tokenizer(dir, seen);
        if (!json_tokenizer) return json_tokenizer.error();
        if (*json_tokenizer) return FolderTokenizers{std::move(*json_tokenizer), nullptr};
    }
    if (family == Family::marian) return read_marian_tokenizers(dir, seen);
    if (family == Family::t5) {
        auto tokenizer = read_t5_tokenizer(dir, seen);
        if (!tokenizer) return tokenizer.error();
        return FolderTokenizers{std::move(*tokenizer), nullptr};
    }
    auto tokenizer = family == Family::gpt2   ? read_gpt2_tokenizer(dir, seen)
                     : family == Family::bert ? read_bert_tokenizer(dir, seen)
                                              : read_llama_tokenizer(dir, seen);
    if (!tokenizer) return tokenizer.error();
    return FolderTokenizers{std::move(*tokenizer), nullptr};
}

// The tokenizer's vocabulary as the model's (V tokens): ids the tokenizer never produces are "<?id>".
Result<Vocab> model_side_vocab(const Vocab& tokenizer_vocab, int model_vocab_size, const std::string& file_name) {
    if (tokenizer_vocab.size() > model_vocab_size)
        return Error{file_name + ": has " + std::to_string(tokenizer_vocab.size()) +
                     " tokens, more than config.json's vocab_size " + std::to_string(model_vocab_size)};
    if (tokenizer_vocab.size() == model_vocab_size) return tokenizer_vocab;
    std::vector<std::string> tokens = tokenizer_vocab.tokens();
    for (int id = tokenizer_vocab.size(); id < model_vocab_size; ++id)
        tokens.push_back("<?" + std::to_string(id) + ">");
    return Vocab::from_tokens(std::move(tokens));
}

}  // namespace

const char* tokenizer_files_expected(Family family) {
    switch (family) {
        case Family::gpt2: return "vocab.json + merges.txt";
        case Family::bert: return "vocab.txt";
        case Family::transformer: return "vocabulary";
        case Family::llama:
        case Family::mistral:
        case Family::qwen2:
        case Family::qwen3:
        case Family::smollm3:
        case Family::bloom:
        case Family::gemma2:
        case Family::gemma3:
        case Family::olmoe:
        case Family::qwen3_moe:
        case Family::granitemoe: return "tokenizer.json or tokenizer.model";
        case Family::marian: return "source.spm + target.spm + vocab.json";
        case Family::t5: return "tokenizer.json or spiece.model";
        case Family::modernbert: return "tokenizer.json";
    }
    return "";
}

Result<AttachedTokenizer> attach_tokenizer(const std::string& dir, Model& model) {
    AttachedTokenizer seen;
    auto tokenizers = read_family_tokenizers(dir, model.config.family, seen);
    if (!tokenizers) return tokenizers.error();
    for (const char* name : {"vocab.json", "merges.txt", "vocab.txt", "tokenizer.json", "tokenizer.model", "source.spm",
                             "target.spm", "spiece.model", "tokenizer_config.json", "special_tokens_map.json"}) {
        const bool read = std::find(seen.files_read.begin(), seen.files_read.end(), name) != seen.files_read.end();
        if (!read && io::is_regular_file(dir + "/" + name)) seen.files_unread.push_back(name);
    }
    if (!tokenizers->text) return seen;

    // GPT-2 and the Llama template read the target side, BERT the source side, Marian both (one vocabulary).
    const auto vocab =
        model_side_vocab(tokenizers->text->vocab(),
                         model.config.has_decoder() ? model.config.tgt_vocab_size : model.config.src_vocab_size,
                         io::display_path(dir + "/" + seen.files_read.front()));
    if (!vocab) return vocab.error();
    if (model.config.has_encoder()) model.src_vocab = *vocab;
    if (model.config.has_decoder()) model.tgt_vocab = *vocab;
    model.subword_tokenizer = std::move(tokenizers->text);
    model.target_subword_tokenizer = std::move(tokenizers->target);
    return seen;
}

}  // namespace attnlab
