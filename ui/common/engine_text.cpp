#include "common/engine_text.hpp"

#include "common/text.hpp"
#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "core/memory.hpp"
#include "device/device.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "model/model_spec.hpp"
#include "optim/optimizer.hpp"
#include "train/session.hpp"
#include "train/train_options.hpp"

#include <QLocale>
#include <QRegularExpression>

#include <new>

namespace tbui {

QString EngineText::message(tb::MessageId id, const std::vector<std::string>& args, const QString& english)
{
    using tb::MessageId;
    QString text;
    switch (id) {
    case MessageId::None:
    case MessageId::Count:
        return english;
    case MessageId::DatasetFolderMissing:
        text = tr("dataset folder %1 does not exist");
        break;
    case MessageId::DatasetFileMissing:
        text = tr("no %1 file in %2");
        break;
    case MessageId::DatasetCountMismatch:
        text = tr("%1 holds %2 labels but %3 holds %4 images");
        break;
    case MessageId::IdxCannotOpen:
        text = tr("%1: cannot open: %2");
        break;
    case MessageId::IdxTooShort:
        text = tr("%1: the file is too short to hold an IDX header (%2 bytes)");
        break;
    case MessageId::IdxNotIdx:
        text = tr("%1: not an IDX file (bad magic number %2; expected %3)");
        break;
    case MessageId::IdxGzipped:
        text = tr("%1: not an IDX file but a gzip-compressed one: name it %1.gz, or decompress it (gunzip)");
        break;
    case MessageId::IdxTruncated:
        text = tr("%1: is truncated: the header declares %2 data bytes but only %3 are present");
        break;
    case MessageId::IdxTooLong:
        text = tr("%1: is longer than its header says: extra bytes after the declared %2");
        break;
    case MessageId::IdxTooLongBy:
        text = tr("%1: is longer than its header says: %2 extra bytes after the declared %3");
        break;
    case MessageId::TrainingDiverged:
        text = tr("training diverged at epoch %1, step %2: the %3 became NaN or infinite. The weights of the last "
                  "good step were kept; try a lower learning rate.");
        break;
    case MessageId::TrainingDivergedNoWeights:
        text = tr("training diverged at epoch %1, step %2: the loss became NaN or infinite with the weights the step "
                  "before left, so no weights were kept; try a lower learning rate.");
        break;
    case MessageId::GpuBuiltWithoutCuda:
        text = tr("no CUDA backend: GPUs train through OpenCL");
        break;
    }
    if (text.isEmpty())
        return english; // an id newer than this table
    for (const std::string& a : args) {
        QString arg = qs(a);
        if (id == MessageId::TrainingDiverged) { // the third argument names what diverged
            if (a == "gradient")
                arg = tr("gradient");
            else if (a == "updated weights")
                arg = tr("updated weights");
        }
        text = text.arg(arg);
    }
    return text;
}

namespace {
// The engine's messages that carry no id, by their English form: each pattern's captures are the
// arguments of the translated text (a capture that is itself a message is translated in turn).
struct Pattern {
    QRegularExpression english;
    const char* text;
    int count = 0; // the capture that is the text's %n (a plural message), not one of its arguments
};
const std::vector<Pattern>& patterns()
{
    static const std::vector<Pattern> all = {
        // Weights files.
        {QRegularExpression(QStringLiteral("^(.+): not a Trainbench weights file \\(bad magic\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: not a Trainbench weights file (bad magic)")},
        {QRegularExpression(
             QStringLiteral("^(.+): not a Trainbench weights file \\(\\.tbw\\) nor a safetensors file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: not a Trainbench weights file (.tbw) nor a safetensors file")},
        {QRegularExpression(QStringLiteral("^(.+): the file is corrupt or truncated \\(checksum mismatch\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the file is corrupt or truncated (checksum mismatch)")},
        {QRegularExpression(QStringLiteral("^(.+): the header length is larger than the file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header length is larger than the file")},
        {QRegularExpression(
             QStringLiteral("^(.+): the file size does not match its header \\(corrupt or truncated\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the file size does not match its header (corrupt or truncated)")},
        {QRegularExpression(QStringLiteral("^(.+): the header lacks \"(.+)\"; the file is corrupt$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header lacks \"%2\"; the file is corrupt")},
        {QRegularExpression(QStringLiteral("^(.+): the header lacks the model$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header lacks the model")},
        {QRegularExpression(QStringLiteral("^(.+): the header lacks the input shape$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header lacks the input shape")},
        {QRegularExpression(QStringLiteral("^(.+): the header lacks the optimizer$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header lacks the optimizer")},
        {QRegularExpression(QStringLiteral("^(.+): corrupt header: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: corrupt header: %2")},
        {QRegularExpression(QStringLiteral("^(.+): the header cannot be read \\((.+)\\); the file is corrupt$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header cannot be read (%2); the file is corrupt")},
        {QRegularExpression(
             QStringLiteral("^the weights give outputs that are not numbers \\(NaN or infinite\\): they are "
                            "far too large, as a run that diverged leaves them, or the file is damaged; "
                            "train again, with a lower learning rate$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "the weights give outputs that are not numbers (NaN or infinite): they are far too large, as "
             "a run that diverged leaves them, or the file is damaged; train again, with a lower "
             "learning rate")},
        {QRegularExpression(QStringLiteral("^out of memory: this needs more memory than the machine could give; a "
                                           "smaller model, batch or dataset may fit$")),
         QT_TRANSLATE_NOOP("EngineText", "out of memory: this needs more memory than the machine could give; a "
                                         "smaller model, batch or dataset may fit")},
        {QRegularExpression(QStringLiteral("^the model classifies (\\d+) classes but (.+) has (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "the model classifies %1 classes but %2 has %3")},
        {QRegularExpression(
             QStringLiteral("^the model was trained on (\\d+)x(\\d+) images but (.+) holds (\\d+)x(\\d+) images$")),
         QT_TRANSLATE_NOOP("EngineText", "the model was trained on %1x%2 images but %3 holds %4x%5 images")},
        {QRegularExpression(
             QStringLiteral("^the model reads sequences of (\\d+) symbols but (.+) was cut into sequences of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "the model reads sequences of %1 symbols but %2 was cut into sequences of %3")},
        {QRegularExpression(
             QStringLiteral("^the model has a vocabulary of (\\d+) symbols but the vocabulary of (.+) has (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "the model has a vocabulary of %1 symbols but the vocabulary of %2 has %3")},
        // A text model of another program whose vocabulary is not the text's (io/safetensors.cpp).
        {QRegularExpression(QStringLiteral(
             "^(.+): its model has (\\d+) symbols \\(tensor \"(.+)\" is (\\[.*\\])\\), and the text read as bytes "
             "gives 256: a character-level model needs the vocabulary of characters \\(--vocabulary characters; in "
             "the window, Vocabulary in Setup\\) and the text it learned from$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: its model has %2 symbols (tensor \"%3\" is %4), and the text read as "
                           "bytes gives 256: a character-level model needs the vocabulary of characters "
                           "(--vocabulary characters; in the window, Vocabulary in Setup) and the text it "
                           "learned from")},
        {QRegularExpression(QStringLiteral(
             "^(.+): its model has (\\d+) symbols \\(tensor \"(.+)\" is (\\[.*\\])\\), and the characters of the "
             "text give (\\d+): it learned from another text, or from bytes \\(--vocabulary bytes\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: its model has %2 symbols (tensor \"%3\" is %4), and the characters of the "
                           "text give %5: it learned from another text, or from bytes (--vocabulary "
                           "bytes)")},
        // Model files and JSON.
        {QRegularExpression(QStringLiteral("^JSON error at line (\\d+), column (\\d+): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "JSON error at line %1, column %2: %3")},
        {QRegularExpression(QStringLiteral("^(.+): a model file holds a JSON object with \"layers\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a model file holds a JSON object with \"layers\"")},
        {QRegularExpression(QStringLiteral("^(.+): unknown member \"(.+)\" \\(expected ([^()]+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: unknown member \"%2\" (expected %3)")},
        {QRegularExpression(QStringLiteral("^(.+): \"name\" must be a string$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"name\" must be a string")},
        {QRegularExpression(QStringLiteral("^(.+): \"input_scale\" must be a number between 1e-30 and 1e30$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"input_scale\" must be a number between 1e-30 and 1e30")},
        {QRegularExpression(QStringLiteral("^(.+): \"layers\" must be a non-empty array$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"layers\" must be a non-empty array")},
        {QRegularExpression(QStringLiteral("^(.+): each layer is a JSON object$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: each layer is a JSON object")},
        {QRegularExpression(QStringLiteral("^(.+): needs a \"type\" such as \"Conv2D\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs a \"type\" such as \"Conv2D\"")},
        {QRegularExpression(QStringLiteral("^(.+): unknown layer type \"(.+)\" \\(known: (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: unknown layer type \"%2\" (known: %3)")},
        {QRegularExpression(QStringLiteral("^(.+): unknown argument \"(.+)\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: unknown argument \"%2\"")},
        {QRegularExpression(QStringLiteral("^(.+): the model description cannot be read \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the model description cannot be read (%2)")},
        {QRegularExpression(QStringLiteral("^(.+): \"sequence_length\" must be a whole number from 1 to 100000$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"sequence_length\" must be a whole number from 1 to 100000")},
        {QRegularExpression(QStringLiteral("^(.+): needs \"input_dim\" \\(the vocabulary size\\) and \"output_dim\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs \"input_dim\" (the vocabulary size) and \"output_dim\"")},
        {QRegularExpression(QStringLiteral("^(.+): needs \"([^\"]+)\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs \"%2\"")},
        {QRegularExpression(QStringLiteral("^(.+): needs an \"activation\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs an \"activation\"")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be a whole number$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be a whole number")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be between 1 and (\\d+) \\(got (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be between 1 and %3 (got %4)")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be a whole number from 1 to 1024 or a pair of them$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be a whole number from 1 to 1024 or a pair of them")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must have two values \\(height, width\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must have two values (height, width)")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be true or false$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be true or false")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be a number$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be a number")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be in ([\\[(][^\\[\\]()]+[\\])]) \\(got (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be in %3 (got %4)")},
        {QRegularExpression(QStringLiteral("^(.+): \"padding\" must be \"same\" or \"valid\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"padding\" must be \"same\" or \"valid\"")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be a string$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be a string")},
        {QRegularExpression(QStringLiteral("^(.+): \"(.+)\" must be a non-empty string$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"%2\" must be a non-empty string")},
        {QRegularExpression(QStringLiteral("^(.+): unknown activation \"(.+)\" \\(supported: (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: unknown activation \"%2\" (supported: %3)")},
        {QRegularExpression(QStringLiteral("^(.+): \"units\" must be a whole number or \"classes\"$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: \"units\" must be a whole number or \"classes\"")},
        {QRegularExpression(QStringLiteral("^(.+): needs a flat input but receives (\\(.+\\)); add a Flatten first$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs a flat input but receives %2; add a Flatten first")},
        {QRegularExpression(
             QStringLiteral("^(.+): needs an image input \\(H, W, C\\) but receives (\\(.+\\)); add a Reshape first$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs an image input (H, W, C) but receives %2; add a Reshape first")},
        {QRegularExpression(QStringLiteral("^(.+): needs an image input \\(H, W, C\\) but receives (\\([^;]+\\))$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: needs an image input (H, W, C) but receives %2")},
        {QRegularExpression(
             QStringLiteral("^(.+): a (\\d+)x(\\d+) kernel does not fit its input (\\(.+\\)) with \"valid\" padding$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a %2x%3 kernel does not fit its input %4 with \"valid\" padding")},
        {QRegularExpression(QStringLiteral("^(.+): a (\\d+)x(\\d+) pool does not fit its input (\\(.+\\))$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a %2x%3 pool does not fit its input %4")},
        {QRegularExpression(QStringLiteral(
             "^(.+): softmax is supported only as the model's final activation \\(it is fused with the loss\\)$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1: softmax is supported only as the model's final activation (it is fused with the loss)")},
        {QRegularExpression(
             QStringLiteral("^(.+): receives token ids (\\(.+\\)); a text model starts with an Embedding$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: receives token ids %2; a text model starts with an Embedding")},
        {QRegularExpression(QStringLiteral("^(.+): its output (\\(.+\\)) is empty$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: its output %2 is empty")},
        {QRegularExpression(QStringLiteral("^(.+): the model must end with a softmax \\(a Dense with \"activation\": "
                                           "\"softmax\" or an Activation softmax layer\\); it ends with (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the model must end with a softmax (a Dense with \"activation\": "
                                         "\"softmax\" or an Activation softmax layer); it ends with %2")},
        {QRegularExpression(QStringLiteral("^(.+): the model's output (\\(.+\\)) gives (\\d+) symbols, and the "
                                           "vocabulary has (\\d+): the final Dense layer needs \\d+ units "
                                           "\\(\"units\": \"classes\" sizes it to the vocabulary\\); a model of 256 "
                                           "outputs reads bytes: train it with the byte-level vocabulary$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: the model's output %2 gives %3 symbols, and the vocabulary has %4: the "
                           "final Dense layer needs %4 units (\"units\": \"classes\" sizes it to the "
                           "vocabulary); a model of 256 outputs reads bytes: train it with the byte-level "
                           "vocabulary")},
        {QRegularExpression(QStringLiteral("^(.+): the model's output (\\(.+\\)) gives (\\d+) symbols, and the "
                                           "vocabulary has (\\d+): the final Dense layer needs \\d+ units "
                                           "\\(\"units\": \"classes\" sizes it to the vocabulary\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the model's output %2 gives %3 symbols, and the vocabulary has %4: the "
                                         "final Dense layer needs %4 units (\"units\": \"classes\" sizes it to the "
                                         "vocabulary)")},
        {QRegularExpression(QStringLiteral("^(.+): the model's output (\\(.+\\)) does not match the dataset's (\\d+) "
                                           "classes: the final Dense layer needs \\d+ units$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the model's output %2 does not match the dataset's %3 classes: the final "
                                         "Dense layer needs %3 units")},
        {QRegularExpression(
             QStringLiteral("^(.+): the model has (\\d+) weights \\((.+)\\), more than can be trained in (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the model has %2 weights (%3), more than can be trained in %4")},
        {QRegularExpression(
             QStringLiteral("^(.+): the layer has (\\d+) weights \\((.+)\\), more than can be trained in (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the layer has %2 weights (%3), more than can be trained in %4")},
        {QRegularExpression(QStringLiteral("^(.+): a Dense layer of (\\d+) units on (\\d+) inputs has (\\d+) weights "
                                           "\\((.+)\\), more than can be trained in (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a Dense layer of %2 units on %3 inputs has %4 weights (%5), more than "
                                         "can be trained in %6")},
        {QRegularExpression(QStringLiteral("^\"(.+)\" is neither a preset \\((.+)\\) nor a readable model file$")),
         QT_TRANSLATE_NOOP("EngineText", "\"%1\" is neither a preset (%2) nor a readable model file")},
        {QRegularExpression(QStringLiteral("^(.+) is a Trainbench weights file, not a model description: --model takes "
                                           "a preset or a model's JSON file \\(a command that reads weights takes them "
                                           "with --weights\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a Trainbench weights file, not a model description: --model takes a "
                                         "preset or a model's JSON file (a command that reads weights takes them with "
                                         "--weights)")},
        {QRegularExpression(QStringLiteral("^(.+) is binary \\(weights, an export\\?\\), not a model description: "
                                           "--model takes a preset or a model's JSON file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is binary (weights, an export?), not a model description: --model takes "
                                         "a preset or a model's JSON file")},
        // A batch's memory (train/cpu_backend.cpp).
        {QRegularExpression(QStringLiteral("^a batch of (\\d+) images of (\\d+)x(\\d+) needs about (.+) for "
                                           "training, more than (.+); use a smaller batch or size multiplier$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 images of %2x%3 needs about %4 for training, more than %5; "
                                         "use a smaller batch or size multiplier")},
        {QRegularExpression(QStringLiteral("^a batch of (\\d+) images of (\\d+)x(\\d+) needs about (.+) for "
                                           "training, more than the (.+) free now \\(of (.+)\\); close other programs, "
                                           "or use a smaller batch or size multiplier$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 images of %2x%3 needs about %4 for training, more than the %5 "
                                         "free now (of %6); close other programs, or use a smaller batch or size "
                                         "multiplier")},
        {QRegularExpression(QStringLiteral("^a batch of (\\d+) sequences of (\\d+) symbols needs about (.+) for "
                                           "training, more than (.+); use a smaller batch$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 sequences of %2 symbols needs about %3 for training, more than "
                                         "%4; use a smaller batch")},
        {QRegularExpression(QStringLiteral("^a batch of (\\d+) sequences of (\\d+) symbols needs about (.+) for "
                                           "training, more than the (.+) free now \\(of (.+)\\); close other programs, "
                                           "or use a smaller batch$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 sequences of %2 symbols needs about %3 for training, more than "
                                         "the %4 free now (of %5); close other programs, or use a smaller batch")},
        // Checkpoints.
        {QRegularExpression(QStringLiteral("^(.+): the checkpoint lacks \"(.+)\"; it is damaged or not a checkpoint$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the checkpoint lacks \"%2\"; it is damaged or not a checkpoint")},
        {QRegularExpression(
             QStringLiteral("^(.+) is a weights file, not a checkpoint: it does not say where its run stands$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 is a weights file, not a checkpoint: it does not say where its run stands")},
        {QRegularExpression(QStringLiteral("^(.+): a checkpoint of another format or version$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a checkpoint of another format or version")},
        {QRegularExpression(QStringLiteral("^(.+): the checkpoint's settings are damaged \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the checkpoint's settings are damaged (%2)")},
        {QRegularExpression(QStringLiteral("^(.+) was made on another dataset than (.+): the labels differ, although "
                                           "the counts and sizes are the same$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1 was made on another dataset than %2: the labels differ, although the counts and sizes are the same")},
        {QRegularExpression(QStringLiteral("^(.+) was made on another dataset than (.+): the images differ, although "
                                           "the counts, sizes and labels are the same$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was made on another dataset than %2: the images differ, although the "
                                         "counts, sizes and labels are the same")},
        {QRegularExpression(QStringLiteral("^(.+) was made on another dataset than (.+): the text differs, although "
                                           "its sequence counts and vocabulary size are the same$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was made on another dataset than %2: the text differs, although its "
                                         "sequence counts and vocabulary size are the same")},
        {QRegularExpression(QStringLiteral("^(.+) was made on another dataset than (.+): the text differs, although "
                                           "the counts, sizes and labels are the same$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was made on another dataset than %2: the text differs, although the "
                                         "counts, sizes and labels are the same")},
        {QRegularExpression(QStringLiteral("^(.+) was written before checkpoints kept a hash of their dataset's "
                                           "images: only the counts, sizes and labels of (.+) were checked, not the "
                                           "images themselves$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was written before checkpoints kept a hash of their dataset's images: "
                                         "only the counts, sizes and labels of %2 were checked, not the images "
                                         "themselves")},
        {QRegularExpression(QStringLiteral("^(.+) was written before checkpoints kept a hash of their dataset's "
                                           "text: only the counts, sizes and labels of (.+) were checked, not the "
                                           "text itself$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was written before checkpoints kept a hash of their dataset's text: only "
                                         "the counts, sizes and labels of %2 were checked, not the text itself")},
        // A resumed checkpoint's per-batch curve that cannot be read (train/batch_curve.cpp): the reason
        // stays in English, as the engine words it.
        {QRegularExpression(QStringLiteral("^(.+): its per-batch curve cannot be read \\((.+)\\): the curve starts at "
                                           "the resumed step$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: its per-batch curve cannot be read (%2): the curve starts at the resumed step")},
        // Run folders given to Resume (train/run_folder.cpp).
        {QRegularExpression(QStringLiteral("^(.+) diverged before its first checkpoint \\(its loss or weights became "
                                           "NaN or infinite\\): nothing to resume; train it again with a lower "
                                           "learning rate$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 diverged before its first checkpoint (its loss or weights became NaN or "
                                         "infinite): nothing to resume; train it again with a lower learning rate")},
        {QRegularExpression(QStringLiteral("^(.+) diverged \\(its loss or weights became NaN or infinite\\): "
                                           "resumed, its checkpoint would repeat the same steps with the same "
                                           "settings and diverge again; train it again with a lower learning rate$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 diverged (its loss or weights became NaN or infinite): resumed, its "
                                         "checkpoint would repeat the same steps with the same settings and diverge "
                                         "again; train it again with a lower learning rate")},
        {QRegularExpression(QStringLiteral("^(.+) is complete \\(it ended (.+)\\): nothing to resume\\. Its weights "
                                           "are (.+) \\(evaluate, predict and export take them\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is complete (it ended %2): nothing to resume. Its weights are %3 "
                                         "(evaluate, predict and export take them)")},
        {QRegularExpression(QStringLiteral("^(.+) is complete: nothing to resume\\. Its weights are (.+) \\(evaluate, "
                                           "predict and export take them\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is complete: nothing to resume. Its weights are %2 (evaluate, predict and "
                                         "export take them)")},
        {QRegularExpression(QStringLiteral("^(.+) holds no checkpoint\\.tbw to resume from$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 holds no checkpoint.tbw to resume from")},
        {QRegularExpression(QStringLiteral("^(.+) is not a run folder \\(no such folder\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is not a run folder (no such folder)")},
        {QRegularExpression(QStringLiteral("^(.+) is a file, not a run folder: a run goes on from the folder it wrote "
                                           "in the runs folder, which holds its checkpoint\\.tbw and run\\.json$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a file, not a run folder: a run goes on from the folder it wrote in "
                                         "the runs folder, which holds its checkpoint.tbw and run.json")},
        // Run folders (the Runs page's damage reasons).
        {QRegularExpression(QStringLiteral("^the folder holds no run\\.json \\(removed, or the run never started\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "the folder holds no run.json (removed, or the run never started)")},
        {QRegularExpression(QStringLiteral("^run\\.json cannot be read: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "run.json cannot be read: %1")},
        {QRegularExpression(QStringLiteral("^run\\.json is empty$")),
         QT_TRANSLATE_NOOP("EngineText", "run.json is empty")},
        {QRegularExpression(QStringLiteral("^run\\.json is damaged: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "run.json is damaged: %1")},
        {QRegularExpression(QStringLiteral("^it is not a Trainbench run record$")),
         QT_TRANSLATE_NOOP("EngineText", "it is not a Trainbench run record")},
        {QRegularExpression(QStringLiteral("^its version \\((.+)\\) is not one this Trainbench reads$")),
         QT_TRANSLATE_NOOP("EngineText", "its version (%1) is not one this Trainbench reads")},
        {QRegularExpression(QStringLiteral("^it is not a folder$")),
         QT_TRANSLATE_NOOP("EngineText", "it is not a folder")},
        {QRegularExpression(QStringLiteral("^it cannot be read: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "it cannot be read: %1")},
        {QRegularExpression(QStringLiteral("^evaluation\\.json is damaged: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "evaluation.json is damaged: %1")},
        // Why a run's report has no confusion matrix (train/run_history.cpp's readTestRecord).
        {QRegularExpression(QStringLiteral("^the run has no stored test evaluation \\(evaluation\\.json\\): it did not "
                                           "complete, or was made by an older Trainbench$")),
         QT_TRANSLATE_NOOP("EngineText", "the run has no stored test evaluation (evaluation.json): it did not "
                                         "complete, or was made by an older Trainbench")},
        // Weights evaluated on a dataset of other classes (train/evaluation.cpp).
        {QRegularExpression(QStringLiteral("^the weights were trained on a dataset with other classes \\((.+)\\) than "
                                           "(.+) \\((.+)\\); the accuracy counts the predictions whose class number "
                                           "is the label's$")),
         QT_TRANSLATE_NOOP("EngineText", "the weights were trained on a dataset with other classes (%1) than %2 (%3); "
                                         "the accuracy counts the predictions whose class number is the label's")},
        // Images smaller than the weights' model takes (train/evaluation.cpp).
        {QRegularExpression(QStringLiteral("^the model takes (\\d+x\\d+) images and (.+) holds (\\d+x\\d+) ones: they "
                                           "are enlarged (\\d+) times \\(each pixel repeated\\) to fit$")),
         QT_TRANSLATE_NOOP("EngineText", "the model takes %1 images and %2 holds %3 ones: they are enlarged %4 times "
                                         "(each pixel repeated) to fit")},
        // A dataset of the other kind than the model's (data/dataset.cpp, data/text_dataset.cpp).
        {QRegularExpression(QStringLiteral("^(.+) is a file; choose the folder that holds the IDX files \\(a text "
                                           "trains a text model, such as small-text-lstm\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a file; choose the folder that holds the IDX files (a text trains a "
                                         "text model, such as small-text-lstm)")},
        {QRegularExpression(QStringLiteral("^(.+) holds IDX images, not texts: a text model trains on a text file or a "
                                           "folder of texts, an image model on IDX images$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 holds IDX images, not texts: a text model trains on a text file or a "
                                         "folder of texts, an image model on IDX images")},
        {QRegularExpression(
             QStringLiteral("^(.+) and (.+) in (.+) hold different data: keep the one you mean to train on$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 and %2 in %3 hold different data: keep the one you mean to train on")},
        // IDX files (data/idx.cpp).
        {QRegularExpression(QStringLiteral("^(.+): the header is truncated \\(dimension (\\d+) is missing\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header is truncated (dimension %2 is missing)")},
        {QRegularExpression(QStringLiteral("^(.+): the header declares 0 images: the file holds none$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header declares 0 images: the file holds none")},
        {QRegularExpression(QStringLiteral("^(.+): the header declares 0 labels: the file holds none$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header declares 0 labels: the file holds none")},
        {QRegularExpression(QStringLiteral("^(.+): the header declares 0 rows in an image$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header declares 0 rows in an image")},
        {QRegularExpression(QStringLiteral("^(.+): the header declares 0 columns in an image$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header declares 0 columns in an image")},
        {QRegularExpression(QStringLiteral("^(.+): dimension (\\d+) is absurd \\((\\d+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: dimension %2 is absurd (%3)")},
        {QRegularExpression(QStringLiteral("^(.+): has (\\d+) dimensions; expected 3 \\(images, rows, columns\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: has %2 dimensions; expected 3 (images, rows, columns)")},
        {QRegularExpression(QStringLiteral("^(.+): has (\\d+) dimensions; expected 1 \\(labels\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: has %2 dimensions; expected 1 (labels)")},
        {QRegularExpression(
             QStringLiteral("^(.+): holds IDX data type 0x([0-9a-f]+); only unsigned bytes \\(0x08\\) are supported$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: holds IDX data type 0x%2; only unsigned bytes (0x08) are supported")},
        {QRegularExpression(QStringLiteral("^(.+): declares (\\d+) bytes of data \\((.+)\\), more than this machine "
                                           "can hold \\((.+)\\); the header is probably corrupt$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: declares %2 bytes of data (%3), more than this machine can hold (%4); "
                                         "the header is probably corrupt")},
        {QRegularExpression(QStringLiteral("^(.+): is truncated: its gzip data ends before the compressed stream does "
                                           "\\(a download or copy cut short\\?\\)$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1: is truncated: its gzip data ends before the compressed stream does (a download or copy cut short?)")},
        {QRegularExpression(QStringLiteral("^(.+): the gzip data is corrupt \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the gzip data is corrupt (%2)")},
        {QRegularExpression(QStringLiteral("^(.+): has bytes after the end of its gzip data that are not gzip data "
                                           "\\(the file is damaged, or something was appended to it\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: has bytes after the end of its gzip data that are not gzip data (the "
                                         "file is damaged, or something was appended to it)")},
        {QRegularExpression(QStringLiteral("^(.+): read error: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: read error: %2")},
        // Image datasets (data/dataset.cpp).
        {QRegularExpression(QStringLiteral(
             "^(.+): images of (\\d+)x(\\d+) pixels are larger than Trainbench supports \\(4096x4096\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: images of %2x%3 pixels are larger than Trainbench supports (4096x4096)")},
        {QRegularExpression(QStringLiteral("^train images are (\\d+)x(\\d+) but test images are (\\d+)x(\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "train images are %1x%2 but test images are %3x%4")},
        {QRegularExpression(QStringLiteral("^(.+) holds a single class \\(0\\); a classifier needs at least two$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 holds a single class (0); a classifier needs at least two")},
        {QRegularExpression(
             QStringLiteral("^classes\\.txt line (\\d+) is not valid UTF-8 \\(at byte (\\d+)\\): save it as UTF-8$")),
         QT_TRANSLATE_NOOP("EngineText", "classes.txt line %1 is not valid UTF-8 (at byte %2): save it as UTF-8")},
        {QRegularExpression(QStringLiteral("^classes\\.txt names (\\d+) classes but (.+) uses labels up to (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "classes.txt names %1 classes but %2 uses labels up to %3")},
        {QRegularExpression(
             QStringLiteral("^t10k-labels uses label (\\d+) but the training labels only cover 0\\.\\.(\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "t10k-labels uses label %1 but the training labels only cover 0..%2")},
        {QRegularExpression(
             QStringLiteral("^a validation split of (.+) leaves none of the (\\d+) training images to train on$")),
         QT_TRANSLATE_NOOP("EngineText", "a validation split of %1 leaves none of the %2 training images to train on")},
        {QRegularExpression(
             QStringLiteral("^a validation split of (.+) leaves none of the (\\d+) training images to validate on$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "a validation split of %1 leaves none of the %2 training images to validate on")},
        {QRegularExpression(
             QStringLiteral("^a validation split of (.+) leaves none of the (\\d+) training sequences to train on$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "a validation split of %1 leaves none of the %2 training sequences to train on")},
        {QRegularExpression(QStringLiteral(
             "^a validation split of (.+) leaves none of the (\\d+) training sequences to validate on$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "a validation split of %1 leaves none of the %2 training sequences to validate on")},
        // Safetensors files (io/safetensors.cpp). First a file that reads with a notice (tb::WeightsFile::notice).
        {QRegularExpression(QStringLiteral("^(.+)'s weights differ from the SHA-256 its metadata records \\((.*?)…, "
                                           "the weights ([0-9a-f]+)…\\): the file was changed after Trainbench wrote "
                                           "it, by an edit or damage$")),
         QT_TRANSLATE_NOOP("EngineText", "%1's weights differ from the SHA-256 its metadata records (%2…, the weights "
                                         "%3…): the file was changed after Trainbench wrote it, by an edit or damage")},
        {QRegularExpression(QStringLiteral(
             "^(.+): not a safetensors file \\((\\d+) bytes, shorter than the 8-byte header length\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: not a safetensors file (%2 bytes, shorter than the 8-byte header length)")},
        {QRegularExpression(QStringLiteral("^(.+): the header length \\((\\d+) bytes\\) is larger than the file "
                                           "\\((\\d+) bytes\\); the file is truncated or not a safetensors file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: the header length (%2 bytes) is larger than the file (%3 bytes); the "
                                         "file is truncated or not a safetensors file")},
        {QRegularExpression(QStringLiteral("^(.+): the file lacks tensor \\\"(.+)\\\" \\((\\[.*\\]), (.+) of (.+)\\); "
                                           "is the file of another model\\?$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: the file lacks tensor \"%2\" (%3, %4 of %5); is the file of another model?")},
        {QRegularExpression(QStringLiteral("^(.+): tensor \\\"(.+)\\\" of (.+) has shape (\\[.*\\]) but the model "
                                           "needs (\\[.*\\]); is the file of another model\\?$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1: tensor \"%2\" of %3 has shape %4 but the model needs %5; is the file of another model?")},
        {QRegularExpression(QStringLiteral("^(.+): tensor \\\"(.+)\\\" of (.+) is (\\w+) but must be (I64|F32)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: tensor \"%2\" of %3 is %4 but must be %5")},
        // Dataset options (data/dataset.cpp).
        {QRegularExpression(QStringLiteral("^cannot drop the remainder: the training split holds (\\d+) images, fewer "
                                           "than one batch of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "cannot drop the remainder: the training split holds %1 images, fewer than one batch "
                           "of %2")},
        {QRegularExpression(
             QStringLiteral("^cannot drop the remainder: the training split holds (\\d+) sequences, fewer "
                            "than one batch of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "cannot drop the remainder: the training split holds %1 sequences, fewer than one batch "
                           "of %2")},
        {QRegularExpression(QStringLiteral("^cannot drop the remainder: the test split holds (\\d+) images, fewer "
                                           "than one batch of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "cannot drop the remainder: the test split holds %1 images, fewer than one batch "
                           "of %2")},
        {QRegularExpression(QStringLiteral("^cannot drop the remainder: the test split holds (\\d+) sequences, fewer "
                                           "than one batch of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "cannot drop the remainder: the test split holds %1 sequences, fewer than one batch "
                           "of %2")},
        {QRegularExpression(QStringLiteral("^the image size multiplier is for images, and (.+) is a text: leave it at "
                                           "1 for a text model$")),
         QT_TRANSLATE_NOOP("EngineText", "the image size multiplier is for images, and %1 is a text: leave it at 1 for "
                                         "a text model")},
        // Texts (data/text_dataset.cpp).
        {QRegularExpression(QStringLiteral("^the prompt's character \"(.+)\" at byte offset (\\d+) \\((bytes? .+)\\) "
                                           "is not in the model's character-level vocabulary$")),
         QT_TRANSLATE_NOOP("EngineText", "the prompt's character \"%1\" at byte offset %2 (%3) is not in the model's "
                                         "character-level vocabulary")},
        {QRegularExpression(QStringLiteral("^the prompt's character at byte offset (\\d+) \\((bytes? .+)\\) is not in "
                                           "the model's character-level vocabulary$")),
         QT_TRANSLATE_NOOP("EngineText", "the prompt's character at byte offset %1 (%2) is not in the model's "
                                         "character-level vocabulary")},
        {QRegularExpression(
             QStringLiteral("^the text (.+)'s character \"(.+)\" at byte offset (\\d+) \\((bytes? .+)\\) "
                            "is not in the model's character-level vocabulary$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1's character \"%2\" at byte offset %3 (%4) is not in the model's "
                                         "character-level vocabulary")},
        {QRegularExpression(QStringLiteral("^the text (.+)'s character at byte offset (\\d+) \\((bytes? .+)\\) is not "
                                           "in the model's character-level vocabulary$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1's character at byte offset %2 (%3) is not in the model's "
                                         "character-level vocabulary")},
        {QRegularExpression(QStringLiteral(
             "^(.+) is not a regular file \\(a device, pipe or socket\\): give a text file or a folder of them$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1 is not a regular file (a device, pipe or socket): give a text file or a folder of them")},
        {QRegularExpression(QStringLiteral("^the text (.+) \\((.+)\\) needs about (.+) of memory to train on, more "
                                           "than (.+); use a part of it$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1 (%2) needs about %3 of memory to train on, more than %4; use a "
                                         "part of it")},
        {QRegularExpression(QStringLiteral("^(.+) is UTF-16 or UTF-32 \\(it starts with a byte-order mark\\), not "
                                           "UTF-8 or a byte text: convert it first \\(iconv -f UTF-16 -t UTF-8\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is UTF-16 or UTF-32 (it starts with a byte-order mark), not UTF-8 or a "
                                         "byte text: convert it first (iconv -f UTF-16 -t UTF-8)")},
        {QRegularExpression(QStringLiteral("^the text (.+) holds one symbol only \\(\"(.*)\" repeated\\): there is "
                                           "nothing for a model to predict; use a text with more$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1 holds one symbol only (\"%2\" repeated): there is nothing for a "
                                         "model to predict; use a text with more")},
        {QRegularExpression(QStringLiteral("^the text (.+) holds (\\d+) bytes, shorter than one sequence of (\\d+) on "
                                           "each side of the training/validation split \\(at least (\\d+) needed\\); "
                                           "use a longer text or a shorter sequence length$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "the text %1 holds %2 bytes, shorter than one sequence of %3 on each side of the training/validation "
             "split (at least %4 needed); use a longer text or a shorter sequence length")},
        {QRegularExpression(QStringLiteral("^the text (.+) holds (\\d+) characters, shorter than one sequence of "
                                           "(\\d+) on each side of the training/validation split \\(at least (\\d+) "
                                           "needed\\); use a longer text or a shorter sequence length$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "the text %1 holds %2 characters, shorter than one sequence of %3 on each side of the training/validation "
             "split (at least %4 needed); use a longer text or a shorter sequence length")},
        {QRegularExpression(QStringLiteral("^the text (.+) holds (\\d+) bytes, shorter than one sequence of (\\d+) on "
                                           "each side of the training/validation split \\(at least (\\d+) needed\\); "
                                           "use a longer text \\(the model reads sequences of \\d+\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "the text %1 holds %2 bytes, shorter than one sequence of %3 on each side of the "
                           "training/validation split (at least %4 needed); use a longer text (the model "
                           "reads sequences of %3)")},
        {QRegularExpression(QStringLiteral("^the text (.+) holds (\\d+) characters, shorter than one sequence of "
                                           "(\\d+) on each side of the training/validation split \\(at least (\\d+) "
                                           "needed\\); use a longer text \\(the model reads sequences of \\d+\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "the text %1 holds %2 characters, shorter than one sequence of %3 on each side of "
                           "the training/validation split (at least %4 needed); use a longer text (the "
                           "model reads sequences of %3)")},
        {QRegularExpression(QStringLiteral(
             "^a sweep of sizes enlarges images, and (.+) is a text: sweep the batch for a text model$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "a sweep of sizes enlarges images, and %1 is a text: sweep the batch for a text model")},
        {QRegularExpression(QStringLiteral("^the text (.+) does not exist$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1 does not exist")},
        {QRegularExpression(QStringLiteral("^the text (.+) is empty$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1 is empty")},
        {QRegularExpression(QStringLiteral("^the folder (.+) holds no text files$")),
         QT_TRANSLATE_NOOP("EngineText", "the folder %1 holds no text files")},
        {QRegularExpression(QStringLiteral("^cannot list the folder (.+): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot list the folder %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot read the text file (.+): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read the text file %1: %2")},
        {QRegularExpression(QStringLiteral("^(.+) is gzip-compressed, not text: decompress it first \\(gunzip -k\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is gzip-compressed, not text: decompress it first (gunzip -k)")},
        {QRegularExpression(QStringLiteral("^(.+) looks binary, not text \\(a zero byte at offset (\\d+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 looks binary, not text (a zero byte at offset %2)")},
        {QRegularExpression(
             QStringLiteral("^(.+) looks binary, not text \\((\\d+) of its (\\d+) bytes are control characters\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 looks binary, not text (%2 of its %3 bytes are control characters)")},
        {QRegularExpression(QStringLiteral("^(.+) is not valid UTF-8 \\(at byte (\\d+)\\); a character-level "
                                           "vocabulary needs UTF-8, the byte-level one reads any text$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is not valid UTF-8 (at byte %2); a character-level vocabulary needs "
                                         "UTF-8, the byte-level one reads any text")},
        {QRegularExpression(QStringLiteral("^the text (.+) has (\\d+) distinct characters; a character-level "
                                           "vocabulary holds at most 256 \\(use the byte-level one\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "the text %1 has %2 distinct characters; a character-level vocabulary holds "
                                         "at most 256 (use the byte-level one)")},
        {QRegularExpression(QStringLiteral("^(.+) is an image dataset, not a text$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is an image dataset, not a text")},
        // An OpenCL device's description and set-up line in a run's header (device/opencl).
        {QRegularExpression(QStringLiteral("^(OpenCL: .+); matrix products: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1; matrix products: %2")},
        {QRegularExpression(QStringLiteral("^OpenCL kernels: loaded from the cache \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "OpenCL kernels: loaded from the cache (%1)")},
        {QRegularExpression(QStringLiteral("^OpenCL kernels: compiled from source; stored in the cache \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "OpenCL kernels: compiled from source; stored in the cache (%1)")},
        {QRegularExpression(QStringLiteral("^OpenCL kernels: compiled from source; not stored in the cache: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "OpenCL kernels: compiled from source; not stored in the cache: %1")},
        {QRegularExpression(QStringLiteral(
             "^OpenCL kernels: compiled from source because the cached copy (.+); stored in the cache \\((.+)\\)$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "OpenCL kernels: compiled from source because the cached copy %1; stored in the cache (%2)")},
        {QRegularExpression(QStringLiteral("^(opencl:\\d+) is not a GPU: it runs the GPU's OpenCL kernels on this "
                                           "CPU's cores, many times slower than the CPU devices \\(cpu:N\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is not a GPU: it runs the GPU's OpenCL kernels on this CPU's cores, many "
                                         "times slower than the CPU devices (cpu:N)")},
        // Devices that cannot compute in bf16 (kernels/isa.cpp, device/device.cpp).
        {QRegularExpression(QStringLiteral("^this CPU has no AVX512_BF16, which bf16 needs \\((.+)\\); it is not "
                                           "emulated$")),
         QT_TRANSLATE_NOOP("EngineText", "this CPU has no AVX512_BF16, which bf16 needs (%1); it is not emulated")},
        {QRegularExpression(QStringLiteral("^AMD Zen 4 and later, Intel Cooper Lake, Sapphire Rapids and later$")),
         QT_TRANSLATE_NOOP("EngineText", "AMD Zen 4 and later, Intel Cooper Lake, Sapphire Rapids and later")},
        {QRegularExpression(QStringLiteral("^bf16 runs on the avx512 kernels, not on (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "bf16 runs on the avx512 kernels, not on %1")},
        {QRegularExpression(QStringLiteral("^(.+) computes in FP32 only: bf16 is for the CPU$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 computes in FP32 only: bf16 is for the CPU")},
        // A CPU's kernels as a run's record or an MPI run's header describe them (kernels/isa.cpp's
        // describeKernels; EngineText::kernels words a tb::Kernels itself).
        {QRegularExpression(QStringLiteral("^(baseline|avx2|avx512) kernels \\(([^;()]+); matrix products: (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 kernels (%2; matrix products: %3)")},
        {QRegularExpression(QStringLiteral("^own (\\d+x\\d+) FMA kernel$")),
         QT_TRANSLATE_NOOP("EngineText", "own %1 FMA kernel")},
        {QRegularExpression(QStringLiteral("^own (\\d+x\\d+) AVX512_BF16 kernel \\(bf16 inputs, FP32 sums\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "own %1 AVX512_BF16 kernel (bf16 inputs, FP32 sums)")},
        {QRegularExpression(QStringLiteral("^own (\\d+x\\d+) AMX-BF16 tile kernel \\(bf16 inputs, FP32 sums\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "own %1 AMX-BF16 tile kernel (bf16 inputs, FP32 sums)")},
        // A CPU level this CPU lacks (kernels/isa.cpp's requireIsa, device/device.cpp), a device the machine
        // does not have.
        {QRegularExpression(QStringLiteral("^this CPU has no (SSE4\\.2|AVX2\\+FMA|AVX-512) \\(it supports (.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "this CPU has no %1 (it supports %2)")},
        {QRegularExpression(QStringLiteral("^this CPU has no (SSE4\\.2|AVX2\\+FMA|AVX-512)$")),
         QT_TRANSLATE_NOOP("EngineText", "this CPU has no %1")},
        {QRegularExpression(QStringLiteral("^this CPU has no AMX-BF16 \\(Intel Sapphire Rapids and later\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "this CPU has no AMX-BF16 (Intel Sapphire Rapids and later)")},
        {QRegularExpression(QStringLiteral("^there is no OpenCL device (\\d+) \\(this machine has only opencl:0\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "there is no OpenCL device %1 (this machine has only opencl:0)")},
        {QRegularExpression(QStringLiteral(
             "^there is no OpenCL device (\\d+) \\(this machine has (\\d+): opencl:0 \\.\\. (opencl:\\d+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "there is no OpenCL device %1 (this machine has %2: opencl:0 .. %3)")},
        // More CPU threads than cores (device/device.cpp's threadsNote).
        {QRegularExpression(QStringLiteral(
             "^(\\d+) threads on (\\d+) cores?: the same weights as on fewer threads, but the threads take turns on "
             "the cores, so it trains no faster than cpu:\\d+$")),
         QT_TRANSLATE_N_NOOP("EngineText", "%1 threads on %n core(s): the same weights as on fewer threads, but the "
                                           "threads take turns on the cores, so it trains no faster than cpu:%n"),
         2},
        // What bf16 does to speed on an Intel CPU (kernels/isa.cpp's precisionSpeedNote).
        {QRegularExpression(QStringLiteral(
             "^bf16 on this Intel CPU: its cores run vdpbf16ps at half the multiply-adds per cycle of FP32's FMA, so "
             "bf16 trains slower than FP32 where the matrix products dominate \\(colab-fashion-cnn\\) and faster "
             "only where they do not; AMX-BF16 is not used$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "bf16 on this Intel CPU: its cores run vdpbf16ps at half the multiply-adds per cycle of "
                           "FP32's FMA, so bf16 trains slower than FP32 where the matrix products dominate "
                           "(colab-fashion-cnn) and faster only where they do not; AMX-BF16 is not used")},
        // What the AMX tiles do to bf16's bits (the same function).
        {QRegularExpression(QStringLiteral(
             "^bf16 on this CPU's AMX-BF16 tiles: they sum in an order of their own, so its bf16 weights differ in "
             "their last bits from those of CPUs without them \\(TRAINBENCH_BF16_KERNELS=avx512bf16 gives those\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "bf16 on this CPU's AMX-BF16 tiles: they sum in an order of their own, so its bf16 weights "
                           "differ in their last bits from those of CPUs without them "
                           "(TRAINBENCH_BF16_KERNELS=avx512bf16 gives those)")},
        // Weights and other files given to the window (io/, core/atomic_file.cpp, predict/predictor.cpp).
        {QRegularExpression(QStringLiteral(
             "^the weights hold a text model \\((.+)\\) and (.+) holds images: evaluate them on a text$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "the weights hold a text model (%1) and %2 holds images: evaluate them on a text")},
        {QRegularExpression(
             QStringLiteral("^the weights hold a text model and (.+) holds images: evaluate them on a text$")),
         QT_TRANSLATE_NOOP("EngineText", "the weights hold a text model and %1 holds images: evaluate them on a text")},
        {QRegularExpression(QStringLiteral("^the weights hold an image model \\((.+)\\) and (.+) is a text: evaluate "
                                           "them on a folder of IDX images$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "the weights hold an image model (%1) and %2 is a text: evaluate them on a folder of IDX images")},
        {QRegularExpression(QStringLiteral(
             "^the weights hold an image model and (.+) is a text: evaluate them on a folder of IDX images$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "the weights hold an image model and %1 is a text: evaluate them on a folder of IDX images")},
        {QRegularExpression(
             QStringLiteral("^(.+): a weights file of version (.+), which this Trainbench does not read$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: a weights file of version %2, which this Trainbench does not read")},
        {QRegularExpression(QStringLiteral("^(.+): weight (\\d+) of the layers' state is not a finite number \\(NaN or "
                                           "infinity\\); the file is damaged$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1: weight %2 of the layers' state is not a finite number (NaN or infinity); the file is damaged")},
        {QRegularExpression(
             QStringLiteral("^(.+): weight (\\d+) is not a finite number \\(NaN or infinity\\); the file is damaged$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: weight %2 is not a finite number (NaN or infinity); the file is damaged")},
        {QRegularExpression(QStringLiteral(
             "^(.+): ONNX files are an export for other tools; Trainbench reads \\.tbw and \\.safetensors$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1: ONNX files are an export for other tools; Trainbench reads .tbw and .safetensors")},
        {QRegularExpression(QStringLiteral(
             "^(.+): tensor \"(.+)\" \\((.+)\\) has no place in (.+); is the file of another model\\?$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: tensor \"%2\" (%3) has no place in %4; is the file of another model?")},
        {QRegularExpression(QStringLiteral(
             "^(.+) holds no Trainbench model description \\(written by another program\\?\\): say which model its "
             "tensors belong to \\(--model NAME\\|FILE; in the window, the model chosen in Setup\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 holds no Trainbench model description (written by another program?): say which model "
                           "its tensors belong to (--model NAME|FILE; in the window, the model chosen in Setup)")},
        {QRegularExpression(QStringLiteral(
             "^these weights are a text model's \\(its inputs are (\\(.+\\)) symbol ids\\): it writes text rather than "
             "recognise pictures; use trainbench-cli generate, or the window's Write page$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "these weights are a text model's (its inputs are %1 symbol ids): it writes text rather "
                           "than recognise pictures; use trainbench-cli generate, or the window's Write page")},
        {QRegularExpression(QStringLiteral("^the model takes (\\(.+\\)) inputs, not one-channel images$")),
         QT_TRANSLATE_NOOP("EngineText", "the model takes %1 inputs, not one-channel images")},
        {QRegularExpression(QStringLiteral("^cannot read the dataset folder (.+): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read the dataset folder %1: %2")},
        {QRegularExpression(QStringLiteral("^(.+) is a run folder: its trained weights are (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a run folder: its trained weights are %2")},
        {QRegularExpression(QStringLiteral("^(.+) is a run folder without weights\\.tbw: its run has not finished "
                                           "\\(resume it, or give its checkpoint\\.tbw\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a run folder without weights.tbw: its run has not finished (resume it, "
                                         "or give its checkpoint.tbw)")},
        {QRegularExpression(QStringLiteral("^cannot read (.+): it is a folder, not a file$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read %1: it is a folder, not a file")},
        {QRegularExpression(QStringLiteral("^cannot read (.+): not a regular file$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read %1: not a regular file")},
        {QRegularExpression(QStringLiteral("^cannot read (.+): (.+) is more than fits in (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read %1: %2 is more than fits in %3")},
        {QRegularExpression(QStringLiteral("^cannot open (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot open %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot read the runs folder (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read the runs folder %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot read all of the runs folder (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read all of the runs folder %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot create the runs folder (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot create the runs folder %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot create the run folder (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot create the run folder %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot create a run folder in (.+): too many runs started this second$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot create a run folder in %1: too many runs started this second")},
        {QRegularExpression(QStringLiteral(
             "^(.+) was made on (.+) \\((\\d+ train and .+)\\), not on (.+) \\((\\d+ train and .+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 was made on %2 (%3), not on %4 (%5)")},
        {QRegularExpression(QStringLiteral("^(\\d+) train and (\\d+) test images of (\\d+)x(\\d+) in (\\d+) classes$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 train and %2 test images of %3x%4 in %5 classes")},
        {QRegularExpression(QStringLiteral(
             "^(\\d+) train and (\\d+) validation sequences of (\\d+) symbols, a vocabulary of (\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 train and %2 validation sequences of %3 symbols, a vocabulary of %4")},
        {QRegularExpression(
             QStringLiteral("^(.+) is being trained by process (\\d+) on (.+); wait for it to end, or stop it first$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 is being trained by process %2 on %3; wait for it to end, or stop it first")},
        {QRegularExpression(
             QStringLiteral("^(.+) is being trained by process (\\d+); wait for it to end, or stop it first$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is being trained by process %2; wait for it to end, or stop it first")},
        {QRegularExpression(
             QStringLiteral("^(.+) is being trained by another process; wait for it to end, or stop it first$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 is being trained by another process; wait for it to end, or stop it first")},
        {QRegularExpression(
             QStringLiteral("^(.+) is being trained by this process already; wait for it to end, or stop it first$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 is being trained by this process already; wait for it to end, or stop it first")},
        {QRegularExpression(QStringLiteral("^cannot lock the run folder (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot lock the run folder %1: %2")},
        {QRegularExpression(QStringLiteral("^(\\S+) in (.+) cannot be opened: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 in %2 cannot be opened: %3")},
        {QRegularExpression(QStringLiteral("^(\\S+) in (.+) is a folder, not an IDX file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 in %2 is a folder, not an IDX file")},
        {QRegularExpression(QStringLiteral("^(\\S+) in (.+) is not a regular file$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 in %2 is not a regular file")},
        // The OpenCL device's refusals and failures (device/opencl), and why there is none.
        {QRegularExpression(QStringLiteral("^layer (\\d+) \\((.+)\\) works on sequences, which the OpenCL device does "
                                           "not run yet: train text models on the CPU$")),
         QT_TRANSLATE_NOOP("EngineText", "layer %1 (%2) works on sequences, which the OpenCL device does not run yet: "
                                         "train text models on the CPU")},
        {QRegularExpression(QStringLiteral("^layer (\\d+) \\((.+)\\) cannot run on the OpenCL device: it has no OpenCL "
                                           "kernels; train it on the CPU$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "layer %1 (%2) cannot run on the OpenCL device: it has no OpenCL kernels; train it on the CPU")},
        {QRegularExpression(
             QStringLiteral("^a batch of (\\d+) images of (\\d+)x(\\d+) needs about (.+) on (opencl:\\d+) \\((.+)\\), "
                            "more than its (.+); use a smaller batch or size multiplier$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 images of %2x%3 needs about %4 on %5 (%6), more than its %7; "
                                         "use a smaller batch or size multiplier")},
        {QRegularExpression(QStringLiteral("^a batch of (\\d+) holds (\\d+) values in one tensor, more than the OpenCL "
                                           "kernels index \\(2\\^31\\); use a smaller batch$")),
         QT_TRANSLATE_NOOP("EngineText", "a batch of %1 holds %2 values in one tensor, more than the OpenCL kernels "
                                         "index (2^31); use a smaller batch")},
        {QRegularExpression(
             QStringLiteral("^out of device memory \\((.+)\\); use a smaller batch or size multiplier$")),
         QT_TRANSLATE_NOOP("EngineText", "out of device memory (%1); use a smaller batch or size multiplier")},
        {QRegularExpression(
             QStringLiteral("^out of device memory: (.+) needs (.+) more, (.+) of (.+) are in use(.*)$")),
         QT_TRANSLATE_NOOP("EngineText", "out of device memory: %1 needs %2 more, %3 of %4 are in use%5")},
        {QRegularExpression(
             QStringLiteral("^out of device memory: (.+) needs one buffer of (.+), the device's largest is (.+)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "out of device memory: %1 needs one buffer of %2, the device's largest is %3")},
        {QRegularExpression(QStringLiteral("^the weights$")), QT_TRANSLATE_NOOP("EngineText", "the weights")},
        {QRegularExpression(QStringLiteral("^the updated weights$")),
         QT_TRANSLATE_NOOP("EngineText", "the updated weights")},
        {QRegularExpression(QStringLiteral("^the gradient$")), QT_TRANSLATE_NOOP("EngineText", "the gradient")},
        {QRegularExpression(QStringLiteral("^the optimizer's state$")),
         QT_TRANSLATE_NOOP("EngineText", "the optimizer's state")},
        {QRegularExpression(QStringLiteral("^the optimizer's updated state$")),
         QT_TRANSLATE_NOOP("EngineText", "the optimizer's updated state")},
        {QRegularExpression(QStringLiteral("^the activations$")), QT_TRANSLATE_NOOP("EngineText", "the activations")},
        {QRegularExpression(QStringLiteral("^the activation gradients$")),
         QT_TRANSLATE_NOOP("EngineText", "the activation gradients")},
        {QRegularExpression(QStringLiteral("^the convolution columns$")),
         QT_TRANSLATE_NOOP("EngineText", "the convolution columns")},
        {QRegularExpression(QStringLiteral("^the input batch$")), QT_TRANSLATE_NOOP("EngineText", "the input batch")},
        {QRegularExpression(QStringLiteral("^the OpenCL device was lost \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "the OpenCL device was lost (%1)")},
        {QRegularExpression(QStringLiteral("^OpenCL call failed: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "OpenCL call failed: %1")},
        {QRegularExpression(
             QStringLiteral("^the OpenCL kernels did not build on (.+) \\(([A-Z0-9_-]+)\\): ([\\s\\S]*)$")),
         QT_TRANSLATE_NOOP("EngineText", "the OpenCL kernels did not build on %1 (%2): %3")},
        {QRegularExpression(
             QStringLiteral("^no OpenCL platform \\(no driver is registered in /etc/OpenCL/vendors; on Debian install "
                            "pocl-opencl-icd for the CPU, or the GPU vendor's OpenCL driver\\)$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "no OpenCL platform (no driver is registered in /etc/OpenCL/vendors; on Debian install "
                           "pocl-opencl-icd for the CPU, or the GPU vendor's OpenCL driver)")},
        {QRegularExpression(QStringLiteral("^built without OpenCL \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "built without OpenCL (%1)")},
        {QRegularExpression(QStringLiteral("^configured with -DTRAINBENCH_OPENCL=OFF$")),
         QT_TRANSLATE_NOOP("EngineText", "configured with -DTRAINBENCH_OPENCL=OFF")},
        {QRegularExpression(QStringLiteral("^the OpenCL headers or ICD loader were not found at build time: install "
                                           "ocl-icd-opencl-dev and opencl-c-headers, then rebuild$")),
         QT_TRANSLATE_NOOP("EngineText", "the OpenCL headers or ICD loader were not found at build time: install "
                                         "ocl-icd-opencl-dev and opencl-c-headers, then rebuild")},
        {QRegularExpression(
             QStringLiteral("^CLBlast was not found at build time: install libclblast-dev, then rebuild$")),
         QT_TRANSLATE_NOOP("EngineText", "CLBlast was not found at build time: install libclblast-dev, then rebuild")},
        {QRegularExpression(QStringLiteral("^the OpenCL loader failed: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "the OpenCL loader failed: %1")},
        {QRegularExpression(QStringLiteral("^the OpenCL platforms list no device$")),
         QT_TRANSLATE_NOOP("EngineText", "the OpenCL platforms list no device")},
        {QRegularExpression(QStringLiteral("^no OpenCL device available: (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "no OpenCL device available: %1")},
        {QRegularExpression(QStringLiteral(
             "^(opencl:\\d+) \\((.+)\\) ((?:is not available|has no OpenCL|supports|runs work-groups) .+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 (%2) %3")},
        {QRegularExpression(QStringLiteral("^is not available \\(in use by another program or switched off\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "is not available (in use by another program or switched off)")},
        {QRegularExpression(QStringLiteral("^has no OpenCL C compiler$")),
         QT_TRANSLATE_NOOP("EngineText", "has no OpenCL C compiler")},
        {QRegularExpression(QStringLiteral("^supports (.+); the backend needs OpenCL 1\\.2$")),
         QT_TRANSLATE_NOOP("EngineText", "supports %1; the backend needs OpenCL 1.2")},
        {QRegularExpression(
             QStringLiteral("^runs work-groups of fewer than 256 items; the backend's reductions need 256$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "runs work-groups of fewer than 256 items; the backend's reductions need 256")},
        // Training a text, the Compare page's sweep, deleting a run, texts and class names (train/, data/).
        {QRegularExpression(QStringLiteral("^the text gives a label at every step but the model predicts one per "
                                           "sequence: its last LSTM needs \"return_sequences\": true$")),
         QT_TRANSLATE_NOOP("EngineText", "the text gives a label at every step but the model predicts one per "
                                         "sequence: its last LSTM needs \"return_sequences\": true")},
        {QRegularExpression(
             QStringLiteral("^the model predicts a label at every step but the dataset has one per sample$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "the model predicts a label at every step but the dataset has one per sample")},
        {QRegularExpression(QStringLiteral("^unknown sweep '(.*)': use batch=32,64,128 or size=1,2,3$")),
         QT_TRANSLATE_NOOP("EngineText", "unknown sweep '%1': use batch=32,64,128 or size=1,2,3")},
        {QRegularExpression(QStringLiteral("^bad sweep value '(.*)' in '(.*)': expected 1\\.\\.(\\d+)$")),
         QT_TRANSLATE_NOOP("EngineText", "bad sweep value '%1' in '%2': expected 1..%3")},
        {QRegularExpression(QStringLiteral("^the sweep '(.*)' lists no values$")),
         QT_TRANSLATE_NOOP("EngineText", "the sweep '%1' lists no values")},
        {QRegularExpression(QStringLiteral("^(.+) is a symbolic link, not a run folder: it was not deleted$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is a symbolic link, not a run folder: it was not deleted")},
        {QRegularExpression(QStringLiteral("^(.+) is not a run folder$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is not a run folder")},
        {QRegularExpression(
             QStringLiteral("^(.+) holds the folder (.+): it does not look like a run folder and was not deleted$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "%1 holds the folder %2: it does not look like a run folder and was not deleted")},
        {QRegularExpression(QStringLiteral("^(.+) holds (.+), which is not a run's file: nothing was deleted \\(move "
                                           "it out of the folder first\\)$")),
         QT_TRANSLATE_NOOP(
             "EngineText",
             "%1 holds %2, which is not a run's file: nothing was deleted (move it out of the folder first)")},
        {QRegularExpression(QStringLiteral("^cannot delete (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot delete %1: %2")},
        {QRegularExpression(QStringLiteral("^cannot read the text file (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read the text file %1")},
        {QRegularExpression(QStringLiteral(
             "^classes\\.txt names more than 256 classes; labels are single bytes, so 256 is the most$")),
         QT_TRANSLATE_NOOP("EngineText",
                           "classes.txt names more than 256 classes; labels are single bytes, so 256 is the most")},
        {QRegularExpression(QStringLiteral("^cannot read (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot read %1: %2")},
        // Files written atomically (core/atomic_file.cpp); the system's reason stays as it is. Last: "(.+) is
        // not a folder" would take the Runs page's "it is not a folder".
        {QRegularExpression(QStringLiteral("^cannot write (.+?): (.+); nothing was written$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot write %1: %2; nothing was written")},
        {QRegularExpression(QStringLiteral("^cannot write (.+?): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "cannot write %1: %2")},
        {QRegularExpression(QStringLiteral("^the folder (.+) does not exist$")),
         QT_TRANSLATE_NOOP("EngineText", "the folder %1 does not exist")},
        {QRegularExpression(QStringLiteral("^(.+) is not a folder$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 is not a folder")},
        {QRegularExpression(QStringLiteral("^it is a folder; give the name of a file in it$")),
         QT_TRANSLATE_NOOP("EngineText", "it is a folder; give the name of a file in it")},
        // Where in a model a message is ("model.json, layer 3 (dense, Dense)"; a name may hold parentheses), "preset
        // NAME", a safetensors
        // file's own description: model/model_spec.cpp, model/network.cpp), with the file, the layer's number
        // and its type or name as captures of their own, so that no English word stays in the Spanish; and a
        // model file's JSON error with the engine's own reasons. Last: each is also the tail of messages that
        // have a pattern above ("run.json is damaged: JSON error ...").
        {QRegularExpression(QStringLiteral("^(.+), layer (\\d+) \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1, layer %2 (%3)")},
        {QRegularExpression(QStringLiteral("^(.+), layer (\\d+)$")), QT_TRANSLATE_NOOP("EngineText", "%1, layer %2")},
        {QRegularExpression(QStringLiteral("^layer (\\d+) \\((.+)\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "layer %1 (%2)")},
        {QRegularExpression(QStringLiteral("^preset ([\\w.-]+)$")), QT_TRANSLATE_NOOP("EngineText", "preset %1")},
        {QRegularExpression(QStringLiteral("^(.+) \\(its model description\\)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1 (its model description)")},
        {QRegularExpression(QStringLiteral("^(.+): JSON error at line (\\d+), column (\\d+): (.+)$")),
         QT_TRANSLATE_NOOP("EngineText", "%1: JSON error at line %2, column %3: %4")},
        {QRegularExpression(QStringLiteral("^duplicate member \"(.+)\"$")),
         QT_TRANSLATE_NOOP("EngineText", "duplicate member \"%1\"")},
        {QRegularExpression(QStringLiteral("^nesting deeper than (\\d+) levels$")),
         QT_TRANSLATE_NOOP("EngineText", "nesting deeper than %1 levels")},
        {QRegularExpression(QStringLiteral("^the number (.+) is out of range$")),
         QT_TRANSLATE_NOOP("EngineText", "the number %1 is out of range")},
        // The memory the refusals above measure against (core/memory.hpp's memoryLimitText).
        {QRegularExpression(QStringLiteral("^this machine's (.+) of memory$")),
         QT_TRANSLATE_NOOP("EngineText", "this machine's %1 of memory")},
        {QRegularExpression(QStringLiteral("^the (.+) memory limit of this process's control group$")),
         QT_TRANSLATE_NOOP("EngineText", "the %1 memory limit of this process's control group")},
    };
    return all;
}
} // namespace

QString EngineText::english(const QString& text)
{
    for (const Pattern& p : patterns()) {
        const QRegularExpressionMatch m = p.english.match(text);
        if (!m.hasMatch())
            continue;
        QString out = p.count > 0 ? tr(p.text, nullptr, m.captured(p.count).toInt()) : tr(p.text);
        for (int k = 1; k <= m.lastCapturedIndex(); ++k)
            if (k != p.count)
                out = out.arg(english(m.captured(k)));
        return out;
    }
    return text;
}

QString EngineText::of(const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e)) // its what() is "std::bad_alloc"
        return english(qs(tb::kOutOfMemory));
    if (const auto* error = dynamic_cast<const tb::Error*>(&e))
        if (error->id() != tb::MessageId::None)
            return message(error->id(), error->args(), qs(e.what()));
    return english(qs(e.what()));
}

QString EngineText::gpuUnavailable(const tb::SystemInfo& system)
{
    return message(system.gpuUnavailableId, {}, qs(system.gpuUnavailableReason));
}

QString EngineText::deviceUnavailable(const tb::DeviceSpec& spec, const tb::SystemInfo& system)
{
    const std::string english = tb::deviceUnavailableReason(spec, system);
    if (english.empty())
        return {};
    if (spec.kind == tb::DeviceKind::Cuda && system.gpus.empty()) // an OpenCL device's reason is its own
        return tr("no GPU available: %1").arg(gpuUnavailable(system));
    return EngineText::english(qs(english)); // bf16's reasons have their translation
}

QString EngineText::classNamesSource(const tb::Dataset& d)
{
    return classNamesSource(d.classNamesSource);
}

QString EngineText::classNamesSource(const std::string& source)
{
    if (source == "generic")
        return tr("generic");
    if (source == "MNIST digits")
        return tr("MNIST digits");
    return qs(source); // a file's or a dataset's name
}

QString EngineText::presetDescription(const std::string& name)
{
    if (name == "tpu-mnist-cnn")
        return tr("The MNIST CNN from the TPU article (BatchNorm without scale, no biases before BN), pixels scaled "
                  "to 0-1.");
    if (name == "colab-fashion-cnn")
        return tr("The Fashion-MNIST CNN from the Spanish Colab tutorial (three 5x5 conv blocks with ELU), fed raw "
                  "0-255 pixels.");
    if (name == "keras-mnist-cnn")
        return tr("The classic Keras MNIST example (two 3x3 convs, max pooling, dropout), pixels scaled to 0-1.");
    if (name == "shakespeare-lstm")
        return tr("The Shakespeare character model from the Keras TPU notebook: Embedding(256, 512), two LSTM(512), "
                  "Dense(256) softmax at every step, over 100-byte sequences (byte-level text; 4,460,800 parameters).");
    if (name == "small-text-lstm")
        return tr("A small character model that learns a text in minutes on two CPU cores: Embedding(256, 32), one "
                  "LSTM(128), Dense softmax over the vocabulary at every step, over sequences of 64 symbols (bytes, or "
                  "characters with a character-level vocabulary).");
    return qs(tb::presetDescription(name));
}

QString EngineText::kernels(const tb::Kernels& k)
{
    const QString gemm = qs(k.gemmName);
    static const QRegularExpression own(QStringLiteral("^own (\\d+x\\d+) FMA kernel$"));
    const QRegularExpressionMatch m = own.match(gemm);
    static const QRegularExpression bf16(
        QStringLiteral("^own (\\d+x\\d+) AVX512_BF16 kernel \\(bf16 inputs, FP32 sums\\)$"));
    const QRegularExpressionMatch b = bf16.match(gemm);
    return tr("%1 kernels (%2; matrix products: %3)")
        .arg(QString::fromLatin1(tb::isaName(k.isa)), QString::fromLatin1(tb::isaDescription(k.isa)),
             m.hasMatch()   ? tr("own %1 FMA kernel").arg(m.captured(1))
             : b.hasMatch() ? tr("own %1 AVX512_BF16 kernel (bf16 inputs, FP32 sums)").arg(b.captured(1))
                            : gemm);
}

namespace {
// tb::describeDataset in the window's language (counts in its locale).
QString datasetText(const RunHeader& d)
{
    if (d.text)
        return (d.bytes ? EngineText::tr("%1 training / %2 validation sequences of %3 bytes (%4 bytes of text), "
                                         "byte-level vocabulary of %5 symbols")
                        : EngineText::tr("%1 training / %2 validation sequences of %3 characters (%4 bytes of "
                                         "text), character-level vocabulary of %5 symbols"))
            .arg(formatCount(d.train), formatCount(d.test), QString::number(d.steps), formatCount(d.textBytes),
                 QString::number(d.classes));
    const QString names = EngineText::classNamesSource(d.classNamesSource);
    if (d.validation > 0)
        return EngineText::tr("%1 training / %2 validation (held out of training) / %3 test images, %4×%5, %6 "
                              "classes (%7)")
            .arg(formatCount(d.train), formatCount(d.validation), formatCount(d.test), QString::number(d.height),
                 QString::number(d.width), QString::number(d.classes), names);
    return EngineText::tr("%1 training / %2 test images, %3×%4, %5 classes (%6)")
        .arg(formatCount(d.train), formatCount(d.test), QString::number(d.height), QString::number(d.width),
             QString::number(d.classes), names);
}
} // namespace

RunHeader EngineText::runHeaderFacts(const tb::Network& net, const tb::Dataset& d, const tb::TrainConfig& cfg,
                                     const tb::RunInfo& run)
{
    RunHeader h;
    h.model = net.spec().name;
    h.params = net.paramCount() + net.stateCount();
    h.directory = d.directory;
    h.text = d.isText();
    h.bytes = d.textVocabulary == "bytes";
    h.train = d.train.count;
    h.validation = d.validation.count;
    h.test = d.test.count;
    h.textBytes = d.textBytes;
    h.steps = d.train.steps;
    h.height = d.inputHeight();
    h.width = d.inputWidth();
    h.classes = d.numClasses;
    h.classNamesSource = d.classNamesSource;
    const tb::DeviceSpec& dev = run.device;
    h.cpu = dev.kind == tb::DeviceKind::Cpu;
    h.bf16 = dev.precision == tb::Precision::Bf16;
    h.threads = dev.threads;
    h.deviceId = dev.id();
    h.batch = cfg.batchSize;
    h.optimizer = tb::optimizerName(cfg.optimizer.kind);
    h.learningRate = double(cfg.optimizer.learningRate);
    h.seed = cfg.seed;
    h.kernels = run.kernels;
    // The CPU's kernels as the window names them, where the backend describes just them (no MPI).
    if (h.cpu && run.kernels == tb::describeKernels(tb::cpuKernels(dev)))
        h.cpuKernels = &tb::cpuKernels(dev);
    h.setupNote = run.setupNote;
    return h;
}

QString EngineText::runHeader(const RunHeader& h)
{
    QString where = !h.cpu           ? qs(h.deviceId)
                    : h.threads == 1 ? tr("CPU, 1 thread")
                                     : tr("CPU, %1 threads").arg(h.threads);
    where += h.bf16 ? tr(", bf16 (bfloat16 products, FP32 accumulation)") : tr(", FP32");
    const QString kernels = h.cpuKernels ? EngineText::kernels(*h.cpuKernels) : english(qs(h.kernels));
    QString header =
        tr("Model %1 (%2 params) on %3: %4").arg(qs(h.model), formatCount(h.params), qs(h.directory), datasetText(h));
    header += QLatin1Char('\n') + tr("%1, batch %2, %3 lr %4, seed %5, %6")
                                      .arg(where, QString::number(h.batch), qs(h.optimizer),
                                           QLocale().toString(h.learningRate, 'g', 6),
                                           QString::number(qulonglong(h.seed)), kernels);
    for (const QString& note : qs(h.setupNote).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        header += QLatin1Char('\n') + english(note);
    return header;
}

QString EngineText::scheduleText(const tb::LrSchedule& s)
{
    switch (s.kind) {
    case tb::ScheduleKind::Constant:
        break;
    case tb::ScheduleKind::StepDecay:
        return tr("step decay ×%1 every %n epoch(s)", nullptr, s.everyEpochs).arg(s.factor, 0, 'g', 4);
    case tb::ScheduleKind::Exponential:
        return tr("exponential decay %1 per %2 steps").arg(s.decayRate, 0, 'g', 4).arg(s.decaySteps);
    case tb::ScheduleKind::Cosine:
        return tr("cosine decay to %1× after %2 warm-up steps").arg(s.alpha, 0, 'g', 4).arg(s.warmupSteps);
    case tb::ScheduleKind::Plateau:
        return tr("reduce on plateau of %1: ×%2 after %n epoch(s), minimum %3", nullptr, s.patience)
            .arg(qs(tb::monitorName(s.monitor)))
            .arg(s.factor, 0, 'g', 4)
            .arg(s.minLr, 0, 'g', 4);
    }
    return tr("constant");
}

QString EngineText::earlyStoppingText(const tb::EarlyStopping& es)
{
    if (!es.enabled)
        return tr("off");
    const QString text = tr("%1, patience %2, min_delta %3")
                             .arg(qs(tb::monitorName(es.monitor)))
                             .arg(es.patience)
                             .arg(es.minDelta, 0, 'g', 4);
    return es.restoreBestWeights ? tr("%1, restoring the best weights").arg(text) : text;
}

QString EngineText::batchNorm(const std::optional<tb::PreciseBnResult>& precise,
                              const std::optional<tb::BatchNormWarmth>& warmth)
{
    if (precise && precise->layers > 0)
        return tr("Precise BN: BatchNorm's moving statistics were recomputed over %1 training batches (%2 images) "
                  "after training; the test accuracy uses them.")
            .arg(precise->batches)
            .arg(QLocale().toString(qlonglong(precise->samples)));
    if (!warmth || !warmth->stillInitial())
        return {};
    // Two sentences rather than "step(s)": %1 the momentum, %2 the share, %3 the steps.
    const QString text =
        warmth->steps == 1
            ? tr("BatchNorm's moving statistics still hold %2% of their initial values (mean 0, variance 1) after "
                 "1 step at momentum %1, so the test accuracy can be lower than the training accuracy. Train "
                 "longer, or set Advanced → Precise BN (100 batches) and train again.")
            : tr("BatchNorm's moving statistics still hold %2% of their initial values (mean 0, variance 1) after "
                 "%3 steps at momentum %1, so the test accuracy can be lower than the training accuracy. Train "
                 "longer, or set Advanced → Precise BN (100 batches) and train again.");
    const QString filled =
        text.arg(formatNumber(double(warmth->momentum), 2)).arg(formatNumber(100.0 * warmth->initialShare, 0));
    return warmth->steps == 1 ? filled : filled.arg(warmth->steps);
}

namespace {
const tb::TrainOption& option(const char* name)
{
    const tb::TrainOption* o = tb::findTrainOption(name);
    Q_ASSERT_X(o, "option", name);
    return *o;
}
} // namespace

QString EngineText::optionLabel(const char* name)
{
    return QCoreApplication::translate("TrainOption", option(name).label.c_str());
}

void setOptionRange(QSpinBox* box, const char* name)
{
    box->setRange(int(option(name).lo), int(option(name).hi));
}

void setOptionRange(QDoubleSpinBox* box, const char* name)
{
    box->setRange(option(name).lo, option(name).hi);
}

} // namespace tbui
