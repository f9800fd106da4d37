// libFuzzer target for the pictures `trainbench-cli predict` reads (app/cli/picture_file.cpp,
// readPicture: PNG through libpng, JPEG through libjpeg-turbo, binary PGM and PPM by our own parser), then
// the engine's preprocessing of the decoded picture for a 28x28 model (data/preprocess.cpp), both
// ways. The libraries are fuzzed upstream; what this exercises is our use of them (the size checks
// before decoding, the error paths out of their longjmp handlers, the conversions after) and the
// PGM and PPM headers and pixels, which are ours alone.
#include "core/errors.hpp"
#include "data/preprocess.hpp"
#include "fuzz_scratch.hpp"
#include "picture_file.hpp"

#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = fuzz::writeScratch("picture", data, size);
    try {
        const tbcli::Picture pic = tbcli::readPicture(path);
        const tb::GrayImage gray = tb::toGray(pic.image);
        for (const bool centre : {true, false}) {
            const tb::PreprocessResult r = tb::preprocessImage(gray, 28, 28, {true, centre});
            if (r.input.pixels.size() != 28 * 28)
                __builtin_trap();
        }
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
