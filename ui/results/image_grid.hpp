// A scrollable grid of image tiles with two caption lines and an optional coloured frame. Tiles
// come from a provider so that 10,000 test images cost nothing until they are on screen.
#pragma once

#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

namespace tbui {

struct Tile {
    QImage image; // grayscale, any size; drawn scaled to the tile
    QString caption;
    QString detail;
    QColor frame; // invalid: no frame
};

class ImageGrid : public QWidget {
    Q_OBJECT
public:
    explicit ImageGrid(QWidget* parent = nullptr);

    void setTiles(int count, std::function<Tile(int)> provider);
    void setTileSize(int imageSide)
    {
        m_side = imageSide;
        relayout();
    }
    // The widest captions the tiles can have (each class's longest): the tiles are made wide enough
    // for them, up to three images' width, so that they are not cut and do not touch.
    void setCaptionSamples(const QStringList& captions);
    // Tiles in groups of this many (0: none), each group from the start of a row, a row at most a
    // group wide (one class's samples a row, on two rows where one is too narrow).
    void setGroupSize(int tiles);
    int tileCount() const { return m_count; }
    int tileWidth() const { return cell().width(); }
    int tileHeight() const { return cell().height(); }
    Tile tile(int index) const { return m_provider(index); }
    int columns() const;
    QPoint slotOf(int index) const; // (column, row)

    // The first `maxTiles` tiles as one picture (for export).
    QImage renderImage(int maxTiles, int columns) const;

    // A grayscale image of a dataset sample (the pixels are copied).
    static QImage grayImage(const uint8_t* pixels, int width, int height);

signals:
    void tileClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void relayout();
    QSize cell() const;
    int rowsPerGroup() const;
    int indexAt(int row, int col) const; // -1: no tile there
    void paintTile(QPainter& p, QRect r, const Tile& t) const;

    int m_count = 0;
    std::function<Tile(int)> m_provider;
    int m_side = 72;
    QStringList m_captionSamples;
    int m_group = 0;
};

} // namespace tbui
