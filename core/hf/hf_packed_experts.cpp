#include "hf/hf_packed_experts.h"

namespace attnlab {

bool is_packed_experts(const Shape& stored, const Shape& param) {
    return stored.size() == 3 && param.size() == 2 && stored[0] * stored[1] == param[0] && stored[2] == param[1];
}

}  // namespace attnlab
