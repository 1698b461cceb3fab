// Prints "WIDTH HEIGHT DISTINCT_COLOURS" of a PNG: the GUI test's check that a screenshot is not blank.
#include <stb/stb_image.h>

#include <cstdio>
#include <unordered_set>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    int w = 0, h = 0, n = 0;
    unsigned char* pixels = stbi_load(argv[1], &w, &h, &n, 3);
    if (!pixels) {
        std::fprintf(stderr, "png_stats: cannot read %s\n", argv[1]);
        return 1;
    }
    std::unordered_set<unsigned> colours;
    for (int i = 0; i < w * h; ++i) colours.insert(pixels[3 * i] << 16 | pixels[3 * i + 1] << 8 | pixels[3 * i + 2]);
    stbi_image_free(pixels);
    std::printf("%d %d %zu\n", w, h, colours.size());
    return 0;
}
