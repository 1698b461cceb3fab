// Hugging Face .safetensors: read F32/F16/BF16 tensors as F32 (safe on hostile input), and
// write F32 deterministically, so write -> read -> write is bit-identical.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "result.h"
#include "tensor.h"

namespace attnlab::io {

struct SafetensorsFile {
    std::map<std::string, Tensor> tensors;        // name -> F32 tensor (read: every dtype widened; written: BF16 kept)
    std::map<std::string, std::string> metadata;  // __metadata__ (string -> string)
};

// Layout: u64 little-endian N, N bytes of JSON header, data buffer. Every error message
// starts with source_name and names the tensor or header field at fault.
Result<SafetensorsFile> parse_safetensors(std::span<const uint8_t> bytes, const std::string& source_name);
Result<SafetensorsFile> read_safetensors(const std::string& path);

// F32 (a BF16 tensor, Tensor::bf16, as BF16), keys sorted, tensors contiguous in key order, header space-padded so 8 + N is a
// multiple of 8. A tensor whose data does not match its shape, a tensor named
// "__metadata__" or a name that is not UTF-8 is a programming bug here (assert);
// write_safetensors reports them as errors instead.
std::vector<uint8_t> serialize_safetensors(const SafetensorsFile& file);
Status write_safetensors(const std::string& path, const SafetensorsFile& file);  // atomic

}  // namespace attnlab::io
