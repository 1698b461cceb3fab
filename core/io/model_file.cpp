// Model <-> safetensors: the config and vocabularies travel in the header's __metadata__.
#include "io/model_file.h"

#include "io/file_bytes.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnlab::io {

namespace {

Result<std::optional<Vocab>> vocab_from_metadata(const SafetensorsFile& file, const std::string& key) {
    auto it = file.metadata.find(key);
    if (it == file.metadata.end()) return std::optional<Vocab>{};
    auto vocab = Vocab::from_json(it->second);
    if (!vocab) return Error{"__metadata__[\"" + key + "\"]: " + vocab.error().message};
    return std::optional<Vocab>(std::move(*vocab));
}

// __metadata__["training"]: {"task": "en-ko", "seed": 1, "steps": 3000}
Result<std::optional<TrainingRecord>> training_from_metadata(const SafetensorsFile& file) {
    auto it = file.metadata.find("training");
    if (it == file.metadata.end()) return std::optional<TrainingRecord>{};
    const auto json = nlohmann::json::parse(it->second, nullptr, /*allow_exceptions=*/false);
    const bool well_formed = json.is_object() && json.size() == 3 && json.contains("task") &&
                             json["task"].is_string() && json.contains("seed") && json["seed"].is_number_unsigned() &&
                             json.contains("steps") && json["steps"].is_number_unsigned() &&
                             json["steps"].get<uint64_t>() <= 1000000000;
    if (!well_formed) return Error{"__metadata__[\"training\"] must be {\"task\": text, \"seed\": n, \"steps\": n}"};
    return std::optional<TrainingRecord>(
        TrainingRecord{json["task"].get<std::string>(), json["seed"].get<uint64_t>(), json["steps"].get<int>()});
}

std::string training_to_json(const TrainingRecord& record) {
    return nlohmann::json{{"task", record.task}, {"seed", record.seed}, {"steps", record.steps}}.dump();
}

}  // namespace

Result<Model> model_from_safetensors(SafetensorsFile file, const std::string& source_name) {
    auto fail = [&](const std::string& m) { return Error{source_name + ": " + m}; };
    auto config_text = file.metadata.find("config");
    if (config_text == file.metadata.end()) return fail("no __metadata__[\"config\"]; is this an Attention Lab model?");
    auto config = config_from_json(config_text->second);
    if (!config) return fail(config.error().message);

    Model m;
    m.config = *config;
    for (auto& [name, tensor] : file.tensors) {
        // No parameter name holds a control character; a hostile one must not break the message's line.
        if (display_path(name) != name) return fail("unexpected tensor '" + display_path(name) + "' for this config");
        for (size_t i = 0; i < tensor.data.size(); ++i)
            if (!std::isfinite(tensor.data[i]))
                return fail("tensor '" + name + "' holds a non-finite value (" + std::to_string(tensor.data[i]) +
                            ") at flat index " + std::to_string(i));
        m.weights.set(name, std::move(tensor));
    }
    auto src = vocab_from_metadata(file, "src_vocab");
    if (!src) return fail(src.error().message);
    auto tgt = vocab_from_metadata(file, "tgt_vocab");
    if (!tgt) return fail(tgt.error().message);
    m.src_vocab = std::move(*src);
    m.tgt_vocab = std::move(*tgt);
    if (auto it = file.metadata.find("tokenizer"); it != file.metadata.end()) {
        auto kind = tokenizer_kind_from_string(it->second);
        if (!kind) return fail("__metadata__[\"tokenizer\"]: " + kind.error().message);
        m.tokenizer = *kind;
    }
    auto training = training_from_metadata(file);
    if (!training) return fail(training.error().message);
    m.training = std::move(*training);
    if (auto st = check_model(m); !st) return fail(st.error().message);
    return m;
}

Result<Model> read_model(const std::string& path) {
    auto file = read_safetensors(path);
    if (!file) return file.error();
    return model_from_safetensors(std::move(*file), display_path(path));
}

SafetensorsFile model_to_safetensors(const Model& model) {
    SafetensorsFile file;
    for (const auto& [name, tensor] : model.weights.all()) file.tensors[name] = *tensor;
    file.metadata["config"] = config_to_json(model.config);
    // A Hugging Face tokenizer stays in its folder: the file runs on ids, as the folder without it would.
    const bool own_vocab = !model.subword_tokenizer;
    if (model.src_vocab && own_vocab) file.metadata["src_vocab"] = model.src_vocab->to_json();
    if (model.tgt_vocab && own_vocab) file.metadata["tgt_vocab"] = model.tgt_vocab->to_json();
    if ((model.src_vocab || model.tgt_vocab) && own_vocab) file.metadata["tokenizer"] = to_string(model.tokenizer);
    if (model.training) file.metadata["training"] = training_to_json(*model.training);
    return file;
}

Status write_model(const std::string& path, const Model& model) {
    return write_safetensors(path, model_to_safetensors(model));
}

}  // namespace attnlab::io
