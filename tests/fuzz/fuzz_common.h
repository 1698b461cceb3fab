// Shared helpers for the libFuzzer targets: a check that survives -DNDEBUG and names the
// broken property before aborting, so a crash report says what went wrong.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, what)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s (%s)\n", __FILE__, __LINE__, #cond, \
                         std::string(what).c_str());                                               \
            std::abort();                                                                          \
        }                                                                                          \
    } while (0)

// Errors are one line that starts with the source name (CONVENTIONS.md, "Errors").
inline bool is_one_line(const std::string& message) {
    return !message.empty() && message.find('\n') == std::string::npos;
}
