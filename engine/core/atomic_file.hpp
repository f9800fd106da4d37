// Writes a file atomically: the bytes go to a temporary file in the same folder, which is flushed
// to disk and renamed over the target. A failure (no permission, full disk) throws IoError and
// leaves neither a half-written target nor the temporary file behind.
#pragma once

#include <string>

namespace tb {

void writeFileAtomically(const std::string& path, const std::string& bytes);
std::string readWholeFile(const std::string& path); // throws IoError

} // namespace tb
