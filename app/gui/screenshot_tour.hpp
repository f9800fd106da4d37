// Drives the window through its main states (empty, training, results, Spanish) and saves a
// screenshot of each into a folder, for the README. Run by scripts/screenshots.sh.
#pragma once

#include <QString>

namespace tbui {
class MainWindow;
}

// Returns the process exit code once every screenshot is written (or an error happened).
int runScreenshotTour(tbui::MainWindow& window, const QString& outDir, const QString& dataDir);
// The Predict page with the weights file `weights`, a digit drawn on it: <outDir>/predict-page.png.
int runPredictScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& weights);
