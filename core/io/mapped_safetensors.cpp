// Mapped safetensors: F32 tensors (and BF16 ones asked for as BF16) viewed in place, the other float dtypes decoded.
#include "io/mapped_safetensors.h"

#include "io/file_bytes.h"

#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

namespace attnlab::io {

Result<MappedSafetensors> MappedSafetensors::open(const std::string& path) {
    auto file = MappedFile::open(path);
    if (!file) return file.error();
    MappedSafetensors mapped;
    mapped.source_ = display_path(path);
    auto header = parse_safetensors_header((*file)->bytes(), mapped.source_, DtypePolicy::any_known);
    if (!header) return header.error();
    mapped.file_ = std::move(*file);
    mapped.buffer_ = header->buffer;
    mapped.metadata_ = std::move(header->metadata);
    for (SafetensorsEntry& entry : header->entries) {
        std::string name = entry.name;
        mapped.entries_.emplace(std::move(name), std::move(entry));
    }
    return mapped;
}

Result<std::shared_ptr<const Tensor>> MappedSafetensors::tensor(const std::string& name, bool keep_bf16) const {
    const auto it = entries_.find(name);
    assert(it != entries_.end());
    const SafetensorsEntry& entry = it->second;
    if (!is_float_dtype(entry.dtype))
        return Error{source_ + ": tensor " + quote_name(name) + ": " +
                     unsupported_dtype_message(dtype_name(entry.dtype))};
    const uint8_t* bytes = buffer_.data() + entry.begin;
    if (keep_bf16 && entry.dtype == Dtype::bf16) {
        if (std::endian::native == std::endian::little && reinterpret_cast<uintptr_t>(bytes) % alignof(uint16_t) == 0)
            return mapped_bf16_tensor(entry.shape, reinterpret_cast<const uint16_t*>(bytes), file_);
        std::vector<uint16_t> values(entry.numel);  // unaligned or big-endian: an array of its own
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);
        Tensor t;
        t.shape = entry.shape;
        t.bf16 = Bf16Buffer(std::move(values));
        return std::make_shared<const Tensor>(std::move(t));
    }
    const bool in_place = entry.dtype == Dtype::f32 && std::endian::native == std::endian::little &&
                          reinterpret_cast<uintptr_t>(bytes) % alignof(float) == 0;
    if (!in_place) return std::make_shared<const Tensor>(decode_tensor(entry, buffer_));
    return mapped_tensor(entry.shape, reinterpret_cast<const float*>(bytes), file_);
}

}  // namespace attnlab::io
