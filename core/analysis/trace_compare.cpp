#include "analysis/trace_compare.h"

#include <cmath>

namespace attnlab {

std::vector<std::string> shared_steps(const Stepper& a, const Stepper& b) {
    std::vector<std::string> paths;
    for (const Step& step : a.steps()) {  // shapes only: no on-demand output is recomputed for this
        const TraceEntry* x = a.run_facts(step.path);
        const TraceEntry* y = b.run_facts(step.path);
        if (x && y && x->value.shape == y->value.shape) paths.push_back(step.path);
    }
    return paths;
}

Result<StepDiff> diff_step(const Stepper& a, const Stepper& b, const std::string& path) {
    for (const auto& [stepper, name] : {std::pair{&a, "A"}, std::pair{&b, "B"}}) {
        if (!stepper->find(path)) return Error{"model " + std::string(name) + " has no step " + path};
        if (!stepper->output(path)) return Error{path + " has not run yet in model " + name};
    }
    const Tensor& x = *a.output(path);
    const Tensor& y = *b.output(path);
    if (x.shape != y.shape)
        return Error{path + " is " + shape_string(x.shape) + " in A and " + shape_string(y.shape) + " in B"};
    StepDiff d;
    d.difference = Tensor(x.shape);
    double sum_sq = 0.0, a_sq = 0.0;
    for (size_t i = 0; i < x.data.size(); ++i) {
        const float delta = x.data[i] == y.data[i] ? 0.0f : y.data[i] - x.data[i];  // a masked −∞ in both: 0
        d.difference.data[i] = delta;
        d.max_abs = std::max(d.max_abs, std::abs(delta));
        sum_sq += static_cast<double>(delta) * delta;
        a_sq += static_cast<double>(x.data[i]) * x.data[i];
    }
    if (x.numel() > 0) d.rms = static_cast<float>(std::sqrt(sum_sq / static_cast<double>(x.numel())));
    if (a_sq > 0.0) d.relative = static_cast<float>(std::sqrt(sum_sq / a_sq));
    return d;
}

}  // namespace attnlab
