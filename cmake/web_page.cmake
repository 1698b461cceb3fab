# The web page (scripts/web/build.sh configures this with emcmake): build-web/site/ holds index.html, attnlab.js,
# attnlab.wasm and attnlab.data (the bundled models, the tour, the shaders and the fonts), served as static files.
# And the Catch2 tests of core/ and app/model/, built as WebAssembly and run by ctest under node.
set(ATTNLAB_SITE "${CMAKE_BINARY_DIR}/site")
file(MAKE_DIRECTORY "${ATTNLAB_SITE}")

set(ATTNLAB_WEB_MEMORY -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB)

# ---- the page ----
add_executable(attnlab app/web/main_web.cpp app/web/page_bench.cpp)
target_link_libraries(attnlab PRIVATE attnlab_gui)
set(font_dir /usr/share/fonts/truetype)
set(packed_files
  "${CMAKE_SOURCE_DIR}/assets@/attnlab/assets"
  "${CMAKE_SOURCE_DIR}/shaders@/attnlab/shaders"
  # fonts-nanum's Hangul and fonts-dejavu-core's symbols, at the paths app/gui/fonts.cpp looks for on Debian
  "${font_dir}/nanum/NanumGothic.ttf@${font_dir}/nanum/NanumGothic.ttf"
  "${font_dir}/dejavu/DejaVuSans.ttf@${font_dir}/dejavu/DejaVuSans.ttf")
set(preload_flags)
foreach(item ${packed_files})
  list(APPEND preload_flags "SHELL:--preload-file ${item}")
endforeach()
target_link_options(attnlab PRIVATE ${ATTNLAB_WEB_MEMORY} ${preload_flags} -lidbfs.js
  "SHELL:-s EXPORTED_RUNTIME_METHODS=[FS,IDBFS,UTF8ToString,allocateUTF8,addRunDependency,removeRunDependency]"
  -sEXIT_RUNTIME=0)
set_target_properties(attnlab PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${ATTNLAB_SITE}" SUFFIX ".js"
  LINK_DEPENDS "${CMAKE_SOURCE_DIR}/app/web/index.html")
# The page's own HTML (Emscripten's shell would need its HTML minifier, which fails on Debian's emscripten).
add_custom_command(TARGET attnlab POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy "${CMAKE_SOURCE_DIR}/app/web/index.html" "${ATTNLAB_SITE}/index.html")

# ---- attnlab-cli, for timing the passes in the browser (bench/web_speed.sh, tests/web/bench_page.html): one run of
# callMain per page, its files written into the page's memory file system first ----
file(GLOB ATTNLAB_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/app/cli/*.cpp)
add_executable(attnlab-cli ${ATTNLAB_CLI_SOURCES})
target_link_libraries(attnlab-cli PRIVATE attnlab_app_model attnlab_core nlohmann_json::nlohmann_json)
target_link_options(attnlab-cli PRIVATE ${ATTNLAB_WEB_MEMORY} -sINVOKE_RUN=0 -sFORCE_FILESYSTEM=1 -sEXIT_RUNTIME=1
  -sENVIRONMENT=web "SHELL:-s EXPORTED_RUNTIME_METHODS=[FS,callMain,addRunDependency,removeRunDependency]")
set_target_properties(attnlab-cli PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bench" SUFFIX ".js")

# ---- the tests, under node with the real file system (NODERAWFS): the same fixtures as the desktop's ----
if(ATTNLAB_TESTS)
  enable_testing()
  add_library(attnlab_catch_main STATIC tests/catch_main.cpp)
  target_link_libraries(attnlab_catch_main PUBLIC Catch2::Catch2)
  set(node_test_flags ${ATTNLAB_WEB_MEMORY} -sNODERAWFS=1 -sENVIRONMENT=node)
  file(GLOB_RECURSE core_test_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/core/*.cpp)
  file(GLOB_RECURSE app_test_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/app/*.cpp)
  foreach(suite core app)
    add_executable(${suite}_tests ${${suite}_test_sources})
    target_link_libraries(${suite}_tests PRIVATE attnlab_app_model attnlab_catch_main)
    target_compile_definitions(${suite}_tests PRIVATE ATTNLAB_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
    target_link_options(${suite}_tests PRIVATE ${node_test_flags})
    set_target_properties(${suite}_tests PROPERTIES SUFFIX ".js")
    # node 20's fetch() breaks Emscripten 3.1.6's loading of the .wasm file beside the .js. The filter leaves out the
    # tests that need threads, and the hidden ones ([.…]: benches of local folders), which a filter of exclusions
    # alone would run.
    add_test(NAME web_${suite}_tests COMMAND node --no-experimental-fetch $<TARGET_FILE:${suite}_tests>
                                             "~[needs_threads]~[.]")
  endforeach()
endif()
