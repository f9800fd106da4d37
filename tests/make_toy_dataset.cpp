// Writes the tests' toy dataset (28x28, 10 classes) into a folder, for the shell-level tests that
// run the CLI (tests/qemu_portability.sh).
#include "fixtures.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: tb_make_toy_dataset DIR\n");
        return 2;
    }
    try {
        fixtures::writeToyDataset(argv[1], 64, 48, 28, 10);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tb_make_toy_dataset: %s\n", e.what());
        return 1;
    }
    return 0;
}
