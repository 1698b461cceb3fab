// GPT-2's byte-level alphabet: every byte has a printable code point as its stand-in, so a
// byte string is written as text in vocab.json and merges.txt. Bytes that are printable in
// Latin-1 ('!'..'~', U+00A1..U+00AC, U+00AE..U+00FF) stand for themselves; the other 68
// (controls, space, U+007F..U+00A0, the soft hyphen U+00AD) take U+0100, U+0101, ... in byte
// order, so the space 0x20 is U+0120 'Ġ' and the newline 0x0A is U+010A 'Ċ'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

char32_t byte_to_symbol(uint8_t byte);
std::optional<uint8_t> symbol_to_byte(char32_t symbol);  // nullopt outside the alphabet

// Symbols (valid UTF-8) -> the bytes they stand for, e.g. "ĠÃ©" -> " é" (20 C3 A9); nullopt
// if a code point is not a symbol.
std::optional<std::string> symbols_to_bytes(std::string_view symbols);

}  // namespace attnlab
