// Mapped safetensors: F32 tensors viewed in place, the other float dtypes decoded.
#include "io/mapped_safetensors.h"

#include "io/file_bytes.h"

#include <bit>
#include <cassert>
#include <cstdint>

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

Result<std::shared_ptr<const Tensor>> MappedSafetensors::tensor(const std::string& name) const {
    const auto it = entries_.find(name);
    assert(it != entries_.end());
    const SafetensorsEntry& entry = it->second;
    if (!is_float_dtype(entry.dtype))
        return Error{source_ + ": tensor " + quote_name(name) + ": " +
                     unsupported_dtype_message(dtype_name(entry.dtype))};
    const uint8_t* bytes = buffer_.data() + entry.begin;
    const bool in_place = entry.dtype == Dtype::f32 && std::endian::native == std::endian::little &&
                          reinterpret_cast<uintptr_t>(bytes) % alignof(float) == 0;
    if (!in_place) return std::make_shared<const Tensor>(decode_tensor(entry, buffer_));
    return mapped_tensor(entry.shape, reinterpret_cast<const float*>(bytes), file_);
}

}  // namespace attnlab::io
