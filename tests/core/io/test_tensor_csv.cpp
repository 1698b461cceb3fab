// CSV export: every value round-trips through its text, and rank-3 tensors come in blocks.
#include "io/tensor_csv.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

using namespace attnlab;

TEST_CASE("tensor CSV holds every value exactly, row by row", "[csv]") {
    Tensor m({2, 3});
    m.data = {1.0f, -2.5f, 0.1f, 3.0e-8f, 1234567.0f, -0.0f};
    const std::string csv = io::tensor_to_csv(m);
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    CHECK(line == "# shape (2, 3)");
    std::vector<float> values;
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        std::string cell;
        int n = 0;
        while (std::getline(cells, cell, ',')) values.push_back(std::strtof(cell.c_str(), nullptr)), ++n;
        CHECK(n == 3);
    }
    REQUIRE(values.size() == 6);
    for (size_t i = 0; i < 6; ++i) CHECK(values[i] == m.data[i]);

    Tensor heads({2, 1, 2});
    heads.data = {1, 2, 3, 4};
    CHECK(io::tensor_to_csv(heads) == "# shape (2, 1, 2)\n# [0]\n1,2\n# [1]\n3,4\n");
    CHECK_FALSE(io::write_tensor_csv("/nonexistent-dir/x.csv", m));
}
