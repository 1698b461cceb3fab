// Loading a Hugging Face folder: config.json, then the mapped weights, checked tensor by tensor.
#include "hf/hf_folder.h"

#include "hf/hf_config.h"
#include "hf/hf_fused_qkv.h"
#include "hf/hf_packed_experts.h"
#include "hf/hf_tensor_names.h"
#include "hf/hf_tokenizer.h"
#include "io/file_bytes.h"
#include "io/folder_weights.h"

#include "param_names.h"
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include "bit_cast.h"
#include <cstdint>

namespace attnlab {

namespace {

Result<ModelConfig> read_hf_config(const std::string& path) {
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    auto config = config_from_hf_json(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    if (!config) return Error{io::display_path(path) + ": " + config.error().message};
    return config;
}

// Why a folder has neither model.safetensors nor shards to map, in one line.
Error missing_weights_file(const std::string& dir) {
    if (io::is_regular_file(dir + "/pytorch_model.bin"))
        return Error{io::display_path(dir) +
                     ": has pytorch_model.bin but no model.safetensors; only safetensors "
                     "weights can be opened"};
    return Error{io::display_path(dir + "/model.safetensors") + ": no such file"};
}

// Values per thread at least when checking a parameter: a shorter range costs more to hand to a thread.
constexpr int64_t kCheckGrain = int64_t{1} << 17;

bool is_non_finite(float x) { return (bit_cast<uint32_t>(x) & 0x7F800000u) == 0x7F800000u; }  // exponent all ones
bool is_non_finite(uint16_t bf16) { return (bf16 & 0x7F80u) == 0x7F80u; }  // a BF16 weight's bits, likewise

// The flat index of the first NaN or ±∞ in x[begin, end), or end: blocks of 256 tested at once
// (a loop that vectorises, most are finite), a block that fails searched value by value.
template <class T>  // float, or uint16_t (BF16)
int64_t first_non_finite(const T* x, int64_t begin, int64_t end) {
    constexpr int64_t block = 256;
    for (int64_t b = begin; b < end; b += block) {
        const int64_t e = std::min(end, b + block);
        uint32_t non_finite = 0;
        for (int64_t i = b; i < e; ++i) non_finite |= is_non_finite(x[i]);
        if (!non_finite) continue;
        for (int64_t i = b;; ++i)
            if (is_non_finite(x[i])) return i;
    }
    return end;
}

// The first NaN or ±∞ of a parameter, by flat index: each thread searches its own contiguous
// range, so the lowest index any of them found is the first.
Status check_finite(const Tensor& t, const std::string& name) {
    const int64_t n = t.numel();
    std::atomic<int64_t> first{n};
    parallel_for(0, n, kCheckGrain, [&](int64_t begin, int64_t end) {
        const int64_t found = t.is_bf16() ? first_non_finite(t.bf16.data(), begin, end)
                                          : first_non_finite(t.data.data(), begin, end);
        if (found == end) return;
        int64_t seen = first.load();
        while (found < seen && !first.compare_exchange_weak(seen, found)) {}
    });
    const int64_t i = first.load();
    if (i == n) return ok_status();
    return Error{"tensor '" + name + "' holds a non-finite value (" + std::to_string(t.is_bf16() ? t.bf16.at(static_cast<size_t>(i)) : t.data[static_cast<size_t>(i)]) +
                 ") at flat index " + std::to_string(i)};
}

bool is_token_table(const ModelConfig& config, const std::string& name) {
    return (config.has_encoder() && embedding_params(config, Stack::encoder).tokens == name) ||
           (config.has_decoder() && embedding_params(config, Stack::decoder).tokens == name);
}

// A (1, n) tensor where the parameter is a vector (n): Marian's final_logits_bias buffer.
bool is_row_of(const Shape& stored, const Shape& wanted) { return wanted.size() == 1 && stored == Shape{1, wanted[0]}; }

}  // namespace

Result<LoadedModel> load_hf_folder(const std::string& dir) {
    if (!io::is_regular_file(dir + "/config.json"))
        return Error{io::display_path(dir) +
                     ": a folder without config.json; open a model file or a Hugging Face folder"};
    auto config = read_hf_config(dir + "/config.json");
    if (!config) return config.error();
    if (!io::is_regular_file(dir + "/model.safetensors") && !io::is_regular_file(dir + "/model.safetensors.index.json"))
        return missing_weights_file(dir);
    auto file = io::FolderWeights::open(dir);
    if (!file) return file.error();
    const auto fail = [&](const std::string& message) { return Error{file->source() + ": " + message}; };

    auto names = FileTensorNames::match(config->family, file->names());
    if (!names) return fail(names.error().message);
    // A BERT file without the MLM head (BertModel) ends at the encoder's output.
    if ((config->family == Family::bert && names->find("cls.predictions.transform.dense.weight").empty()) ||
        (config->family == Family::modernbert && names->find("head.dense.weight").empty()))  // a bare *Model file
        config->output_head = OutputHead::none;

    Model model;
    model.config = *config;
    std::vector<std::string> params;
    for (const ParamSpec& spec : parameter_specs(model.config)) {
        params.push_back(spec.name);
        const std::string name = names->find(spec.name);
        if (name.empty())
            return fail("missing tensor '" + names->as_in_file(spec.name) + "' " + shape_string(spec.shape));
        const io::SafetensorsEntry& entry = file->entry(name);
        const auto fail_at = [&](const std::string& message) { return Error{file->source_of(name) + ": " + message}; };
        if (entry.shape != spec.shape && !is_row_of(entry.shape, spec.shape) &&
            !is_packed_experts(entry.shape, spec.shape))
            return fail_at("tensor '" + name + "' has shape " + shape_string(entry.shape) + ", config.json needs " +
                           shape_string(spec.shape));
        // A linear map's weight or a token table stays BF16 when the file has it so (Tensor::bf16): read by the gemm
        // and the gather as it is. Everything else a BF16 file holds (norm gains, biases, position tables: small) is
        // widened to F32 here, and so are BLOOM's per-head Q, K, V, which are reordered.
        const bool keep_bf16 = (spec.kind == ParamKind::matrix && !is_per_head_qkv(config->family, spec.name)) ||
                               is_token_table(model.config, spec.name);
        auto tensor = file->tensor(name, keep_bf16);
        if (!tensor) return tensor.error();
        if (auto st = check_finite(**tensor, name); !st) return fail_at(st.error().message);
        if (is_per_head_qkv(config->family, spec.name))  // BLOOM's Q, K, V per head, read in blocks
            *tensor = std::make_shared<const Tensor>(qkv_heads_to_blocks(**tensor, config->n_heads));
        if (entry.shape != spec.shape) {  // a (1, n) row read as the vector it is; Granite's (E, R, X) as (E·R, X)
            Tensor vector = **tensor;
            vector.shape = spec.shape;
            *tensor = std::make_shared<const Tensor>(std::move(vector));
        }
        model.weights.set_shared(spec.name, std::move(*tensor));
    }
    if (auto st = check_model(model); !st) return fail(st.error().message);

    std::string format = "Hugging Face " + to_string(config->family) + " folder";
    if (file->file_count() > 1) format += ", weights in " + std::to_string(file->file_count()) + " shards";
    LoadedModel loaded{std::move(model), std::move(format), names->unused(params), {}};
    auto tokenizer = attach_tokenizer(dir, loaded.model);
    if (!tokenizer) return tokenizer.error();
    loaded.tokenizer = std::move(*tokenizer);
    return loaded;
}

}  // namespace attnlab
