// Writing small pictures into self-contained text: an 8-bit greyscale PNG (zlib's deflate and CRC,
// no libpng in the engine) and base64 for data: URIs and JSON.
#pragma once

#include <cstdint>
#include <string>

namespace tb {

// A PNG of `height` rows of `width` grey bytes each; throws IoError if zlib fails.
std::string encodeGreyPng(const uint8_t* pixels, int width, int height);

std::string base64Encode(const std::string& bytes);
// Throws DataError on a character outside the base64 alphabet.
std::string base64Decode(const std::string& text);

} // namespace tb
