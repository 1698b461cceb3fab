// The model attnlab opens when no --model is given: the bundled trained English → Korean
// model (assets/models/en-ko.safetensors) when it is there, showing its example sentence and
// the target the model decodes for it; otherwise (or with --preset) a seeded random preset over
// the bundled English and Korean word lists, with the reference translation teacher-forced.
#pragma once

#include "open_error.h"
#include "session.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

inline constexpr const char* kExampleSource = "i like red apples";
inline constexpr const char* kExampleTarget = "나 는 빨간 사과 를 좋아해";

// assets/models/en-ko.safetensors if it exists, else "".
std::string bundled_default_model(const std::string& assets);
// Every assets/models/*.safetensors model, sorted by path (training histories, *.history.safetensors, left out).
std::vector<std::string> bundled_model_files(const std::string& assets);

// `preset` forces a random model; `src` replaces the example sentence (and then no target is set).
// A bundled model that cannot be read falls back to the random one, with the reason in `warning`.
Result<Session> default_session(const std::string& assets, const std::optional<std::string>& preset,
                                const std::optional<std::string>& src, std::string* warning = nullptr);

// The session attnlab starts with: `model` (--model: a file or a Hugging Face folder) when it opens,
// showing `src` or the example sentence; otherwise the default session, as without --model, with why
// the model did not open in plain words in `problem` (see open_error.h).
Result<Session> launch_session(const std::string& assets, const std::optional<std::string>& model,
                               const std::optional<std::string>& preset, const std::optional<std::string>& src,
                               std::optional<OpenProblem>& problem, std::string* warning = nullptr);

}  // namespace attnlab::gui
