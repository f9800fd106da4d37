// QT_TRANSLATE_NOOP for the engine's texts that the window translates (option labels, a run report's
// phrases and rows): Qt's lupdate reads the files that use it (ui/CMakeLists.txt), and the marker
// leaves the text as it is, so that the engine needs no Qt.
#pragma once

#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif
