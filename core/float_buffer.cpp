// FloatBuffer views: the one way to make one, for mapped_tensor (tensor.h).
#include "float_buffer.h"

namespace attnlab {

FloatBuffer FloatBuffer::view(const float* data, size_t n, std::shared_ptr<const void> owner) {
    assert(owner && (data || n == 0));
    FloatBuffer b;
    b.begin_ = data;
    b.size_ = n;
    b.owner_ = std::move(owner);
    return b;
}

}  // namespace attnlab
