// Two runs of the forward pass side by side (two models, two checkpoints of one model, or one
// model with and without an ablated head) and the difference of any tensor both traces hold.
#pragma once

#include "result.h"
#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab {

struct StepDiff {
    Tensor difference;      // b − a, in the step's shape; 0 where both hold the same value, −∞ included
    float max_abs = 0.0f;   // the largest |b − a|
    float rms = 0.0f;       // √(mean (b − a)²)
    float relative = 0.0f;  // ‖b − a‖ / ‖a‖ (Frobenius); 0 when a is all zeros
};

// The steps both steppers have run, with outputs of equal shapes, in a's step order.
std::vector<std::string> shared_steps(const Stepper& a, const Stepper& b);

// b's output of step `path` minus a's. Errors name the step: not in a model, not run yet, or of
// different shapes ("decoder.output is (9, 32) in A and (9, 64) in B").
Result<StepDiff> diff_step(const Stepper& a, const Stepper& b, const std::string& path);

}  // namespace attnlab
