// The engine's messages in the window's language: an engine error that carries a stable message id
// (tb::MessageId) is shown through the translation of that id with its arguments; one without
// keeps the engine's English. Preset descriptions are looked up by the preset's name.
#pragma once

#include "core/errors.hpp"

#include <QCoreApplication>
#include <QString>

#include <exception>
#include <string>
#include <vector>

namespace tb {
struct DeviceSpec;
struct SystemInfo;
} // namespace tb

namespace tbui {

class EngineText {
    Q_DECLARE_TR_FUNCTIONS(EngineText)
public:
    // The message of `id` with its arguments; `english` when the id is None or unknown.
    static QString message(tb::MessageId id, const std::vector<std::string>& args, const QString& english);
    static QString of(const std::exception& e); // a tb::Error through its id, else what()
    static QString gpuUnavailable(const tb::SystemInfo& system);
    // tb::deviceUnavailableReason in the window's language; empty when the device can be used.
    static QString deviceUnavailable(const tb::DeviceSpec& spec, const tb::SystemInfo& system);
    static QString presetDescription(const std::string& name);
};

} // namespace tbui
