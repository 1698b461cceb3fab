// The names a Hugging Face file gives a family's parameters (param_names.h has ours, which are
// the base model's names). Files differ in a prefix: "transformer." (GPT2LMHeadModel's
// save_pretrained), "bert." (BertForMaskedLM, BertForPreTraining) or "model." (LlamaForCausalLM and
// the other Llama-template families, MarianMTModel) before the base model's
// names, and older BERT files call a LayerNorm's γ, β "gamma", "beta". What a file holds
// beyond the parameters (GPT-2's attn.bias mask buffers, BERT's position_ids and pooler, a tied
// copy of the embedding, older Llama files' rotary_emb.inv_freq) is listed as unused.
#pragma once

#include "config.h"
#include "result.h"

#include <map>
#include <string>
#include <vector>

namespace attnlab {

class FileTensorNames {
public:
    // Errors when two names in the file are the same parameter ("h.0.ln_1.weight" and
    // "transformer.h.0.ln_1.weight").
    static Result<FileTensorNames> match(Family family, const std::vector<std::string>& names_in_file);

    // The file's name for a parameter, or "" when the file lacks it.
    std::string find(const std::string& param) const;
    // A parameter as this file would name it, for messages: "transformer.h.3.mlp.c_fc.weight"
    // in a file that prefixes its names.
    std::string as_in_file(const std::string& param) const;
    // The file's names that are none of `params`, in file-name order.
    std::vector<std::string> unused(const std::vector<std::string>& params) const;

private:
    std::map<std::string, std::string> file_name_;  // parameter -> name in the file
    std::string prefix_;                            // the prefix this file puts on base-model names, or ""
    Family family_ = Family::transformer;
};

}  // namespace attnlab
