#include "io/gradient_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnlab::io {

SafetensorsFile gradients_to_safetensors(const Stepper& forward, const BackwardPass& backward) {
    SafetensorsFile file;
    for (const size_t i : backward.reached())
        if (const TraceEntry* whole = backward.gradient(i)) file.tensors[forward.step(i).path] = whole->value;
    if (backward.done())
        for (const auto& [name, grad] : backward.param_grads()) file.tensors["param." + name] = grad;
    nlohmann::json steps = nlohmann::json::array();
    for (size_t k = 0; k < backward.cursor(); ++k) steps.push_back(forward.step(backward.forward_index(k)).path);
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", backward.loss());
    file.metadata["loss"] = backward.loss_spec().to_string();
    file.metadata["loss_definition"] = backward.loss_spec().definition();
    file.metadata["loss_value"] = value;
    file.metadata["backward_steps"] = steps.dump();
    file.metadata["config"] = config_to_json(forward.config());
    file.metadata["src_ids"] = nlohmann::json(forward.inputs().src_ids).dump();
    file.metadata["tgt_ids"] = nlohmann::json(forward.inputs().tgt_ids).dump();
    return file;
}

}  // namespace attnlab::io
