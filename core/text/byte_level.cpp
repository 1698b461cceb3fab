// The byte <-> symbol bijection of GPT-2's byte-level BPE, computed from its definition.
#include "text/byte_level.h"

#include "text/utf8.h"

#include <array>

namespace attnlab {

namespace {

constexpr bool stands_for_itself(int b) {
    return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

// kSymbols[b] is the stand-in of byte b: b itself, or U+0100 + n for the n-th other byte.
constexpr std::array<char32_t, 256> make_symbols() {
    std::array<char32_t, 256> symbols{};
    char32_t n_others = 0;
    for (int b = 0; b < 256; ++b) symbols[b] = stands_for_itself(b) ? b : 0x100 + n_others++;
    return symbols;
}
constexpr std::array<char32_t, 256> kSymbols = make_symbols();
constexpr char32_t kLastSymbol = 0x100 + 68 - 1;  // 68 bytes do not stand for themselves
static_assert(kSymbols[' '] == 0x120 && kSymbols['\n'] == 0x10A && kSymbols[0xAD] == kLastSymbol);

// The inverse table over U+0000..kLastSymbol; -1 where a code point stands for no byte.
constexpr std::array<int16_t, kLastSymbol + 1> make_bytes() {
    std::array<int16_t, kLastSymbol + 1> bytes{};
    for (auto& b : bytes) b = -1;
    for (int b = 0; b < 256; ++b) bytes[kSymbols[b]] = static_cast<int16_t>(b);
    return bytes;
}
constexpr std::array<int16_t, kLastSymbol + 1> kBytes = make_bytes();

}  // namespace

char32_t byte_to_symbol(uint8_t byte) { return kSymbols[byte]; }

std::optional<uint8_t> symbol_to_byte(char32_t symbol) {
    if (symbol > kLastSymbol || kBytes[symbol] < 0) return std::nullopt;
    return static_cast<uint8_t>(kBytes[symbol]);
}

std::optional<std::string> symbols_to_bytes(std::string_view symbols) {
    std::string out;
    out.reserve(symbols.size());
    for (size_t i = 0; i < symbols.size();) {
        const std::optional<uint8_t> b = symbol_to_byte(next_code_point(symbols, &i));
        if (!b) return std::nullopt;
        out += static_cast<char>(*b);
    }
    return out;
}

}  // namespace attnlab
