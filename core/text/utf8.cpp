// Strict UTF-8 decoding after the RFC 3629 table of well-formed byte sequences.
#include "text/utf8.h"

#include <cassert>
#include <cstdint>

namespace attnlab {

namespace {

// Length in bytes of the well-formed sequence that starts at `text[i]`, or 0 with `why`
// set when there is none; then `bad_length` is the length of the ill-formed part (the
// "maximal subpart" of Unicode section 3.9: the bytes that could still have begun a
// well-formed sequence, at least one).
//   lead byte   second byte   then
//   00..7F      -             -
//   C2..DF      80..BF        -
//   E0          A0..BF        80..BF          (E0 80..9F would be overlong)
//   E1..EC      80..BF        80..BF
//   ED          80..9F        80..BF          (ED A0..BF would be a surrogate)
//   EE..EF      80..BF        80..BF
//   F0          90..BF        80..BF x2       (F0 80..8F would be overlong)
//   F1..F3      80..BF        80..BF x2
//   F4          80..8F        80..BF x2       (F4 90..BF would be above U+10FFFF)
size_t sequence_length(std::string_view text, size_t i, const char** why, size_t* bad_length) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t lead = byte(i);
    if (lead < 0x80) return 1;
    *bad_length = 1;

    size_t n = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (lead <= 0xBF) {
        *why = "unexpected continuation byte";
        return 0;
    }
    if (lead == 0xC0 || lead == 0xC1) {
        *why = "overlong encoding";
        return 0;
    }
    if (lead <= 0xDF) {
        n = 2;
    } else if (lead <= 0xEF) {
        n = 3;
        if (lead == 0xE0) lo = 0xA0;
        if (lead == 0xED) hi = 0x9F;
    } else if (lead <= 0xF4) {
        n = 4;
        if (lead == 0xF0) lo = 0x90;
        if (lead == 0xF4) hi = 0x8F;
    } else {
        *why = "byte 0xF5..0xFF never occurs in UTF-8";
        return 0;
    }

    if (i + 1 >= text.size()) {
        *why = "truncated sequence";
        return 0;
    }
    const uint8_t second = byte(i + 1);
    if (second < lo || second > hi) {
        if (second < 0x80 || second > 0xBF)
            *why = "truncated sequence";
        else if (lead == 0xED)
            *why = "surrogate code point";
        else if (lead == 0xF4)
            *why = "code point above U+10FFFF";
        else
            *why = "overlong encoding";
        return 0;
    }
    for (size_t k = 2; k < n; ++k) {
        if (i + k >= text.size() || byte(i + k) < 0x80 || byte(i + k) > 0xBF) {
            *why = "truncated sequence";
            *bad_length = k;
            return 0;
        }
    }
    return n;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    const char* why = nullptr;
    size_t bad_length = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = sequence_length(text, i, &why, &bad_length);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

Result<std::vector<std::string>> split_code_points(std::string_view text) {
    std::vector<std::string> out;
    const char* why = nullptr;
    size_t bad_length = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = sequence_length(text, i, &why, &bad_length);
        if (n == 0) {
            return Error{"invalid UTF-8 at byte offset " + std::to_string(i) + ": " + why};
        }
        out.emplace_back(text.substr(i, n));
        i += n;
    }
    return out;
}

std::string replace_invalid_utf8(std::string_view bytes) {
    constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
    std::string out;
    out.reserve(bytes.size());
    const char* why = nullptr;
    size_t bad_length = 0;
    for (size_t i = 0; i < bytes.size();) {
        const size_t n = sequence_length(bytes, i, &why, &bad_length);
        if (n == 0) {
            out += kReplacement;
            i += bad_length;
        } else {
            out.append(bytes.substr(i, n));
            i += n;
        }
    }
    return out;
}

char32_t next_code_point(std::string_view text, size_t* i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    assert(*i < text.size());
    const uint8_t lead = byte(*i);
    const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    assert(*i + n <= text.size());
    char32_t c = n == 1 ? lead : lead & (0x7F >> n);  // the lead's payload bits
    for (size_t k = 1; k < n; ++k) c = (c << 6) | (byte(*i + k) & 0x3F);
    *i += n;
    return c;
}

void append_utf8(char32_t c, std::string& out) {
    assert(c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF));
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

size_t count_code_points(std::string_view text) {
    assert(is_valid_utf8(text));
    size_t n = 0;
    for (char c : text) {
        if ((static_cast<uint8_t>(c) & 0xC0) != 0x80) ++n;  // every byte but continuations
    }
    return n;
}

}  // namespace attnlab
