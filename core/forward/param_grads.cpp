#include "forward/step.h"

namespace attnlab {

Tensor& ParamGrads::of(const std::string& name, const Shape& shape) {
    auto [it, inserted] = grads_.try_emplace(name, shape);
    assert(it->second.shape == shape && "one parameter, one shape");
    return it->second;
}

void ParamGrads::add(const std::string& name, Tensor part) {
    auto [it, inserted] = grads_.try_emplace(name);
    if (inserted) {
        it->second = std::move(part);
        return;
    }
    assert(it->second.shape == part.shape && "one parameter, one shape");
    it->second.matrix() += part.matrix();
}

}  // namespace attnlab
