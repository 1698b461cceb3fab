// TrainingHistory <-> safetensors: the history's series as tensors, each checkpoint's weights under its prefix, the
// model's metadata as a model file keeps it.
#include "train/training_history_file.h"

#include "io/file_bytes.h"
#include "io/model_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr const char* kCheckpointPrefix = "checkpoint.";
constexpr int kMaxCheckpoints = 100000;

const char* const kScoreNames[3] = {"history.induction", "history.previous_token", "history.duplicate_token"};

float score_of(const HeadScores& s, int kind) {
    return kind == 0 ? s.induction : kind == 1 ? s.previous_token : s.duplicate_token;
}
float& score_of(HeadScores& s, int kind) {
    return kind == 0 ? s.induction : kind == 1 ? s.previous_token : s.duplicate_token;
}

Tensor series(const TrainingHistory& h, double (*value)(const HistoryCheckpoint&)) {
    Tensor t(Shape{static_cast<int64_t>(h.checkpoints.size())});
    for (size_t i = 0; i < h.checkpoints.size(); ++i) t.data[i] = static_cast<float>(value(h.checkpoints[i]));
    return t;
}

// The self-attentions detect_heads scores, in its order.
int self_attention_count(const ModelConfig& c) {
    if (c.arch == Arch::decoder_only) return c.n_decoder_layers;
    if (c.arch == Arch::encoder_only) return c.n_encoder_layers;
    return c.n_encoder_layers + c.n_decoder_layers;
}

// "checkpoint.<i>.<param>" -> i (decimal, no leading zero, below n) and the param; nullopt for any other name.
std::optional<std::pair<int, std::string>> checkpoint_name(const std::string& name, int n) {
    const size_t prefix = std::string(kCheckpointPrefix).size();
    if (name.rfind(kCheckpointPrefix, 0) != 0) return std::nullopt;
    const size_t dot = name.find('.', prefix);
    if (dot == std::string::npos || dot == prefix || dot - prefix > 6 || dot + 1 == name.size()) return std::nullopt;
    if (name[prefix] == '0' && dot - prefix > 1) return std::nullopt;
    int i = 0;
    for (size_t k = prefix; k < dot; ++k) {
        if (name[k] < '0' || name[k] > '9') return std::nullopt;
        i = i * 10 + (name[k] - '0');
    }
    if (i >= n) return std::nullopt;
    return std::make_pair(i, name.substr(dot + 1));
}

}  // namespace

io::SafetensorsFile history_to_safetensors(const TrainingHistory& history) {
    Model header = history.model;
    header.weights = Weights{};
    io::SafetensorsFile file = io::model_to_safetensors(header);
    file.metadata["history"] = nlohmann::json{{"format", 1}, {"detect_length", history.detect_length}}.dump();
    const int64_t n = static_cast<int64_t>(history.checkpoints.size());
    for (int64_t i = 0; i < n; ++i)
        for (const auto& [name, tensor] : history.checkpoints[static_cast<size_t>(i)].weights.all())
            file.tensors[kCheckpointPrefix + std::to_string(i) + "." + name] = *tensor;
    file.tensors["history.step"] = series(history, [](const HistoryCheckpoint& c) { return double(c.step); });
    file.tensors["history.loss"] = series(history, [](const HistoryCheckpoint& c) {
        return c.loss ? *c.loss : std::numeric_limits<double>::quiet_NaN();
    });
    file.tensors["history.first_copy"] = series(history, [](const HistoryCheckpoint& c) { return c.copies.first; });
    file.tensors["history.second_copy"] = series(history, [](const HistoryCheckpoint& c) { return c.copies.second; });
    for (int kind = 0; kind < 3; ++kind) {
        Tensor t(Shape{n, history.layers, history.heads});  // (n, layers, H)
        for (int64_t i = 0; i < n; ++i) {
            const auto& heads = history.checkpoints[static_cast<size_t>(i)].heads;
            for (size_t k = 0; k < heads.size(); ++k)
                t.data[static_cast<size_t>(i) * heads.size() + k] = score_of(heads[k], kind);
        }
        file.tensors[kScoreNames[kind]] = std::move(t);
    }
    return file;
}

Status write_training_history(const std::string& path, const TrainingHistory& history) {
    return io::write_safetensors(path, history_to_safetensors(history));
}

