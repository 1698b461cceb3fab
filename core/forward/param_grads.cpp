#include "forward/step.h"

namespace attnlab {

Tensor& ParamGrads::of(const std::string& name, const Shape& shape) {
    auto [it, inserted] = grads_.try_emplace(name, shape);
    assert(it->second.shape == shape && "one parameter, one shape");
    return it->second;
}

}  // namespace attnlab
