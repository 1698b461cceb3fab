// The names of the kinds of batches, for messages.
#include "train/sequence_batches.h"

namespace attnlab {

const char* batches_name(Arch arch) {
    switch (arch) {
        case Arch::decoder_only: return "next-token sequences";
        case Arch::encoder_only: return "masked tokens";
        case Arch::encoder_decoder: return "(source, target) pairs";
    }
    return "batches";
}

}  // namespace attnlab
