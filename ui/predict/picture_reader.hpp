// Reads a picture for the Predict page with QImageReader (PNG, JPEG, BMP, GIF, whatever the Qt
// image plugins read), refusing by the header's size before decoding, so a 20000x20000 file gives
// a message instead of freezing. Runs off the GUI thread; returns values only.
#pragma once

#include "data/preprocess.hpp"

#include <QImage>
#include <QString>

namespace tbui {

struct PictureLoad {
    QImage image;  // null on error
    QString error; // what is wrong, for the page
    QString note;  // e.g. an animated picture read as its first frame
};

PictureLoad readPictureFile(const QString& path);
// A picture from the clipboard or a drop, checked the same way ("what" names it in messages).
PictureLoad checkPicture(const QImage& image, const QString& what);
// 8-bit RGBA with straight alpha, as the engine's preprocessing takes it.
tb::RgbaImage toRgba(const QImage& image);

} // namespace tbui
