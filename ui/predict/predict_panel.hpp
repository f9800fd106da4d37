// The Predict page: draw a digit (or open, drop or paste a picture) and see what the model says
// while drawing. Beside the drawing, the exact image the model receives after the preprocessing
// (engine/data/preprocess.hpp); beside that, the most probable classes as bars. Decoding and
// predicting run off the GUI thread, one at a time: strokes drawn meanwhile are predicted together
// as soon as the previous prediction is back.
#pragma once

#include "common/value_types.hpp"
#include "common/weights_notice.hpp"
#include "data/preprocess.hpp"

#include <QImage>
#include <QWidget>
#include <functional>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace tb {
class Predictor;
}

namespace tbui {

class DrawingPad;
class ElidedLabel;
class ProbabilityBars;
struct PictureLoad;
struct PredictOutcome;
struct ModelLoad;

class PredictPanel : public QWidget {
    Q_OBJECT
public:
    explicit PredictPanel(QWidget* parent = nullptr);
    ~PredictPanel() override;

    // The model to predict with (the last run's, or weights opened in the window); `source` names it.
    // source: what the model is ("tpu-mnist-cnn on cpu:2, started 10:42"), in the current language.
    void setWeights(WeightsPtr weights, std::function<QString()> source);
    void openWeightsFile(const QString& path); // read off the GUI thread; weightsOpened tells
    void openPicture(const QString& path);     // read off the GUI thread; pictureOpened tells
    void pastePicture();                       // the clipboard's picture, or its file

    DrawingPad* pad() const { return m_pad; }
    ProbabilityBars* bars() const { return m_bars; }
    QCheckBox* invertBox() const { return m_invert; }
    QCheckBox* centreBox() const { return m_centre; }
    bool hasModel() const { return m_predictor != nullptr; }
    QString modelText() const;
    QString statusText() const; // the last prediction, or what went wrong
    bool statusIsError() const { return m_statusError; }
    QString inputCaption() const;                 // what the model receives, and the steps that made it
    QImage modelInput() const { return m_input; } // what the model received last (grayscale, model size)
    std::vector<float> probabilities() const { return m_probs; }
    // What the model's file says of itself (tb::WeightsFile::notice, a safetensors file whose weights
    // differ from its metadata's SHA-256) in the window's language, shown under the model's line; empty
    // when it says nothing.
    QString noticeText() const;
    bool idle() const { return !m_busy && !m_dirty; }
    double lastForwardMs() const { return m_lastMs; }

signals:
    void predictionShown(); // a prediction (or the preview without a model) is on screen
    void pictureOpened(bool ok);
    void weightsOpened(bool ok);

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void retranslate();
    void requestPrediction();
    void startPrediction();
    void showOutcome(const PredictOutcome& outcome);
    void usePicture(const PictureLoad& load, const QString& what);
    void useModel(const ModelLoad& load, std::function<QString()> source);
    void setStatus(const QString& text, bool error);
    void showModelText();
    void clearPrediction();
    bool drawsDigits() const;

    DrawingPad* m_pad;
    QLabel* m_inputView;
    QLabel* m_inputCaption;
    ProbabilityBars* m_bars;
    QLabel* m_model;
    WeightsNotice* m_notice;
    ElidedLabel* m_status;
    QPushButton* m_openWeights;
    QPushButton* m_openPicture;
    QPushButton* m_paste;
    QPushButton* m_undo;
    QPushButton* m_clear;
    QLabel* m_brushLabel;
    QSlider* m_brush;
    QCheckBox* m_invert;
    QCheckBox* m_centre;
    QLabel* m_topLabel;
    QSpinBox* m_top;

    std::shared_ptr<tb::Predictor> m_predictor; // used by one prediction task at a time
    WeightsPtr m_weights;
    std::function<QString()> m_source; // what the model is, for the page, in the current language
    bool m_busy = false;               // a prediction is running
    bool m_dirty = false;              // the picture or the options changed since it started
    QImage m_input;
    std::vector<float> m_probs;
    QString m_statusText;
    bool m_statusError = false;
    QString m_note;         // about the picture in use (animated, ...)
    QString m_pictureError; // the last picture that could not be opened, until the drawing changes
    double m_lastMs = 0.0;
};

} // namespace tbui
