// QImageReader with the engine's size limits (picture_reader.hpp).
#include "predict/picture_reader.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImageReader>

#include <cstring>

namespace tbui {
namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(PictureReader)
};

QString tooLarge(const QString& what, QSize size)
{
    return Text::tr("%1 is %2×%3 pixels, too large to predict on (at most %4 pixels a side and %5 megapixels); "
                    "scale it down first.")
        .arg(what)
        .arg(size.width())
        .arg(size.height())
        .arg(tb::kMaxPictureSide)
        .arg(tb::kMaxPicturePixels / (1024 * 1024));
}

bool sizeAcceptable(QSize size)
{
    return tb::pictureSizeProblem(size.width(), size.height()).empty();
}

} // namespace

PictureLoad readPictureFile(const QString& path)
{
    PictureLoad out;
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (!info.exists())
        return {{}, Text::tr("%1 does not exist.").arg(path), {}};
    if (info.isDir())
        return {{}, Text::tr("%1 is a folder, not a picture.").arg(path), {}};
    if (info.size() == 0)
        return {{}, Text::tr("%1 is empty (0 bytes).").arg(name), {}};
    QImageReader reader(path);
    reader.setAutoTransform(true);
    // Qt's own guard as well: no decoder may allocate more than what the largest accepted picture needs.
    reader.setAllocationLimit(int(tb::kMaxPicturePixels * 8 / (1024 * 1024)));
    if (!reader.canRead())
        return {{}, Text::tr("%1 is not a picture Trainbench can read (%2).").arg(name, reader.errorString()), {}};
    const QSize size = reader.size(); // from the header, nothing decoded yet
    if (size.isValid() && !sizeAcceptable(size))
        return {{}, tooLarge(name, size), {}};
    if (size.isValid() && size.isEmpty())
        return {{}, Text::tr("%1 has no pixels (%2×%3).").arg(name).arg(size.width()).arg(size.height()), {}};
    if (reader.supportsAnimation() && reader.imageCount() > 1)
        out.note =
            Text::tr("%1 is animated (%2 frames): predicting on its first frame.").arg(name).arg(reader.imageCount());
    QImage image = reader.read();
    if (image.isNull()) {
        // Qt's words for a damaged file ("Unable to read image data") do not say it is damaged.
        if (reader.error() == QImageReader::InvalidDataError)
            return {{},
                    Text::tr("%1 is damaged: its picture data cannot be decoded (%2).").arg(name, reader.errorString()),
                    {}};
        return {{}, Text::tr("%1 could not be read: %2.").arg(name, reader.errorString()), {}};
    }
    PictureLoad checked = checkPicture(image, name);
    checked.note = out.note;
    return checked;
}

PictureLoad checkPicture(const QImage& image, const QString& what)
{
    if (image.isNull() || image.size().isEmpty())
        return {{}, Text::tr("%1 has no pixels.").arg(what), {}};
    if (!sizeAcceptable(image.size()))
        return {{}, tooLarge(what, image.size()), {}};
    return {image, {}, {}};
}

tb::RgbaImage toRgba(const QImage& image)
{
    const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
    tb::RgbaImage out;
    out.width = rgba.width();
    out.height = rgba.height();
    out.pixels.resize(size_t(out.width) * size_t(out.height) * 4);
    for (int y = 0; y < out.height; ++y)
        std::memcpy(out.pixels.data() + size_t(y) * size_t(out.width) * 4, rgba.constScanLine(y),
                    size_t(out.width) * 4);
    return out;
}

} // namespace tbui
