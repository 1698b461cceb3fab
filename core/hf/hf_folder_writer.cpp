// Writing a trained model back as its Hugging Face folder: the source's names, layout and files.
#include "hf/hf_folder_writer.h"

#include "bit_cast.h"

#include "hf/hf_config.h"
#include "hf/hf_fused_qkv.h"
#include "hf/hf_packed_experts.h"
#include "hf/hf_tensor_names.h"
#include "io/file_bytes.h"
#include "io/folder_weights.h"
#include "io/folder_write.h"
#include "io/safetensors.h"
#include "io/safetensors_header.h"

#include <algorithm>
#include <string_view>

namespace attnlab {

namespace {

bool is_one_of(const std::string& name, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether save_pretrained writes a file of this name beside config.json: the tokenizer's files and
// generation_config.json.
bool is_tokenizer_file(const std::string& name) {
    return name.ends_with(".spm") ||
           is_one_of(name, {"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
                            "vocab.json", "vocab.txt", "merges.txt", "tokenizer.model", "spiece.model",
                            "sentencepiece.bpe.model", "generation_config.json"});
}

bool ends_with_any(const std::string& name, std::initializer_list<std::string_view> suffixes) {
    for (const std::string_view s : suffixes)
        if (name.ends_with(s)) return true;
    return false;
}

// What save_pretrained leaves out of a source's extra tensors: non-persistent buffers and tied copies.
bool hf_does_not_save(const std::string& file_name) {
    return ends_with_any(file_name,
                         {".attn.bias", ".attn.masked_bias", "embeddings.position_ids", "rotary_emb.inv_freq"}) ||
           file_name == "lm_head.weight" || file_name == "cls.predictions.decoder.weight" ||
           file_name == "decoder.weight" ||  // ModernBERT's, tied to its tok_embeddings
           ends_with_any(file_name, {"encoder.embed_tokens.weight", "decoder.embed_tokens.weight"});
}

bool is_float(io::Dtype dtype) {
    return dtype == io::Dtype::f32 || dtype == io::Dtype::f16 || dtype == io::Dtype::bf16;
}

// The files a model folder holds, which an earlier save may have left in out_folder.
bool is_model_folder_file(const std::string& name) {
    return name == "config.json" || name.ends_with(".safetensors") || name == "model.safetensors.index.json" ||
           is_tokenizer_file(name);
}

// out_folder is new, or an empty folder or an earlier save that may be replaced.
Status check_replaceable(const std::string& out_folder, const std::string& source_folder) {
    if (!io::is_directory(out_folder)) return ok_status();  // new, or a file write_folder_atomic refuses
    if (io::same_file(out_folder, source_folder))
        return Error{io::display_path(out_folder) +
                     ": is the folder the model was opened from; save to another folder"};
    auto entries = io::list_folder(out_folder);
    if (!entries) return entries.error();
    for (const io::FolderEntry& e : *entries)
        if (!e.is_file || !is_model_folder_file(e.name))
            return Error{io::display_path(out_folder) + ": holds " + io::quote_name(e.name) +
                         ", not a model folder's file; save to a new or empty folder"};
    return ok_status();
}

// t as BF16 when every value is one (its low 16 bits 0): what a BF16 file's tensor widened on open is until edited,
// so it is saved back as the same BF16 bytes; else t, F32, so that an edit keeps its exact value.
Tensor as_bf16_if_exact(Tensor t) {
    if (t.empty()) return t;
    std::vector<uint16_t> values(t.data.size());
    for (size_t i = 0; i < values.size(); ++i) {
        const uint32_t bits = bit_cast<uint32_t>(t.data[i]);
        if (bits & 0xFFFFu) return t;
        values[i] = static_cast<uint16_t>(bits >> 16);
    }
    Tensor narrow;
    narrow.shape = std::move(t.shape);
    narrow.bf16 = Bf16Buffer(std::move(values));
    return narrow;
}

// model.safetensors: every parameter under the source's name and in its shape, then the extras HF would save.
Result<io::SafetensorsFile> hf_weights(const Model& model, const io::FolderWeights& source) {
    auto names = FileTensorNames::match(model.config.family, source.names());
    if (!names) return Error{source.source() + ": " + names.error().message};
    io::SafetensorsFile file;
    file.metadata["format"] = "pt";
    std::vector<std::string> params;
    for (const ParamSpec& spec : parameter_specs(model.config)) {
        params.push_back(spec.name);
        const std::string name = names->find(spec.name);
        if (name.empty())
            return Error{source.source() + ": has no tensor '" + names->as_in_file(spec.name) +
                         "'; is it the folder the model was opened from?"};
        const Tensor* tensor = model.weights.find(spec.name);
        const Shape& stored = source.entry(name).shape;
        const bool row_of = stored.size() == 2 && stored[0] == 1 && tensor && tensor->shape == Shape{stored[1]};
        if (!tensor || (tensor->shape != stored && !row_of && !is_packed_experts(stored, tensor->shape)))
            return Error{source.source_of(name) + ": tensor '" + name + "' has shape " + shape_string(stored) +
                         ", the model's parameter " + (tensor ? shape_string(tensor->shape) : "is missing") +
                         "; is it the folder the model was opened from?"};
        Tensor copy = is_per_head_qkv(model.config.family, spec.name)
                          ? qkv_blocks_to_heads(*tensor, model.config.n_heads)  // back to BLOOM's order
                          : *tensor;
        copy.shape = stored;  // a vector back to the (1, n) row it was read from; Granite's experts to (E, R, X)
        if (source.entry(name).dtype == io::Dtype::bf16 && !copy.is_bf16())
            copy = as_bf16_if_exact(std::move(copy));  // a BF16 norm widened on open (or unedited) saves as BF16
        file.tensors.emplace(name, std::move(copy));
    }
    for (const std::string& name : names->unused(params)) {
        if (hf_does_not_save(name) || !is_float(source.entry(name).dtype)) continue;
        auto tensor = source.tensor(name, /*keep_bf16=*/true);  // its own dtype's bytes again
        if (!tensor) return tensor.error();
        file.tensors.emplace(name, **tensor);
    }
    return file;
}

Result<io::FolderFile> copied_file(const std::string& dir, const std::string& name) {
    auto bytes = io::read_file_bytes(dir + "/" + name);
    if (!bytes) return bytes.error();
    return io::FolderFile{name, std::move(*bytes)};
}

}  // namespace

Status write_hf_folder(const std::string& out_folder, const Model& model, const std::string& source_folder) {
    if (!io::is_regular_file(source_folder + "/config.json"))
        return Error{io::display_path(source_folder) + ": not a Hugging Face folder (no config.json)"};
    if (auto st = check_replaceable(out_folder, source_folder); !st) return st;

    auto config = copied_file(source_folder, "config.json");
    if (!config) return config.error();
    const auto& bytes = config->bytes;
    auto source_config =
        config_from_hf_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    if (!source_config)
        return Error{io::display_path(source_folder + "/config.json") + ": " + source_config.error().message};
    if (source_config->family != model.config.family)
        return Error{io::display_path(source_folder) + ": a " + to_string(source_config->family) +
                     " folder, the model is " + to_string(model.config.family) +
                     "; save from the folder it was opened from"};

    auto source = io::FolderWeights::open(source_folder);
    if (!source) return source.error();
    auto weights = hf_weights(model, *source);
    if (!weights) return weights.error();

    std::vector<io::FolderFile> files;
    files.push_back(std::move(*config));
    files.push_back({"model.safetensors", io::serialize_safetensors(*weights)});
    auto entries = io::list_folder(source_folder);
    if (!entries) return entries.error();
    for (const io::FolderEntry& e : *entries) {
        if (!e.is_file || !is_tokenizer_file(e.name)) continue;
        auto file = copied_file(source_folder, e.name);
        if (!file) return file.error();
        files.push_back(std::move(*file));
    }
    return io::write_folder_atomic(out_folder, files);
}

}  // namespace attnlab
