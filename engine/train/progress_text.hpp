// Keras-like progress text, shared by the CLI and the window's log pane:
//   " 120/468 [=====>........................] - ETA: 21s - loss: 0.5321 - accuracy: 0.8102"
//   "468/468 [==============================] - 27s 58ms/step - loss: 0.45 - ... - val_accuracy: 0.8712"
#pragma once

#include "train/trainer.hpp"

#include <string>
#include <vector>

namespace tb {

std::string progressLine(const BatchProgress& p);
std::string epochLine(const EpochRecord& r, int steps);
std::string formatDuration(double seconds); // "21s", "3m 05s", "1h 02m"
// The callbacks' decisions after epoch r, in Keras' words: "Epoch 3: ReduceLROnPlateau reducing
// learning rate to 0.0005." and "Epoch 5: early stopping". The CLI prints them; the window says the
// same in its language, with loweredRate's figure.
std::vector<std::string> callbackLines(const EpochRecord& r, const LrSchedule& schedule);
// The rate reduce-on-plateau set after epoch r (r.rateLowered): the next epoch's.
double loweredRate(const EpochRecord& r, const LrSchedule& schedule);

// "60000 train / 10000 test images, 28x28, 10 classes (Fashion-MNIST)"; for a text:
// "494 train / 54 validation sequences of 64 bytes (35,149 bytes of text), byte-level vocabulary of 256 symbols"
std::string describeDataset(const Dataset& d);
// For an image dataset whose classes (as many as its largest training label says, without classes.txt)
// include some no training image has: what that suggests, since one corrupt label byte makes 10
// classes 201. Empty when every class has images, or classes.txt names them.
std::string emptyClassesNote(const Dataset& d);
// The two lines a run starts with: model, parameters, dataset; device, batch, optimizer, seed, GEMM.
std::string runHeader(const Network& net, const Dataset& d, const TrainConfig& cfg, const Backend& backend);

} // namespace tb