Result<TrainingHistory> history_from_safetensors(io::SafetensorsFile file, const std::string& source_name) {
    auto fail = [&](const std::string& m) { return Error{source_name + ": " + m}; };
    const auto meta = file.metadata.find("history");
    if (meta == file.metadata.end()) return fail("no __metadata__[\"history\"]; is this a training history?");
    const auto json = nlohmann::json::parse(meta->second, nullptr, /*allow_exceptions=*/false);
    if (!(json.is_object() && json.size() == 2 && json.contains("format") && json["format"] == 1 &&
          json.contains("detect_length") && json["detect_length"].is_number_unsigned() &&
          json["detect_length"].get<uint64_t>() >= 2 && json["detect_length"].get<uint64_t>() <= 100000))
        return fail("__metadata__[\"history\"] must be {\"format\": 1, \"detect_length\": n ≥ 2}");

    TrainingHistory history;
    history.detect_length = json["detect_length"].get<int>();
    auto take = [&](const std::string& name) -> Result<Tensor> {
        auto it = file.tensors.find(name);
        if (it == file.tensors.end()) return fail("no tensor '" + name + "'");
        Tensor t = std::move(it->second);
        file.tensors.erase(it);
        return t;
    };
    auto steps = take("history.step");
    if (!steps) return steps.error();
    if (steps->rank() != 1 || steps->dim(0) < 1 || steps->dim(0) > kMaxCheckpoints)
        return fail("'history.step' must be (n) with 1 ≤ n ≤ " + std::to_string(kMaxCheckpoints));
    const int64_t n = steps->dim(0);
    Tensor columns[3];
    const char* const column_names[3] = {"history.loss", "history.first_copy", "history.second_copy"};
    for (int k = 0; k < 3; ++k) {
        auto t = take(column_names[k]);
        if (!t) return t.error();
        if (t->shape != Shape{n}) return fail(std::string("'") + column_names[k] + "' must be (n), as history.step");
        columns[k] = std::move(*t);
    }

    // The metadata every checkpoint's model is read with: a model file's.
    std::map<std::string, std::string> metadata = file.metadata;
    metadata.erase("history");
    std::vector<io::SafetensorsFile> parts(static_cast<size_t>(n));  // each checkpoint as a model file
    Tensor scores[3];
    for (int kind = 0; kind < 3; ++kind) {
        auto t = take(kScoreNames[kind]);
        if (!t) return t.error();
        scores[kind] = std::move(*t);
    }
    for (auto& [name, tensor] : file.tensors) {
        auto where = checkpoint_name(name, static_cast<int>(n));
        if (!where) return fail("unexpected tensor '" + io::display_path(name) + "'");
        parts[static_cast<size_t>(where->first)].tensors[where->second] = std::move(tensor);
    }
    for (int64_t i = 0; i < n; ++i) {
        io::SafetensorsFile& part = parts[static_cast<size_t>(i)];
        part.metadata = metadata;
        auto m = io::model_from_safetensors(std::move(part), source_name + " checkpoint " + std::to_string(i));
        if (!m) return m.error();
        if (i == 0) {
            history.model = *m;
            history.model.weights = Weights{};
            history.layers = self_attention_count(m->config);
            history.heads = m->config.n_heads;
            if (history.detect_length * 2 + 1 > m->config.max_len)
                return fail("detect_length " + std::to_string(history.detect_length) + " is past the model's max_len");
        }
        const float step = steps->data[static_cast<size_t>(i)];
        if (!(step >= 0.0f && step <= 1e9f && step == std::floor(step)))
            return fail("history.step[" + std::to_string(i) + "] is not a step count");
        if (i > 0 && !(step > steps->data[static_cast<size_t>(i) - 1]))
            return fail("history.step[" + std::to_string(i) + "] is not after the step before it");
        HistoryCheckpoint c;
        c.step = static_cast<int>(step);
        const float loss = columns[0].data[static_cast<size_t>(i)];
        if (!std::isnan(loss)) {
            if (!(std::isfinite(loss) && loss >= 0.0f)) return fail("history.loss[" + std::to_string(i) + "] is not a loss");
            c.loss = loss;
        }
        for (int k = 1; k < 3; ++k) {
            const float v = columns[k].data[static_cast<size_t>(i)];
            if (!(std::isfinite(v) && v >= 0.0f))
                return fail(std::string(column_names[k]) + "[" + std::to_string(i) + "] is not a loss");
        }
        c.copies = {columns[1].data[static_cast<size_t>(i)], columns[2].data[static_cast<size_t>(i)]};
        c.weights = std::move(m->weights);
        history.checkpoints.push_back(std::move(c));
    }
    const Shape score_shape{n, history.layers, history.heads};
    const size_t per = static_cast<size_t>(history.layers) * static_cast<size_t>(history.heads);
    for (int kind = 0; kind < 3; ++kind) {
        if (scores[kind].shape != score_shape)
            return fail(std::string("'") + kScoreNames[kind] + "' must be (n, layers, H) = (" + std::to_string(n) +
                        ", " + std::to_string(history.layers) + ", " + std::to_string(history.heads) + ")");
        for (int64_t i = 0; i < n; ++i) {
            auto& heads = history.checkpoints[static_cast<size_t>(i)].heads;
            heads.resize(per);
            for (size_t k = 0; k < per; ++k) {
                const float v = scores[kind].data[static_cast<size_t>(i) * per + k];
                if (!(v >= 0.0f && v <= 1.0f))
                    return fail(std::string(kScoreNames[kind]) + " holds " + std::to_string(v) + ", outside [0, 1]");
                score_of(heads[k], kind) = v;
            }
        }
    }
    return history;
}

Result<TrainingHistory> read_training_history(const std::string& path) {
    auto file = io::read_safetensors(path);
    if (!file) return file.error();
    return history_from_safetensors(std::move(*file), io::display_path(path));
}

bool is_training_history_file(const std::string& name) {
    const std::string suffix = ".history.safetensors";
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace attnlab
