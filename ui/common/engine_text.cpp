#include "common/engine_text.hpp"

#include "common/text.hpp"
#include "device/device.hpp"
#include "model/model_spec.hpp"

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
    case MessageId::GpuBuiltWithoutCuda:
        text = tr("built without CUDA");
        break;
    }
    if (text.isEmpty())
        return english; // an id newer than this table
    for (const std::string& a : args) {
        QString arg = qs(a);
        if (id == MessageId::TrainingDiverged) { // the third argument names what diverged
            if (a == "loss")
                arg = tr("loss");
            else if (a == "gradient")
                arg = tr("gradient");
            else if (a == "updated weights")
                arg = tr("updated weights");
        }
        text = text.arg(arg);
    }
    return text;
}

QString EngineText::of(const std::exception& e)
{
    if (const auto* error = dynamic_cast<const tb::Error*>(&e))
        return message(error->id(), error->args(), qs(e.what()));
    return qs(e.what());
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
    return qs(english);
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
    return qs(tb::presetDescription(name));
}

} // namespace tbui
