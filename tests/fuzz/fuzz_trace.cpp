// libFuzzer target: a file the app is asked to open that may be a trace (attnlab-trace.safetensors, written by
// io::write_trace) or a gradient file, as File > Open reads it: open_model (core/hf/open_model.h) on the path,
// then, when that fails, explain_open_error (app/model/open_error.h) for the message the app shows.
// Properties: opening never crashes; a file that does not open gets one line naming it, and the app's
// explanation names the file, keeps the loader's message and says it is a file that is there.
#include "fuzz_common.h"
#include "hf/open_model.h"
#include "open_error.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

using namespace attnlab;

namespace {

// One file per fuzzing process, rewritten for every input.
const std::string& trace_path() {
    static const std::string path = [] {
        char pattern[] = "/tmp/attnlab-fuzz-trace-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        FUZZ_CHECK(made != nullptr, "mkdtemp failed");
        return std::string(made) + "/attnlab-trace.safetensors";
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = trace_path();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    FUZZ_CHECK(f != nullptr, "cannot write " + path);
    FUZZ_CHECK(size == 0 || std::fwrite(data, 1, size, f) == size, "short write to " + path);
    std::fclose(f);

    auto model = open_model(path);
    if (model) return 0;  // a model file after all
    const std::string& m = model.error().message;
    FUZZ_CHECK(is_one_line(m), "error is not one line: " + m);
    FUZZ_CHECK(m.find("attnlab-trace.safetensors") != std::string::npos, "error does not name the file: " + m);
    const gui::OpenProblem problem = gui::explain_open_error(path, m);
    FUZZ_CHECK(problem.name == "attnlab-trace.safetensors", "the explanation names " + problem.name);
    FUZZ_CHECK(problem.detail == m, "the explanation lost the loader's message");
    using Kind = gui::OpenProblem::Kind;
    FUZZ_CHECK(problem.kind != Kind::missing && problem.kind != Kind::folder_without_config &&
                   problem.kind != Kind::folder_without_weights && problem.kind != Kind::unsupported_folder,
               "a file that is there explained as missing or a folder");
    FUZZ_CHECK((problem.kind == Kind::empty_file) == (size == 0), "empty file explained wrongly");
    return 0;
}
