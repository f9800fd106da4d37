// A scrollable grid of image tiles with two caption lines and an optional coloured frame. Tiles
// come from a provider so that 10,000 test images cost nothing until they are on screen.
#pragma once

#include <QColor>
#include <QImage>
#include <QString>
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
    int tileCount() const { return m_count; }
    Tile tile(int index) const { return m_provider(index); }
    int columns() const;

    // The first `maxTiles` tiles as one picture (for export).
    QImage renderImage(int maxTiles, int columns) const;

    // A grayscale image of a dataset sample (the pixels are copied).
    static QImage grayImage(const uint8_t* pixels, int width, int height);

signals:
    void tileClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void relayout();
    QSize cell() const;
    void paintTile(QPainter& p, QRect r, const Tile& t) const;

    int m_count = 0;
    std::function<Tile(int)> m_provider;
    int m_side = 72;
};

} // namespace tbui
