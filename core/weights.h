// Weights: the named parameter tensors of a model, with the names of its family (param_names.h):
// torch.nn.Transformer().state_dict() plus the embeddings and the output projection, or a
// Hugging Face GPT-2's or BERT's. Each tensor is shared and immutable, so a snapshot copies
// pointers, not numbers; a tensor may be a view of a memory-mapped file. A linear map's weight or a
// token table opened from a BF16 checkpoint stays BF16 (Tensor::bf16): at/find/shared return it as
// stored, for the gemm and the embedding gather; a reader that needs floats takes as_f32 (tensor.h).
#pragma once

#include "config.h"
#include "result.h"
#include "tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

enum class ParamKind { embedding, matrix, bias, norm_gain, norm_bias };

struct ParamSpec {
    std::string name;
    Shape shape;
    ParamKind kind = ParamKind::matrix;
};

// Every parameter a config needs, in a stable order. A tied output projection
// (tie_embeddings) is not listed: it reads the embedding.
std::vector<ParamSpec> parameter_specs(const ModelConfig& config);
// Parameters read when present: generator.bias of our models.
std::vector<ParamSpec> optional_parameter_specs(const ModelConfig& config);
int64_t parameter_count(const ModelConfig& config);

// Name of the tensor the output projection multiplies by: generator.weight (lm_head.weight, ...),
// or the tied embedding; "" for a model without an output head.
std::string output_weight_name(const ModelConfig& config);

class Weights {
public:
    const Tensor& at(const std::string& name) const;    // asserts presence
    const Tensor* find(const std::string& name) const;  // nullptr if absent
    std::shared_ptr<const Tensor> shared(const std::string& name) const;
    bool contains(const std::string& name) const { return tensors_.count(name) > 0; }
    void set(const std::string& name, Tensor tensor);
    void set_shared(const std::string& name, std::shared_ptr<const Tensor> tensor);
    void erase(const std::string& name) { tensors_.erase(name); }
    // Copy-on-write edit of one value; other snapshots sharing the tensor are untouched. A BF16 tensor
    // becomes F32 (its whole copy widened), so the edit keeps the value given, not its BF16 rounding.
    void set_value(const std::string& name, int64_t flat_index, float value);
    const std::map<std::string, std::shared_ptr<const Tensor>>& all() const { return tensors_; }

private:
    std::map<std::string, std::shared_ptr<const Tensor>> tensors_;
};

// Checks that `weights` holds exactly the tensors the config needs, with the right shapes,
// plus optional ones (generator.bias). The message names the first tensor at fault.
Status check_weights(const ModelConfig& config, const Weights& weights);

// Random weights from a seed: Xavier-uniform matrices, N(0, 1/C) embeddings, zero biases,
// LayerNorm gain 1 and bias 0. Optional parameters are left out.
Weights init_weights(const ModelConfig& config, uint64_t seed);

}  // namespace attnlab
