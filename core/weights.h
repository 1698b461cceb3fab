// Weights: the named parameter tensors of a model, with the names of
// torch.nn.Transformer().state_dict() plus the embeddings and the output projection.
// Each tensor is shared and immutable, so a snapshot copies pointers, not numbers.
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

struct ParamSpec {
    std::string name;
    Shape shape;
};

// Every parameter a config needs, in a stable order. A tied output projection
// (tie_embeddings) is not listed: it reads the embedding.
std::vector<ParamSpec> parameter_specs(const ModelConfig& config);
int64_t parameter_count(const ModelConfig& config);

// Name of the tensor the output projection multiplies by: generator.weight, or the tied embedding.
std::string output_weight_name(const ModelConfig& config);

class Weights {
public:
    const Tensor& at(const std::string& name) const;     // asserts presence
    const Tensor* find(const std::string& name) const;  // nullptr if absent
    std::shared_ptr<const Tensor> shared(const std::string& name) const;
    bool contains(const std::string& name) const { return tensors_.count(name) > 0; }
    void set(const std::string& name, Tensor tensor);
    void set_shared(const std::string& name, std::shared_ptr<const Tensor> tensor);
    void erase(const std::string& name) { tensors_.erase(name); }
    // Copy-on-write edit of one value; other snapshots sharing the tensor are untouched.
    void set_value(const std::string& name, int64_t flat_index, float value);
    const std::map<std::string, std::shared_ptr<const Tensor>>& all() const { return tensors_; }

private:
    std::map<std::string, std::shared_ptr<const Tensor>> tensors_;
};

// Checks that `weights` holds exactly the tensors the config needs, with the right shapes,
// plus optional extras (generator.bias). The message names the first tensor at fault.
Status check_weights(const ModelConfig& config, const Weights& weights);

// Random weights from a seed: Xavier-uniform matrices, N(0, 1/C) embeddings, zero biases,
// LayerNorm gain 1 and bias 0.
Weights init_weights(const ModelConfig& config, uint64_t seed);

}  // namespace attnlab
