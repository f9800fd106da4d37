// Runs a libFuzzer target without libFuzzer (the engine builds with GCC, which has none): every
// input file (or every file in an input folder) goes to LLVMFuzzerTestOneInput as is, then
// `--mutations N` times mutated from a fixed seed (bytes flipped, set to 0x00/0xff/'{'/'"',
// truncated, a header length rewritten), so CTest replays the corpus and a deterministic
// neighbourhood of it on every run; `--total T` lowers the mutations of each input to T / inputs (at
// least one), so that a corpus libFuzzer grew to hundreds of near-alike inputs costs what a small one does.
// Build with -DTRAINBENCH_SANITIZE=ON to catch overreads.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" long g_fuzzAccepted; // inputs the target read as valid

namespace {
uint64_t g_state = 0x9E3779B97F4A7C15ull;
uint64_t next()
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}

std::string mutate(std::string s)
{
    const int edits = 1 + int(next() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
        const size_t at = size_t(next() % s.size());
        switch (next() % 6) {
        case 0:
            s[at] = char(next());
            break;
        case 1:
            s[at] = char("\x00\xff{\"9,"[next() % 6]);
            break;
        case 2:
            s.resize(at);
            break;
        case 3:
            s.erase(at, size_t(next() % 16));
            break;
        case 4:
            s.insert(at, std::string(size_t(1 + next() % 8), char(next())));
            break;
        case 5: { // a header length that lies
            const uint64_t v = next() >> (next() % 64);
            if (s.size() >= 8)
                std::memcpy(s.data(), &v, 8);
            break;
        }
        }
    }
    return s;
}

void run(const std::string& bytes)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}
} // namespace

int main(int argc, char** argv)
{
    long mutations = 0, total = 0;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--mutations") && i + 1 < argc) {
            mutations = std::atol(argv[++i]);
            continue;
        }
        if (!std::strcmp(argv[i], "--total") && i + 1 < argc) {
            total = std::atol(argv[++i]);
            continue;
        }
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else {
            files.push_back(p);
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: %s [--mutations N] [--total T] FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (total > 0)
        mutations = std::min(mutations, std::max(1L, total / long(files.size())));
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const long before = g_fuzzAccepted;
        run(bytes);
        // A seed named valid_* (or any .safetensors seed) must be read as valid.
        const bool mustAccept = f.extension() == ".safetensors" || f.filename().string().rfind("valid", 0) == 0;
        if (mustAccept && g_fuzzAccepted == before) {
            std::fprintf(stderr, "%s: a seed the target refuses\n", f.c_str());
            return 1;
        }
        for (long m = 0; m < mutations; ++m)
            run(mutate(bytes));
    }
    std::printf("%zu inputs, %ld mutations each: no crash; %ld accepted\n", files.size(), mutations, g_fuzzAccepted);
    return 0;
}
