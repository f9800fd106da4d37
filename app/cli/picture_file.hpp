// Reads a PNG, JPEG, or binary PGM or PPM file (or standard input) into 8-bit RGBA for the engine's preprocessing
// (data/preprocess.hpp), with libpng and libjpeg-turbo: the CLI has no Qt, and these two are what pictures of digits
// are saved as. The size in the header is checked before anything is decoded.
#pragma once

#include "data/preprocess.hpp"

#include <string>

namespace tbcli {

struct Picture {
    tb::RgbaImage image;
    std::string note; // a warning to print, e.g. an animated PNG read as its first frame
};

// Throws tb::IoError naming the file and what is wrong with it (missing, empty, not a PNG, JPEG, PGM or PPM,
// corrupt, too large). "-" reads standard input to its end (a pipe, a redirected file; not a terminal).
Picture readPicture(const std::string& path);
// How messages name the picture `path` names: "standard input" for "-", else the path.
std::string pictureName(const std::string& path);

} // namespace tbcli
