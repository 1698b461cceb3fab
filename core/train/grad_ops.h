#include "ops/cross_entropy.h"  // forwarding header for train/transformer_grad.cpp; the backwards live in core/ops (issue 35)
