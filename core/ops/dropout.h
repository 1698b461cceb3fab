// Inverted dropout (paper §5.4), drawn without state: whether entry i of a site is kept is a hash of (seed, site,
// i), so a backward pass redraws the forward's mask instead of storing it, and any split of the entries between
// threads draws the same mask.
#pragma once

#include "tensor.h"

#include <cstdint>
#include <string>

namespace attnlab {

// Each entry of x is zeroed with probability p, else multiplied by 1/(1 − p). p in [0, 1).
void dropout_in_place(Tensor& x, float p, uint64_t seed, uint64_t site);

// A site number for a step's path: the same path, the same masks.
uint64_t dropout_site(const std::string& path);

}  // namespace attnlab
