// Matching a file's tensor names to a family's parameter names.
#include "hf/hf_tensor_names.h"

#include "io/safetensors_header.h"

#include <algorithm>
#include <set>

namespace attnlab {

namespace {

std::string base_model_prefix(Family family) {
    switch (family) {
        case Family::gpt2:
        case Family::bloom: return "transformer.";
        case Family::bert: return "bert.";
        case Family::llama:
        case Family::mistral:
        case Family::qwen2:
        case Family::qwen3:
        case Family::smollm3:
        case Family::olmoe:
        case Family::qwen3_moe:
        case Family::granitemoe:
        case Family::modernbert:
        case Family::gemma2:
        case Family::gemma3:
        case Family::marian: return "model.";  // *ForCausalLM's, MarianMTModel's; a bare *Model file has none
        case Family::t5:  // T5ForConditionalGeneration's names have none
        case Family::transformer: break;
    }
    return "";
}

// The output head's names, which never carry the base model's prefix.
bool is_head_name(Family family, const std::string& name) {
    if (family == Family::marian && name == "final_logits_bias") return true;
    if (family == Family::modernbert) return name.starts_with("head.") || name.starts_with("decoder.");
    return name.starts_with(family == Family::bert ? "cls." : "lm_head.");
}

// "bert.encoder.layer.0.output.LayerNorm.gamma" -> "encoder.layer.0.output.LayerNorm.weight"
std::string parameter_name(Family family, const std::string& prefix, const std::string& file_name) {
    std::string name = file_name.starts_with(prefix) ? file_name.substr(prefix.size()) : file_name;
    if (family == Family::bert) {
        for (const auto& [old_suffix, new_suffix] :
             {std::pair{".LayerNorm.gamma", ".LayerNorm.weight"}, std::pair{".LayerNorm.beta", ".LayerNorm.bias"}})
            if (name.ends_with(old_suffix))
                name = name.substr(0, name.size() - std::string(old_suffix).size()) + new_suffix;
    }
    return name;
}

}  // namespace

Result<FileTensorNames> FileTensorNames::match(Family family, const std::vector<std::string>& names_in_file) {
    FileTensorNames names;
    names.family_ = family;
    const std::string prefix = base_model_prefix(family);
    for (const auto& file_name : names_in_file)
        if (!prefix.empty() && file_name.starts_with(prefix)) names.prefix_ = prefix;
    for (const auto& file_name : names_in_file) {
        const std::string param = parameter_name(family, prefix, file_name);
        auto [it, inserted] = names.file_name_.emplace(param, file_name);
        if (!inserted)
            return Error{"tensors " + io::quote_name(std::min(it->second, file_name)) + " and " +
                         io::quote_name(std::max(it->second, file_name)) + " are both parameter " +
                         io::quote_name(param)};
    }
    return names;
}

std::string FileTensorNames::find(const std::string& param) const {
    auto it = file_name_.find(param);
    return it == file_name_.end() ? "" : it->second;
}

std::string FileTensorNames::as_in_file(const std::string& param) const {
    if (const std::string name = find(param); !name.empty()) return name;
    return is_head_name(family_, param) ? param : prefix_ + param;
}

std::vector<std::string> FileTensorNames::unused(const std::vector<std::string>& params) const {
    const std::set<std::string> used(params.begin(), params.end());
    std::vector<std::string> out;
    for (const auto& [param, file_name] : file_name_)
        if (!used.count(param)) out.push_back(file_name);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace attnlab
