# The web page's dependencies, for Emscripten: the same versions the desktop build links, from Debian only.
#   Eigen, nlohmann-json, stb and Catch2: the headers of Debian's packages (libeigen3-dev, nlohmann-json3-dev,
#     libstb-dev, catch2), reached through links in the build folder, since /usr/include as a whole would bring
#     glibc's headers into a WebAssembly build.
#   SentencePiece 0.1.97 and Dear ImGui 1.86: Debian's source packages, unpacked by scripts/web/setup.sh into
#     ATTNLAB_WEB_DEPS, and built here as Debian builds them (ImGui with Debian's stb; SentencePiece's processor with
#     its bundled protobuf-lite, as its own CMake does with SPM_USE_BUILTIN_PROTOBUF).
set(ATTNLAB_WEB_DEPS "" CACHE PATH "where scripts/web/setup.sh unpacked Debian's imgui and sentencepiece sources")
file(GLOB IMGUI_SOURCE_DIR LIST_DIRECTORIES true "${ATTNLAB_WEB_DEPS}/imgui-1.86*")
file(GLOB SENTENCEPIECE_SOURCE_DIR LIST_DIRECTORIES true "${ATTNLAB_WEB_DEPS}/sentencepiece-0.1.97*")
if(NOT IMGUI_SOURCE_DIR OR NOT SENTENCEPIECE_SOURCE_DIR)
  message(FATAL_ERROR "Debian's imgui and sentencepiece sources are not in ATTNLAB_WEB_DEPS (${ATTNLAB_WEB_DEPS}): "
                      "build the page with scripts/web/build.sh, which fetches them")
endif()

set(web_include "${CMAKE_BINARY_DIR}/debian-include")
file(MAKE_DIRECTORY "${web_include}")
foreach(dir nlohmann stb catch2)
  file(CREATE_LINK "/usr/include/${dir}" "${web_include}/${dir}" SYMBOLIC)
endforeach()

add_library(Eigen3::Eigen INTERFACE IMPORTED)
target_include_directories(Eigen3::Eigen SYSTEM INTERFACE /usr/include/eigen3)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${web_include}")
add_library(Catch2::Catch2 INTERFACE IMPORTED)
target_include_directories(Catch2::Catch2 SYSTEM INTERFACE "${web_include}")

# Everything built for the page: -fexceptions, since the JSON readers report bad files by exception and Emscripten
# otherwise aborts on the first throw; -msimd128, WebAssembly SIMD, which every current browser runs (Chrome 91,
# Firefox 89, Safari 16.4).
add_compile_options(-fexceptions -msimd128)
add_link_options(-fexceptions)

# ---- SentencePiece: the processor (no trainer) and protobuf-lite ----
set(spm "${SENTENCEPIECE_SOURCE_DIR}")
# config.h as SentencePiece's own CMake makes it from config.h.in.
set(PROJECT_VERSION 0.1.97)
set(PROJECT_NAME sentencepiece)
configure_file("${spm}/config.h.in" "${CMAKE_BINARY_DIR}/sentencepiece-config/config.h")
file(GLOB protobuf_lite_sources "${spm}/third_party/protobuf-lite/*.cc")
add_library(attnlab_sentencepiece STATIC ${protobuf_lite_sources}
  ${spm}/src/builtin_pb/sentencepiece.pb.cc ${spm}/src/builtin_pb/sentencepiece_model.pb.cc
  ${spm}/src/bpe_model.cc ${spm}/src/char_model.cc ${spm}/src/error.cc ${spm}/src/filesystem.cc
  ${spm}/src/model_factory.cc ${spm}/src/model_interface.cc ${spm}/src/normalizer.cc
  ${spm}/src/sentencepiece_processor.cc ${spm}/src/unigram_model.cc ${spm}/src/util.cc ${spm}/src/word_model.cc
  ${spm}/third_party/absl/flags/flag.cc)
target_include_directories(attnlab_sentencepiece SYSTEM PUBLIC ${spm}/src)
target_include_directories(attnlab_sentencepiece SYSTEM PRIVATE ${spm} ${spm}/src/builtin_pb ${spm}/third_party
                                                                ${spm}/third_party/protobuf-lite
                                                                "${CMAKE_BINARY_DIR}/sentencepiece-config")
target_compile_definitions(attnlab_sentencepiece PRIVATE HAVE_PTHREAD=1 _USE_INTERNAL_STRING_VIEW)
target_compile_options(attnlab_sentencepiece PRIVATE -w)  # their code, their warnings

# ---- Dear ImGui 1.86 with its GLFW backend and imgui_stdlib, as Debian's Makefile builds it (the app draws with
# its own renderer, app/gui/gl/ui_renderer) ----
set(imgui "${IMGUI_SOURCE_DIR}")
add_library(attnlab_imgui STATIC
  ${imgui}/imgui.cpp ${imgui}/imgui_draw.cpp ${imgui}/imgui_tables.cpp ${imgui}/imgui_widgets.cpp
  ${imgui}/misc/cpp/imgui_stdlib.cpp ${imgui}/backends/imgui_impl_glfw.cpp
  ${CMAKE_SOURCE_DIR}/app/web/stb_implementation.cpp)
# <imgui.h>, <backends/imgui_impl_glfw.h> and <imgui_stdlib.h>, as Debian's /usr/include/imgui offers them.
target_include_directories(attnlab_imgui SYSTEM PUBLIC ${imgui} ${imgui}/misc/cpp "${web_include}")
target_compile_definitions(attnlab_imgui PUBLIC
  IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION "IMGUI_STB_RECT_PACK_FILENAME=<stb/stb_rect_pack.h>"
  IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION "IMGUI_STB_TRUETYPE_FILENAME=<stb/stb_truetype.h>")
target_compile_options(attnlab_imgui PRIVATE -w)
target_link_options(attnlab_imgui INTERFACE -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2)
