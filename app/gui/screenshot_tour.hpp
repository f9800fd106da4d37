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
// `dataDir`, when given, is loaded first, as a user would have one open.
int runPredictScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& weights, const QString& dataDir);
// Only the Compare page, one epoch of 20 batches of tpu-mnist-cnn on each device of `devices`
// ("cpu:1,cpu:2,opencl:0"), at 1280x690: <outDir>/compare-opencl.png when one is an OpenCL
// device, else compare-devices.png.
int runCompareScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& dataDir, const QString& devices);
// Only the Runs page of the runs folder (the XDG data directory's), the two newest completed runs
// ticked so that their curves overlay, at 1360x900: <outDir>/runs-page.png.
int runRunsScreenshot(tbui::MainWindow& w, const QString& outDir);
// A text model at 1280x720: the Setup page with the text `textPath` (text-setup.png), the Results page of
// the weights file `weights` on it (text-results.png), and the Write page writing after a prompt in
// English and Spanish (writing-page-en.png, writing-page-es.png; text-results-es.png and text-setup-es.png to
// look at the Spanish layout).
int runWriteScreenshot(tbui::MainWindow& w, const QString& outDir, const QString& textPath, const QString& weights);
