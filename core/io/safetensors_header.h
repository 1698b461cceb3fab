// The header of a .safetensors file, parsed and checked against its data buffer (dtype, shape,
// offsets, tiling) before any tensor is touched. Shared by the reader that decodes every tensor
// (safetensors.h) and the one that maps the file and reads tensors in place (mapped_safetensors.h).
#pragma once

#include "result.h"
#include "tensor.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::io {

enum class Dtype { f32, f16, bf16, f64, i64, i32, i16, i8, u8, boolean };

// floats_only: F32, F16 and BF16, the dtypes a tensor can be read as. any_known: also the
// other dtypes safetensors names, so a Hugging Face file's I64 buffer (position_ids) that no
// parameter reads does not stop the model from loading.
enum class DtypePolicy { floats_only, any_known };

struct SafetensorsEntry {
    std::string name;
    Dtype dtype = Dtype::f32;
    Shape shape;
    uint64_t numel = 0;
    uint64_t begin = 0, end = 0;  // byte offsets into the data buffer
};

struct SafetensorsHeader {
    std::vector<SafetensorsEntry> entries;        // in data-buffer order
    std::map<std::string, std::string> metadata;  // __metadata__ (string -> string)
    std::span<const uint8_t> buffer;              // the data buffer: the bytes after the header
};

// Layout: u64 little-endian N, N bytes of JSON header, data buffer. Every error message
// starts with `source` and names the tensor or header field at fault.
Result<SafetensorsHeader> parse_safetensors_header(std::span<const uint8_t> bytes, const std::string& source,
                                                   DtypePolicy policy);

bool is_float_dtype(Dtype dtype);          // F32, F16, BF16
std::string_view dtype_name(Dtype dtype);  // "F32", "I64", ...
// "dtype 'I64' is not supported (only F32, F16, BF16)"
std::string unsupported_dtype_message(std::string_view dtype_name);
// The entry's values as F32, copied (asserts a float dtype and a buffer the entry fits).
Tensor decode_tensor(const SafetensorsEntry& entry, std::span<const uint8_t> buffer);

// 'name' for messages: control characters escaped so a message stays one line, long names cut.
std::string quote_name(std::string_view name);

}  // namespace attnlab::io
