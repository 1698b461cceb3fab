// Stepper trace -> safetensors.
#include "io/trace_file.h"

#include "forward/step_path.h"

#include <nlohmann/json.hpp>

namespace attnlab::io {

SafetensorsFile trace_to_safetensors(const Stepper& stepper) {
    SafetensorsFile file;
    nlohmann::json steps = nlohmann::json::array(), masked_rows = nlohmann::json::object();
    for (size_t i = 0; i < stepper.cursor(); ++i) {
        const Step& s = stepper.step(i);
        const TraceEntry* e = stepper.entry(s.path);
        file.tensors[s.path] = e->value;
        steps.push_back({{"path", s.path},
                         {"title", s.title},
                         {"formula", s.formula},
                         {"inputs", step_paths(s.inputs)},
                         {"params", s.params}});
        if (!e->fully_masked_rows.empty()) masked_rows[s.path] = e->fully_masked_rows;
    }
    file.metadata["steps"] = steps.dump();
    file.metadata["config"] = config_to_json(stepper.config());
    file.metadata["src_ids"] = nlohmann::json(stepper.inputs().src_ids).dump();
    file.metadata["tgt_ids"] = nlohmann::json(stepper.inputs().tgt_ids).dump();
    file.metadata["fully_masked_rows"] = masked_rows.dump();
    return file;
}

Status write_trace(const std::string& path, const Stepper& stepper) {
    return write_safetensors(path, trace_to_safetensors(stepper));
}

}  // namespace attnlab::io
